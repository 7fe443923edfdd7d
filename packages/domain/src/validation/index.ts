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
  validateVariantBCreate,
  validateWebhookRequest,
} from './validate';
export type { VariantBCreateRequest } from './validate';
// The schemas and patterns themselves, for the OpenAPI documents (packages/openapi), which are built from them.
export {
  DATE_FORMAT,
  STEP_SCHEMAS,
  createRequestSchema,
  creditCheckRequestSchema,
  securityTokenRequestSchema,
  stepRequestSchema,
  tokenRequestSchema,
  variantBCreateSchema,
  webhookRequestSchema,
} from './schemas';
export type { ConsentRule } from './schemas';
export { AU_DATE, ISO_DATE } from './validate';
