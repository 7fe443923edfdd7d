import { validate } from '@readme/openapi-parser';
import { variantADocument, variantBDocument } from '../../src';
import { SERVED_A, SERVED_B } from './documents';

describe('the OpenAPI documents', () => {
  it.each([
    ['A', () => variantADocument(SERVED_A)],
    ['B', () => variantBDocument(SERVED_B)],
  ])(
    "when Variant %s's document is checked by @readme/openapi-parser, then it is a valid OpenAPI 3.1 document",
    async (_name, build) => {
      const document = build();
      const result = await validate(structuredClone(document) as never);
      // Printed in full on failure: the validator's messages name the offending path.
      expect(result).toEqual({ valid: true, warnings: [], specification: 'OpenAPI' });
      expect(document.openapi).toMatch(/^3\.1\./);
    },
  );
});
