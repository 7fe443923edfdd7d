/**
 * The client's request types as a partner's strict project compiles them: a field of any loan type that
 * the service takes must be accepted, and one that no type has refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';

jest.setTimeout(60_000);

it("when a Variant B PATCH names the fields of a personal, car or home application, then FlatFields takes each application's own", () => {
  const file = join(mkdtempSync(join(tmpdir(), 'loanmatch-client-types-')), 'fields.ts');
  const types = JSON.stringify(join(__dirname, '..', 'src', 'types'));
  writeFileSync(
    file,
    [
      `import type { FlatFields } from ${types};`,
      "export const personal: FlatFields = { loanPurpose: 'holiday', loanTerm: 5, employmentType: 'full_time' };",
      'export const car: FlatFields = { depositAmount: 3000, loanAmount: 20000, loanTerm: 5 };',
      "export const home: FlatFields = { propertyValue: 750000, repaymentType: 'principal_and_interest' };",
      '// @ts-expect-error: a field no loan type has',
      'export const none: FlatFields = { notAField: 1 };',
    ].join('\n'),
  );
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
  expect(diagnostics).toEqual([]);
});
