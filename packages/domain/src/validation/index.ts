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
