/**
 * The OpenAPI 3.1 documents of the two partner front-ends, built from the domain's validation schemas,
 * and the routes that serve them (`/openapi.json`) with their reference page (`/docs`).
 */
export { docsRoutes } from './docs-routes';
export { toOpenApiSchema, type Schema } from './schemas';
export type { DocumentOptions } from './document';
export { EXAMPLES_A, variantADocument } from './variant-a';
export { EXAMPLES_B, variantBDocument } from './variant-b';
export { EXAMPLES_LENDER } from './lenders';
