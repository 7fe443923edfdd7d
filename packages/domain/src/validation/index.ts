/** Validation of partner request bodies against the spec's field tables (section 2). */
export { FORM_TYPES, WEBHOOK_EVENT_TYPES, applicantSchema, schemaFor } from './schemas';
export type { FormType, JsonSchema, ObjectSchema, StepNumber } from './schemas';
export {
  validateApplicantDetails,
  validateCreateRequest,
  validateSecurityTokenRequest,
  validateStepData,
  validateStepEnvelope,
  validateStepRequest,
  validateTokenRequest,
  validateWebhookRequest,
} from './validate';
export { validateApplicantDetailsB, validateVariantBCreate, validateVariantBPatch } from './variant-b';
export type { VariantBCreateRequest } from './variant-b';
export { FLAT_FIELDS, variantBApplicantSchema, variantBCreateSchema, variantBPatchSchema } from './variant-b-schemas';
export type { FlatStep } from './variant-b-schemas';
// The schemas and patterns themselves, for the OpenAPI documents (packages/http/src/openapi), which are built from them.
export {
  DATE_FORMAT,
  STEP_SCHEMAS,
  createRequestSchema,
  creditCheckRequestSchema,
  securityTokenRequestSchema,
  stepRequestSchema,
  tokenRequestSchema,
  webhookRequestSchema,
} from './schemas';
export type { ConsentRule } from './schemas';
export { validateOutcomeEvent, OCCURRED_AT_TOLERANCE_MS, type OutcomeEventRequest } from './lifecycle';
export { FUNDED_AMOUNT_BOUNDS, outcomeEventSchema } from './lifecycle-schemas';
export {
  CLIENT_TAGS_MAX_ENTRIES,
  CLIENT_TAG_KEY_MAX_LENGTH,
  CLIENT_TAG_KEY_PATTERN,
  CLIENT_TAG_VALUE_MAX_LENGTH,
  clientTagsSchema,
  type ClientTags,
} from './client-tags-schema';
export { HEADER_SCHEMAS, NUMERIC_STRING_MAX_LENGTH, pageQuerySchema, stringCheck } from './schemas';
export { AU_DATE, ISO_DATE } from './dates';
export { INTEGER_STRING, NUMERIC_STRING } from './validate';
export { checkCursorText, parsePageLimit } from './page-query';
