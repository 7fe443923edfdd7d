/**
 * The request bodies around the field tables (schemas.ts): Variant A's wrappers, Variant B's token
 * exchange and flat bodies, webhook registration, a lender's outcome event, a partner's `clientTags`,
 * and the query parameters and headers a partner sends. Their root label is `body`.
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { deepFreeze } from '../deep-freeze';
import { UUID_PATTERN } from '../ids';
import { DECLINE_REASONS, OUTCOME_TYPES } from '../outcomes/lifecycle';
import {
  FORM_TYPES,
  PATCH_STEPS,
  STEP_SCHEMAS,
  applicantSchema,
  byFormType,
  int,
  nonEmptyText,
  num,
  object,
  oneOf,
  opt,
  type FormType,
} from './schemas';

const wrapper = { 'x-message': { type: 'must be a JSON object' } };
const anyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object' });

// `clientTags`: a partner's own attribution on an application (campaign, channel, sub-id), taken at
// create by both contracts and carried onto its referrals, their outcomes, reports and webhooks.

export const CLIENT_TAGS_MAX_ENTRIES = 5;
export const CLIENT_TAG_KEY_MAX_LENGTH = 32;
export const CLIENT_TAG_VALUE_MAX_LENGTH = 128;
const CHARACTERS = 'A-Za-z0-9_.-';
const CHARACTERS_TEXT = 'A-Z, a-z, 0-9, _, . and -';
/** A whole key, as `groupBy=tag:<key>` names one. */
export const CLIENT_TAG_KEY_PATTERN = `^[${CHARACTERS}]{1,${CLIENT_TAG_KEY_MAX_LENGTH}}$`;
/** The characters alone; the lengths are `minLength` and `maxLength`, so that a value breaks one rule at a time. */
const CHARACTERS_ONLY = `^[${CHARACTERS}]*$`;

export const clientTagsSchema = Type.Unsafe<Record<string, string>>({
  type: 'object',
  maxProperties: CLIENT_TAGS_MAX_ENTRIES,
  propertyNames: { type: 'string', minLength: 1, maxLength: CLIENT_TAG_KEY_MAX_LENGTH, pattern: CHARACTERS_ONLY },
  additionalProperties: {
    type: 'string',
    minLength: 1,
    maxLength: CLIENT_TAG_VALUE_MAX_LENGTH,
    pattern: CHARACTERS_ONLY,
    'x-message': `must be a string of 1 to ${CLIENT_TAG_VALUE_MAX_LENGTH} characters of ${CHARACTERS_TEXT}`,
  },
  'x-message': {
    type: `must be an object of at most ${CLIENT_TAGS_MAX_ENTRIES} tags, {"key": "value"}`,
    maxProperties: `must hold at most ${CLIENT_TAGS_MAX_ENTRIES} tags`,
    propertyNames: `each key must be 1 to ${CLIENT_TAG_KEY_MAX_LENGTH} characters of ${CHARACTERS_TEXT}`,
  },
});

// Variant A

/** POST /applications: `{formType, data}`; `data` is then checked as step 1 of that loan type. */
export const createRequestSchema = object(
  { formType: oneOf(FORM_TYPES), data: anyObject, clientTags: opt(clientTagsSchema) },
  wrapper,
);

/** PATCH /applications/{id}: `{step, data}`; `step` may be a numeric string like any number. */
export const stepRequestSchema = object({ step: oneOf(PATCH_STEPS, { type: 'integer' }), data: anyObject }, wrapper);

/** POST /applications/{id}/credit-check: `{data}`, then checked as step 5. */
export const creditCheckRequestSchema = object({ data: anyObject }, wrapper);

// Variant B: the token exchange, the security token, and the flat bodies. Every flat field is the
// very definition of a personal loan field of steps 1-5 under its table name, `phone` being step 5's
// `mobileNumber`, so no bound is written twice and messages read `<field>: <rule text>`.

/** POST /v1/auth/token: `{grantType: "api_key"}`. */
export const tokenRequestSchema = object({ grantType: oneOf(['api_key'] as const) }, wrapper);

/** The `securityToken` of Variant B's PATCH, credit check and match bodies (`st_` and 43 characters). */
const securityToken = Type.String({ minLength: 1, maxLength: 200 });
export const securityTokenRequestSchema = object({ securityToken }, wrapper);

/** The step a flat field belongs to (step 5: the applicant's details). */
export type FlatStep = 2 | 3 | 4 | 5;
type Places = Record<string, { readonly step: FlatStep; readonly name: string }>;

/** A step field's name among B's flat fields: step 5's `mobileNumber` is `phone` there. */
export const flatNameOf = (name: string): string => (name === 'mobileNumber' ? 'phone' : name);

/**
 * A loan type's flat fields: where each belongs (its step and its name there, in the tables' order; a
 * name two tables list, such as `homeAddress` in steps 4 and 5, belongs to the first) and each by its B
 * name, optional and without its default: a field not sent must never replace one sent before. The
 * step's own schema applies defaults when its fields are saved as the step.
 */
function flatFieldsOf(formType: FormType) {
  const places: Places = {};
  const flat: Record<string, TSchema> = {};
  for (const step of [2, 3, 4, 5] as const) {
    const table = step === 5 ? applicantSchema : STEP_SCHEMAS[formType][step];
    for (const [name, field] of Object.entries(table.properties)) {
      const flatName = flatNameOf(name);
      if (Object.hasOwn(places, flatName)) continue;
      places[flatName] = { step, name };
      const { default: _default, ...definition } = field;
      flat[flatName] = opt(definition as TSchema);
    }
  }
  return { places, flat };
}

const FLAT = byFormType(flatFieldsOf);
/** Where each flat field belongs, by loan type: B creates personal loans; a car or home application
 * carried over from Variant A takes the fields of its own loan type's steps. */
export const FLAT_FIELDS_OF: Readonly<Record<FormType, Readonly<Places>>> = byFormType((type) => FLAT[type].places);
/** The personal loan's, which B's create takes. */
export const FLAT_FIELDS = FLAT_FIELDS_OF.personal;
const { flat } = FLAT.personal;

/** The fields of the flat create beside `formType` and `loanAmount`: all required but the consent. */
const CREATE_FIELDS = ['loanPurpose', 'firstName', 'lastName', 'email', 'phone'];

/** POST /v1/applications: `formType` personal, `loanAmount`, `loanPurpose`, names, e-mail and `phone`; optional, every other field of personal steps 2-5. */
export const variantBCreateSchema = object(
  {
    formType: oneOf(['personal'] as const),
    loanAmount: STEP_SCHEMAS.personal[1].properties.loanAmount,
    ...Object.fromEntries(CREATE_FIELDS.map((name) => [name, opt(flat[name], false)])),
    consentCreditCheck: flat.consentCreditCheck,
    ...Object.fromEntries(Object.entries(flat).filter(([name]) => !CREATE_FIELDS.includes(name))),
    clientTags: opt(clientTagsSchema),
  },
  wrapper,
);

/** PATCH /v1/applications/{applicationId}, by the application's loan type: the security token and any of its flat fields to add or replace. */
export const variantBPatchSchemas: Readonly<Record<FormType, TObject>> = byFormType((type) =>
  object({ securityToken, ...FLAT[type].flat }, wrapper),
);

/** Step 5 as Variant B's credit check takes it: Variant A's, with `dateOfBirth` optional. */
export const variantBApplicantSchema = object(
  { ...applicantSchema.properties, dateOfBirth: opt(applicantSchema.properties.dateOfBirth) },
  { 'x-consent': applicantSchema['x-consent'] },
);

// Webhook registration, on either front-end

/** Event types an endpoint may subscribe to. (`webhook.test` is sent on request, to one endpoint.) */
export const WEBHOOK_EVENT_TYPES = Object.freeze(['application.status_changed', 'referral.outcome_changed'] as const);

/** `{url, events?}`, `events` taken from `eventTypes`; the URL's scheme and addresses are checked apart, by environment. */
const webhookRequest = <T extends readonly string[]>(eventTypes: T) =>
  object(
    { url: nonEmptyText(2048), events: opt(Type.Array(oneOf(eventTypes), { minItems: 1, maxItems: 20 })) },
    wrapper,
  );

/** POST /webhooks: a partner's endpoint, for any of `WEBHOOK_EVENT_TYPES`. */
export const webhookRequestSchema = webhookRequest(WEBHOOK_EVENT_TYPES);

/** `POST /api/lender/v1/webhooks`: a lender's endpoint, for its leads (`lead.created`, the one event it takes). */
export const lenderWebhookRequestSchema = webhookRequest(['lead.created'] as const);

// A lender's outcome event (`POST /api/lender/v1/outcomes`). The reference names a referral (the
// `lm_ref` its tracking redirect gave the lender); the event id is the lender's own, unique per
// lender, and makes a retry safe.

const timestamp = Type.String({ format: 'date-time', maxLength: 40 });
const whenType = (type: string, fields: string[]) => ({
  if: { properties: { type: { const: type } }, required: ['type'] },
  then: { required: fields, 'x-message': `is required when type is ${type}` },
});

export const outcomeEventSchema = object(
  {
    reference: nonEmptyText(36, {
      pattern: UUID_PATTERN,
      'x-message': { pattern: 'must be the lm_ref of a referral (a UUID)' },
    }),
    eventId: nonEmptyText(128, {
      pattern: '^[\\x21-\\x7e]+$',
      'x-message': { pattern: 'must be printable ASCII without spaces' },
    }),
    type: oneOf(OUTCOME_TYPES),
    occurredAt: timestamp,
    // A cent up to the largest loan any product may write.
    fundedAmount: opt(num(0.01, 10_000_000, { 'x-cents': true })),
    fundedAt: opt(timestamp),
    declineReason: opt(oneOf(DECLINE_REASONS)),
  },
  { allOf: [whenType('funded', ['fundedAmount', 'fundedAt']), whenType('declined', ['declineReason'])], ...wrapper },
);

// What a partner sends beside the bodies: query parameters and headers. Their checks (page-query.ts,
// idempotency.ts, the HTTP layer's request id) read their bounds from here, and so do the documents.

/** The longest numeric string a number field takes (`"15000"`, `"12.5"`): far more digits than any
 * bound needs, so a longer one is refused before it is converted. */
export const NUMERIC_STRING_MAX_LENGTH = 32;

/** The query of the paged lists: `limit` (both lists) and the referrals' `cursor`, which encodes a time and an id. */
export const pageQuerySchema = object({
  limit: opt(int(1, 100, { default: 50 })),
  cursor: opt(nonEmptyText(100, { pattern: '^[A-Za-z0-9_-]+$' })),
});

/** Headers a partner may send, by their schema: printable ASCII keys, and request ids safe to log and echo. */
export const HEADER_SCHEMAS = {
  idempotencyKey: nonEmptyText(255, { pattern: '^[!-~]+$' }),
  requestId: nonEmptyText(128, { pattern: '^[A-Za-z0-9._:-]+$' }),
};

// The object schemas are frozen as they are built (`object`); these are not object schemas.
deepFreeze({ clientTagsSchema, FLAT_FIELDS_OF, HEADER_SCHEMAS });
