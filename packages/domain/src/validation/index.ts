/** Validation of partner request bodies against the spec's field tables (section 2). */
export { FORM_TYPES, applicantSchema, schemaFor } from './schemas';
export type { FormType, JsonSchema, ObjectSchema, StepNumber } from './schemas';
export { validateApplicantDetails, validateCreateRequest, validateStepData, validateStepEnvelope, validateStepRequest } from './validate';
