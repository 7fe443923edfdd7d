/**
 * The validation schemas a document is built from. By default the domain's own (the very objects its
 * validators were compiled from); tests pass a changed set to show that a bound changed there is a
 * bound changed in the document.
 */
import {
  STEP_SCHEMAS,
  applicantSchema,
  createRequestSchema,
  creditCheckRequestSchema,
  securityTokenRequestSchema,
  stepRequestSchema,
  tokenRequestSchema,
  variantBCreateSchema,
  variantBPatchSchema,
  webhookRequestSchema,
  type FormType,
  type ObjectSchema,
  type StepNumber,
} from '@loanmatch/domain';

export interface SchemaSource {
  /** Steps 1-4 of each loan type (spec 2.2-2.4). */
  readonly steps: Readonly<Record<FormType, Readonly<Record<StepNumber, ObjectSchema>>>>;
  /** Step 5 (spec 2.5). */
  readonly applicant: ObjectSchema;
  /** Variant A's request wrappers: create `{formType, data}`, PATCH `{step, data}`, credit check `{data}`. */
  readonly createRequest: ObjectSchema;
  readonly stepRequest: ObjectSchema;
  readonly creditCheckRequest: ObjectSchema;
  /** Variant B: token exchange, flat create and PATCH, the security token of credit check and match. */
  readonly tokenRequest: ObjectSchema;
  readonly variantBCreate: ObjectSchema;
  readonly variantBPatch: ObjectSchema;
  readonly securityTokenRequest: ObjectSchema;
  /** `POST /webhooks` on either front-end. */
  readonly webhookRequest: ObjectSchema;
}

export const DOMAIN_SCHEMAS: SchemaSource = Object.freeze({
  steps: STEP_SCHEMAS,
  applicant: applicantSchema,
  createRequest: createRequestSchema,
  stepRequest: stepRequestSchema,
  creditCheckRequest: creditCheckRequestSchema,
  tokenRequest: tokenRequestSchema,
  variantBCreate: variantBCreateSchema,
  variantBPatch: variantBPatchSchema,
  securityTokenRequest: securityTokenRequestSchema,
  webhookRequest: webhookRequestSchema,
});
