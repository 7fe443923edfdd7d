/** Validation of Variant B's flat bodies (variant-b-schemas.ts): Variant A's field rules and messages. */
import type { Result } from '../errors';
import { ok } from '../errors';
import { compile, run } from './validate';
import { variantBApplicantSchema, variantBCreateSchema, variantBPatchSchema } from './variant-b-schemas';

const CREATE = compile(variantBCreateSchema, 'body');
const PATCH = compile(variantBPatchSchema, 'body');
const APPLICANT = compile(variantBApplicantSchema, 'data');

/** Spec 4.6's flat create, normalised; the optional fields of steps 2-5 beside them, by their B names. */
export interface VariantBCreateRequest {
  formType: 'personal';
  loanAmount: number;
  loanPurpose: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  consentCreditCheck?: boolean;
  clientTags?: Record<string, string>;
  [field: string]: unknown;
}

/**
 * Validates Variant B's `POST /v1/applications` body; the value is normalised (numeric strings as
 * numbers, dates as `YYYY-MM-DD`), unknown fields dropped. An age is measured on `now`.
 */
export function validateVariantBCreate(body: unknown, now?: Date): Result<VariantBCreateRequest> {
  const request = run(CREATE, body, now);
  return request.ok ? ok(request.value as VariantBCreateRequest) : request;
}

/** Validates Variant B's `PATCH /v1/applications/{id}` body; the value is the fields to add or replace (without the token). */
export function validateVariantBPatch(body: unknown, now?: Date): Result<Record<string, unknown>> {
  const request = run(PATCH, body, now);
  if (!request.ok) return request;
  const { securityToken: _token, ...fields } = request.value;
  return ok(fields);
}

/** Step 5 as Variant B's credit check makes it (`dateOfBirth` optional), checked as Variant A checks step 5 (age on `now`, consent). */
export function validateApplicantDetailsB(data: unknown, now: Date): Result<Record<string, unknown>> {
  return run(APPLICANT, data, now);
}
