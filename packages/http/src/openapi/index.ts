/**
 * OpenAPI 3.1 documents of the two partner front-ends, built from the domain's validation schemas,
 * and the routes that serve them (`/openapi.json`) with their reference page (`/docs`).
 */
import type { DocumentOptions } from './document';
import type { Schema } from './schemas';
import { buildVariantADocument } from './variant-a';
import { buildVariantBDocument } from './variant-b';

export { docsRoutes, DOCS_CSP } from './docs-routes';
export { toOpenApiSchema, DATE_PATTERN, type Schema } from './schemas';
export type { DocumentOptions } from './document';
export { EXAMPLES_A } from './variant-a';
export { EXAMPLES_B } from './variant-b';
export { EXAMPLES_LENDER } from './lifecycle';

/** Variant A's document, without components it does not use. */
export const variantADocument = (options: DocumentOptions): Schema => asServed(buildVariantADocument(options));
/** Variant B's document, without components it does not use. */
export const variantBDocument = (options: DocumentOptions): Schema => asServed(buildVariantBDocument(options));

/** The document as JSON holds it: plain data, without the TypeBox markers (symbol keys) of the domain's schemas. */
const asServed = (document: Schema): Schema => JSON.parse(JSON.stringify(pruneComponents(document)));

/**
 * Both documents are built from one set of components; each keeps only those its paths and webhooks
 * reach, so Variant B's reference does not list Variant A's request bodies and the reverse.
 */
function pruneComponents(document: Schema): Schema {
  const components = document.components as Record<string, Record<string, unknown>>;
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/') && !used.has(child)) {
        used.add(child);
        const [, , kind, name] = child.split('/');
        visit(components[kind]?.[name]);
      } else {
        visit(child);
      }
    }
  };
  visit(document.paths);
  visit(document.webhooks);
  const kept = Object.fromEntries(
    Object.entries(components).map(([kind, entries]) => [
      kind,
      kind === 'securitySchemes'
        ? entries
        : Object.fromEntries(Object.entries(entries).filter(([name]) => used.has(`#/components/${kind}/${name}`))),
    ]),
  );
  return { ...document, components: kept };
}
