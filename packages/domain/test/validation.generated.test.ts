/**
 * Tests generated from the schemas themselves: for every loan type and step (and step 5), every field
 * of the table is exercised at and beyond its bounds, with wrong types, every enum value, every
 * required field and every default. No bound is restated here: each comes from the schema object the
 * validator was compiled from, so a bound changed in `schemas.ts` moves its tests with it.
 */
import {
  FORM_TYPES,
  applicantSchema,
  schemaFor,
  validateApplicantDetails,
  validateStepData,
  type JsonSchema,
  type ObjectSchema,
  type StepNumber,
} from '../src/validation';
import type { Result } from '../src/errors';
import {
  APPLICANT_BASELINE,
  BASELINES,
  NOW,
  expectError,
  expectOk,
  getField,
  withField,
  type Data,
} from './validation.fixtures';

interface Target {
  name: string;
  schema: ObjectSchema;
  baseline: Data;
  validate: (data: unknown) => Result<Data>;
}

const STEPS: StepNumber[] = [1, 2, 3, 4];

const targets: Target[] = [
  ...FORM_TYPES.flatMap((formType) =>
    STEPS.map((step) => ({
      name: `${formType} step ${step}`,
      schema: schemaFor(formType, step),
      baseline: BASELINES[formType][step],
      validate: (data: unknown) => validateStepData(formType, step, data),
    })),
  ),
  {
    name: 'step 5 (applicant details)',
    schema: applicantSchema as ObjectSchema,
    baseline: APPLICANT_BASELINE,
    validate: (data: unknown) => validateApplicantDetails({ data }, NOW),
  },
];

interface Field {
  path: string[];
  name: string;
  schema: JsonSchema;
}

/** Every field of an object schema, nested object fields included (as dotted paths). */
function fieldsOf(schema: JsonSchema, prefix: string[] = []): Field[] {
  return Object.entries<JsonSchema>(schema.properties ?? {}).flatMap(([key, sub]) => {
    const path = [...prefix, key];
    return [{ path, name: path.join('.'), schema: sub }, ...fieldsOf(sub, path)];
  });
}

const isNumeric = (s: JsonSchema) => s.type === 'number' || s.type === 'integer';

/** Expects exactly one violation, for `field`, with `rule` (and `message` when given). */
function expectSingleViolation(result: Result<Data>, field: string, rule: string, message?: string) {
  const error = expectError(result);
  expect(error.details).toEqual([
    { field, rule, message: message ?? expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')}: `)) },
  ]);
}

describe.each(targets)('$name', ({ schema, baseline, validate }) => {
  const fields = fieldsOf(schema);

  test('when the baseline document is sent, then it is accepted unchanged apart from defaults', () => {
    const value = expectOk(validate(baseline));
    expect(value).toMatchObject(baseline);
  });

  test('when a field outside the table is sent, then it is dropped from the value', () => {
    const value = expectOk(validate({ ...baseline, notInTheTable: 'x' }));
    expect(value).not.toHaveProperty('notInTheTable');
  });

  // ---------------------------------------------------------------------------------------------
  // Numbers
  // ---------------------------------------------------------------------------------------------

  const numericFields = fields.filter((f) => isNumeric(f.schema));
  if (numericFields.length > 0) {
    describe.each(numericFields)('numeric field $name', ({ path, name, schema: field }) => {
      const { minimum: min, maximum: max } = field as Required<Pick<JsonSchema, 'minimum' | 'maximum'>>;
      const rangeMessage = `${name}: must be between ${min} and ${max}`;

      test('when the table is read, then the field has both bounds', () => {
        expect(typeof min).toBe('number');
        expect(typeof max).toBe('number');
      });

      test('when the value is one below the minimum, then it is rejected with both bounds in the message', () => {
        expectSingleViolation(validate(withField(baseline, path, min - 1)), name, 'range', rangeMessage);
      });

      test('when the value is the minimum, then it is accepted', () => {
        expect(getField(expectOk(validate(withField(baseline, path, min))), path)).toBe(min);
      });

      test('when the value is the maximum, then it is accepted', () => {
        expect(getField(expectOk(validate(withField(baseline, path, max))), path)).toBe(max);
      });

      test('when the value is one above the maximum, then it is rejected with both bounds in the message', () => {
        expectSingleViolation(validate(withField(baseline, path, max + 1)), name, 'range', rangeMessage);
      });

      test.each([String(min), String(max), String(Math.floor((min + max) / 2))])(
        'when the value is the numeric string "%s", then it is accepted and stored as a number',
        (text) => {
          expect(getField(expectOk(validate(withField(baseline, path, text))), path)).toBe(Number(text));
        },
      );

      test(`when the value is the numeric string of one above the maximum, then it is rejected as out of range`, () => {
        expectSingleViolation(validate(withField(baseline, path, String(max + 1))), name, 'range', rangeMessage);
      });

      test.each<[string, unknown]>([
        ['true', true],
        ['false', false],
        ['null', null],
        ['an object', {}],
        ['an array', [min]],
        ['"abc"', 'abc'],
        ['an empty string', ''],
        ['a string with spaces', ` ${min} `],
        ['exponent notation', `${min}e0`],
        ['a thousands separator', '1,000'],
        ['a hexadecimal string', '0x10'],
        ['a leading plus', `+${min}`],
        ['a trailing dot', `${min}.`],
      ])('when the value is %s, then it is rejected with "must be a number"', (_label, value) => {
        expectSingleViolation(validate(withField(baseline, path, value)), name, 'type', `${name}: must be a number`);
      });

      if (field.type === 'integer') {
        test('when the value has a fraction, then it is rejected with "must be a whole number"', () => {
          expectSingleViolation(
            validate(withField(baseline, path, min + 0.5)),
            name,
            'integer',
            `${name}: must be a whole number`,
          );
        });
        test('when the value is a numeric string with a fraction, then it is rejected with "must be a whole number"', () => {
          expectSingleViolation(
            validate(withField(baseline, path, `${min}.5`)),
            name,
            'integer',
            `${name}: must be a whole number`,
          );
        });
      } else {
        test('when the value has a fraction, then it is accepted', () => {
          expect(getField(expectOk(validate(withField(baseline, path, min + 0.5))), path)).toBe(min + 0.5);
        });
        test('when the value is a numeric string with a fraction, then it is accepted as that number', () => {
          expect(getField(expectOk(validate(withField(baseline, path, `${min}.5`))), path)).toBe(min + 0.5);
        });
      }
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Strings
  // ---------------------------------------------------------------------------------------------

  const freeStrings = fields.filter((f) => f.schema.type === 'string' && f.schema.enum === undefined);
  if (freeStrings.length > 0) {
    describe.each(freeStrings)('string field $name', ({ path, name, schema: field }) => {
      test('when the value is not a string, then it is rejected with "must be a string"', () => {
        expectSingleViolation(validate(withField(baseline, path, 12345678)), name, 'type', `${name}: must be a string`);
      });

      const { minLength, maxLength, format } = field;
      if (maxLength !== undefined) {
        const maxText =
          minLength !== undefined && minLength > 1
            ? `must be between ${minLength} and ${maxLength} characters`
            : `must be at most ${maxLength} characters`;
        // A field with a format cannot be filled with 'x'; its own tests cover valid values.
        if (format === undefined) {
          test('when the value has the maximum length, then it is accepted', () => {
            const value = 'x'.repeat(maxLength);
            expect(getField(expectOk(validate(withField(baseline, path, value))), path)).toBe(value);
          });
        }
        test('when the value is one character over the maximum length, then it is rejected', () => {
          const error = expectError(validate(withField(baseline, path, 'x'.repeat(maxLength + 1))));
          expect(error.details[0]).toEqual({ field: name, rule: 'maxLength', message: `${name}: ${maxText}` });
        });
      }

      if (minLength !== undefined) {
        const minText =
          minLength === 1 ? 'must not be empty' : `must be between ${minLength} and ${String(maxLength)} characters`;
        if (format === undefined) {
          test('when the value has the minimum length, then it is accepted', () => {
            expect(getField(expectOk(validate(withField(baseline, path, 'x'.repeat(minLength)))), path)).toBe(
              'x'.repeat(minLength),
            );
          });
        }
        test('when the value is one character under the minimum length, then it is rejected', () => {
          const error = expectError(validate(withField(baseline, path, 'x'.repeat(minLength - 1))));
          expect(error.details[0]).toEqual({ field: name, rule: 'minLength', message: `${name}: ${minText}` });
        });
      } else if (format === undefined) {
        test('when the value is empty, then it is accepted (the table does not say "not empty")', () => {
          expect(getField(expectOk(validate(withField(baseline, path, ''))), path)).toBe('');
        });
      }
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Enums
  // ---------------------------------------------------------------------------------------------

  const enumFields = fields.filter((f) => f.schema.enum !== undefined);
  if (enumFields.length > 0) {
    describe.each(enumFields)('enum field $name', ({ path, name, schema: field }) => {
      const values: (string | number)[] = field.enum ?? [];
      const message = `${name}: must be one of ${values.join(', ')}`;

      test.each(values.map((v) => [v]))('when the value is %s, then it is accepted', (value) => {
        expect(getField(expectOk(validate(withField(baseline, path, value))), path)).toBe(value);
      });

      test.each<[string, unknown]>([
        ['a value outside the list', 'bogus'],
        [
          'a listed value in another case',
          String(values[0]).toUpperCase() === String(values[0])
            ? String(values[0]).toLowerCase()
            : String(values[0]).toUpperCase(),
        ],
        ['a number', 1],
        ['a boolean', true],
        ['null', null],
      ])('when the value is %s, then it is rejected with the list of allowed values', (_label, value) => {
        expectSingleViolation(validate(withField(baseline, path, value)), name, 'enum', message);
      });
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Booleans (step 5 consents)
  // ---------------------------------------------------------------------------------------------

  const booleanFields = fields.filter((f) => f.schema.type === 'boolean');
  if (booleanFields.length > 0) {
    describe.each(booleanFields)('boolean field $name', ({ path, name }) => {
      test.each([true, false])(
        'when the value is %s and credit check consent is given, then it is accepted as is',
        (value) => {
          const doc = withField({ ...baseline, privacyConsent: true }, path, value);
          expect(getField(expectOk(validate(doc)), path)).toBe(value);
        },
      );

      test.each<[string, unknown]>([
        ['the string "true"', 'true'],
        ['the string "false"', 'false'],
        ['the number 1', 1],
        ['the number 0', 0],
        ['null', null],
      ])('when the value is %s, then it is rejected as not a JSON boolean', (_label, value) => {
        const error = expectError(validate(withField({ ...baseline, privacyConsent: true }, path, value)));
        expect(error.details[0]).toEqual({
          field: name,
          rule: 'type',
          message: `${name}: must be a JSON boolean (true or false)`,
        });
      });
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Nested objects
  // ---------------------------------------------------------------------------------------------

  const objectFields = fields.filter((f) => f.schema.type === 'object');
  if (objectFields.length > 0) {
    describe.each(objectFields)('object field $name', ({ path, name }) => {
      test.each<[string, unknown]>([
        ['a string', 'x'],
        ['an array', []],
        ['null', null],
      ])('when the value is %s, then it is rejected with "must be an object"', (_label, value) => {
        expectSingleViolation(validate(withField(baseline, path, value)), name, 'type', `${name}: must be an object`);
      });

      test('when the object has a field outside the table, then that field is dropped', () => {
        const value = expectOk(validate(withField(baseline, path, { notInTheTable: 'x' })));
        expect(getField(value, path)).toEqual({});
      });
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Required fields and defaults
  // ---------------------------------------------------------------------------------------------

  const required: string[] = schema.required ?? [];
  test('when the table is read, then every required field is in the baseline', () => {
    for (const name of required) expect(baseline).toHaveProperty(name);
  });

  if (required.length > 0) {
    test.each(required.map((name) => [name]))('when %s is missing, then it is rejected with "is required"', (name) => {
      expectSingleViolation(validate(withField(baseline, [name], undefined)), name, 'required', `${name}: is required`);
    });
  }

  test('when every field is missing, then every required field is reported, in table order', () => {
    if (required.length === 0) return expect(expectOk(validate({}))).toBeDefined();
    const error = expectError(validate({}));
    const tableOrder = Object.keys(schema.properties).filter((f) => required.includes(f));
    expect(error.details.filter((d) => d.rule === 'required').map((d) => d.field)).toEqual(tableOrder);
    expect(error.details[0].field).toBe(tableOrder[0]);
  });

  const defaulted = fields.filter((f) => f.schema.default !== undefined);
  if (defaulted.length > 0) {
    test.each(defaulted)('when $name is omitted, then its default is stored', ({ path, schema: field }) => {
      const value = expectOk(validate(withField(baseline, path, undefined)));
      expect(getField(value, path)).toBe(field.default);
    });
  }
});

describe('coverage of the generated tests', () => {
  test('when every field of every table is listed, then each has a type the generator exercises', () => {
    for (const { schema } of targets) {
      for (const { name, schema: field } of fieldsOf(schema)) {
        expect([name, ['number', 'integer', 'string', 'boolean', 'object'].includes(String(field.type))]).toEqual([
          name,
          true,
        ]);
      }
    }
  });
});
