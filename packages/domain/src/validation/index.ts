/** Validation of partner request bodies against the spec's field tables (section 2). */
export { FORM_TYPES, applicantSchema, schemaFor } from './schemas';
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
} from './validate';
export type { VariantBCreateRequest } from './validate';
