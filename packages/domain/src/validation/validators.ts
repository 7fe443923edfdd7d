/** The validators of partner and lender request bodies: each schema compiled once, at module load. */
import type { Static } from '@sinclair/typebox';
import { invalid, ok, violation, type FieldViolation, type Result } from '../errors';
import type { DeclineReason, OutcomeType } from '../outcomes/lifecycle';
import { toCents } from '../outcomes/money';
import {
  createRequestSchema,
  creditCheckRequestSchema,
  outcomeEventSchema,
  securityTokenRequestSchema,
  stepRequestSchema,
  tokenRequestSchema,
  variantBApplicantSchema,
  variantBCreateSchema,
  variantBPatchSchemas,
  webhookRequestSchema,
  lenderWebhookRequestSchema,
} from './requests';
import { STEP_SCHEMAS, applicantSchema, byFormType, schemaFor, type FormType, type StepNumber } from './schemas';
import { DATE_TIME_TEXT, validator } from './validate';

type Data = Record<string, unknown>;

/** Every step schema compiled, by its schema object (car steps 3 and 4 are personal's). */
const STEPS = new Map(
  Object.values(STEP_SCHEMAS).flatMap((steps) =>
    Object.values(steps).map((schema) => [schema, validator(schema, 'data')]),
  ),
);
const applicant = validator(applicantSchema, 'data');
const createRequest = validator(createRequestSchema);
const creditCheckRequest = validator(creditCheckRequestSchema);
const variantBPatch = byFormType((formType) => validator(variantBPatchSchemas[formType]));
const outcomeEvent = validator(outcomeEventSchema);

/**
 * Validates one step's data (1-4) for a loan type; the value is the normalised data. The loan type and
 * step come from our own code or database, never straight from a request: `schemaFor` throws on others.
 */
export function validateStepData(formType: FormType, step: StepNumber, data: unknown): Result<Data> {
  return STEPS.get(schemaFor(formType, step))!(data);
}

/** Validates the POST create body `{formType, data}`; `data` is the step-1 data of that loan type. */
export function validateCreateRequest(body: unknown): Result<Static<typeof createRequestSchema>> {
  // The wrapper schema only checks that `data` is an object; the step schema then copies and checks it.
  const request = createRequest(body);
  if (!request.ok) return request;
  const data = validateStepData(request.value.formType, 1, request.value.data);
  return data.ok ? ok({ ...request.value, data: data.value }) : data;
}

/**
 * Validates the PATCH envelope `{step, data}` alone: `step` is 2, 3 or 4 and `data` an object. Lets the
 * caller check the step's order before the step's fields.
 */
export const validateStepEnvelope = validator(stepRequestSchema);

/** Validates the PATCH body `{step, data}` for the application's loan type; `step` is 2, 3 or 4. */
export function validateStepRequest(formType: FormType, body: unknown): Result<{ step: 2 | 3 | 4; data: Data }> {
  schemaFor(formType, 2); // a loan type that is not ours is a programming error: throw before reading the body
  const request = validateStepEnvelope(body);
  if (!request.ok) return request;
  const data = validateStepData(formType, request.value.step, request.value.data);
  return data.ok ? ok({ step: request.value.step, data: data.value }) : data;
}

/**
 * Validates the credit-check body `{data: {...}}` (step 5); the value is the normalised applicant
 * details (`dateOfBirth` as `YYYY-MM-DD`). The applicant must be 18 or older on `now`.
 */
export function validateApplicantDetails(body: unknown, now: Date = new Date()): Result<Data> {
  const request = creditCheckRequest(body, now);
  return request.ok ? applicant(request.value.data, now) : request;
}

/** Validates Variant B's `POST /v1/auth/token` body: `grantType` must be `api_key`. */
export const validateTokenRequest = validator(tokenRequestSchema);

/** Reads the `securityToken` of a Variant B body (other fields are left to their own validation). */
export const validateSecurityTokenRequest = validator(securityTokenRequestSchema);

/** Validates `POST /webhooks`: `url` a string, `events` (optional) a non-empty list of known event types. */
export const validateWebhookRequest = validator(webhookRequestSchema);

/** Validates `POST /api/lender/v1/webhooks`: `url` a string, `events` (optional) `lead.created` only. */
export const validateLenderWebhookRequest = validator(lenderWebhookRequestSchema);

/**
 * Validates Variant B's `POST /v1/applications` body; the value is normalised (numeric strings as
 * numbers, dates as `YYYY-MM-DD`), unknown fields dropped. An age is measured on `now`.
 */
export const validateVariantBCreate = validator(variantBCreateSchema);

/**
 * Validates Variant B's `PATCH /v1/applications/{id}` body by the flat fields of the application's loan
 * type; the value is the fields to add or replace (without the token).
 */
export function validateVariantBPatch(body: unknown, now?: Date, formType: FormType = 'personal'): Result<Data> {
  const request = variantBPatch[formType](body, now);
  if (!request.ok) return request;
  const { securityToken: _token, ...fields } = request.value;
  return ok(fields);
}

/** Step 5 as Variant B's credit check makes it (`dateOfBirth` optional), checked as Variant A checks step 5 (age on `now`, consent). */
export const validateApplicantDetailsB = validator(variantBApplicantSchema, 'data');

// A lender's outcome event, with the rules that relate its fields

/** How far ahead of our clock a lender's time may be (clocks differ); further is refused. */
export const OCCURRED_AT_TOLERANCE_MS = 5 * 60 * 1000;

export interface OutcomeEventRequest {
  reference: string;
  eventId: string;
  type: OutcomeType;
  occurredAt: Date;
  fundedAmountCents: number | null;
  fundedAt: Date | null;
  declineReason: DeclineReason | null;
}

/**
 * Validates an outcome event; the value is normalised (amounts in cents, times as dates). Funding fields
 * come only with `funded`, a decline reason only with `declined`; no time may be ahead of `now` by more
 * than `OCCURRED_AT_TOLERANCE_MS`.
 */
export function validateOutcomeEvent(body: unknown, now: Date): Result<OutcomeEventRequest> {
  // Lenders' systems send exactly the documented fields: an unknown one is refused, not dropped.
  const unknown =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? Object.keys(body).find((field) => !Object.hasOwn(outcomeEventSchema.properties, field))
      : undefined;
  if (unknown !== undefined) return invalid(violation(unknown, 'unknown', 'is not a field of an outcome event'));
  const request = outcomeEvent(body);
  if (!request.ok) return request;
  const v = request.value;
  const violations: FieldViolation[] = [];
  if (v.type !== 'funded')
    for (const field of ['fundedAmount', 'fundedAt'] as const)
      if (v[field] !== undefined) violations.push(violation(field, 'onlyWhenFunded', 'is only for type funded'));
  if (v.type !== 'declined' && v.declineReason !== undefined)
    violations.push(violation('declineReason', 'onlyWhenDeclined', 'is only for type declined'));
  const latest = now.getTime() + OCCURRED_AT_TOLERANCE_MS;
  const occurredAt = new Date(v.occurredAt);
  const fundedAt = v.fundedAt === undefined ? null : new Date(v.fundedAt);
  for (const [field, at] of Object.entries({ occurredAt, fundedAt }))
    if (at && Number.isNaN(at.getTime())) violations.push(violation(field, 'format', DATE_TIME_TEXT));
    else if (at && at.getTime() > latest) violations.push(violation(field, 'notInFuture', 'must not be in the future'));
  if (violations.length > 0) return invalid(...violations);
  return ok({
    reference: v.reference,
    eventId: v.eventId,
    type: v.type,
    occurredAt,
    fundedAmountCents: v.fundedAmount === undefined ? null : toCents(v.fundedAmount),
    fundedAt,
    declineReason: v.declineReason ?? null,
  });
}
