/** Validation of partner and lender request bodies, and the schemas the OpenAPI documents are built from. */
export * from './schemas';
export * from './requests';
export * from './validators';
export { DATE_TIME_TEXT, INTEGER_STRING, NUMERIC_STRING, stringCheck } from './validate';
export { AU_DATE, ISO_DATE } from './dates';
export { checkCursorText, parsePageLimit } from './page-query';
export * from './responses';
