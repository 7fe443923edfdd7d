/**
 * Property-based tests (fast-check) over arbitrary input: whatever a partner sends, validation
 * returns a result (never throws), never mutates the input, and a success only ever holds fields of
 * the table with values inside their bounds.
 */
import fc from 'fast-check';
import { FORM_TYPES, schemaFor, validateStepData, type JsonSchema, type StepNumber } from '../src/validation';
import { BASELINES, type Data } from './validation.fixtures';

const STEPS: StepNumber[] = [1, 2, 3, 4];
const targets = FORM_TYPES.flatMap((formType) =>
  STEPS.map((step) => ({ formType, step, schema: schemaFor(formType, step) })),
);

/** Any value a JSON body can hold, including keys that look dangerous. */
const jsonRecord = fc.dictionary(
  fc.oneof(
    fc.string(),
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'loanAmount', 'loanTerm', 'homeAddressComponents'),
  ),
  fc.jsonValue(),
);

function withinTable(schema: JsonSchema, value: unknown): boolean {
  const properties = schema.properties;
  if (properties !== undefined) {
    if (typeof value !== 'object' || value === null) return false;
    return Object.entries(value).every(([key, v]) => Object.hasOwn(properties, key) && withinTable(properties[key], v));
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    return typeof value === 'number' && value >= (schema.minimum ?? -Infinity) && value <= (schema.maximum ?? Infinity);
  }
  if (schema.enum !== undefined) return schema.enum.includes(value as string);
  return typeof value === schema.type;
}

describe.each(targets)('$formType step $step', ({ formType, step, schema }) => {
  test('when arbitrary JSON is sent, then the result is ok with only table fields in bounds, or a list of violations', () => {
    fc.assert(
      fc.property(fc.oneof(jsonRecord, fc.jsonValue()), (input) => {
        const before = JSON.stringify(input);
        const result = validateStepData(formType, step, input);
        expect(JSON.stringify(input)).toBe(before);
        if (result.ok) expect(withinTable(schema, result.value)).toBe(true);
        else for (const v of result.error.details ?? []) expect(v.message.startsWith(`${v.field}: `)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('when arbitrary fields are added to the valid baseline, then it stays valid and they are not stored', () => {
    fc.assert(
      fc.property(jsonRecord, (extra) => {
        const known = new Set(Object.keys(schema.properties));
        const unknown = Object.fromEntries(Object.entries(extra).filter(([k]) => !known.has(k)));
        const result = validateStepData(formType, step, { ...unknown, ...BASELINES[formType][step] } as Data);
        expect(result.ok).toBe(true);
        if (result.ok) for (const key of Object.keys(result.value)) expect(known.has(key)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  const numeric = Object.entries(schema.properties).filter(([, f]) => f.type === 'number' || f.type === 'integer');
  if (numeric.length > 0) {
    test.each(numeric)(
      'when any whole number in the bounds of %s is sent as a string, then it is stored as that number',
      (name, field) => {
        fc.assert(
          fc.property(fc.integer({ min: field.minimum ?? 0, max: field.maximum ?? 0 }), (n) => {
            const result = validateStepData(formType, step, { ...BASELINES[formType][step], [name]: String(n) });
            expect(result.ok && result.value[name]).toBe(n);
          }),
          { numRuns: 50 },
        );
      },
    );
  }
});
