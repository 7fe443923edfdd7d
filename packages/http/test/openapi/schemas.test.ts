import {
  FORM_TYPES,
  checkIdempotencyKey,
  parseSandboxScore,
  validateApplicantDetails,
  validateCreateRequest,
  validateStepData,
  validateStepRequest,
  validateTokenRequest,
  validateVariantBCreate,
  validateVariantBPatch,
  validateApplicantDetailsB,
  validateSecurityTokenRequest,
  type FieldViolation,
  type FormType,
  type JsonSchema,
  type Result,
  type StepNumber,
} from '@loanmatch/domain';
import { VALID_STEPS, flatApplication, silentLogger, validApplicant } from '../../../../tests/support';
import {
  EXAMPLES_A,
  EXAMPLES_B,
  createServiceApp,
  toOpenApiSchema,
  variantADocument,
  variantBDocument,
  type Schema,
} from '../../src';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { documentAjv } from '../../../../tests/support/openapi';
import { SERVED_A, SERVED_B } from './documents';

const buildA = () => variantADocument(SERVED_A);
const buildB = () => variantBDocument(SERVED_B);
const DOCUMENTS: Array<[string, Schema]> = [
  ['A', buildA()],
  ['B', buildB()],
];

const components = (document: Schema) => (document.components as Schema).schemas as Record<string, Schema>;
const stepName = (formType: FormType, step: StepNumber) =>
  `${formType[0].toUpperCase()}${formType.slice(1)}LoanStep${step}`;
/** A step component, following the reference of a step that is another's very schema. */
function stepComponent(document: Schema, formType: FormType, step: StepNumber): Schema {
  const schema = components(document)[stepName(formType, step)];
  return typeof schema.$ref === 'string' ? components(document)[schema.$ref.split('/').pop() as string] : schema;
}

/** A request's number field is `oneOf` the bounded number and a numeric string: its bounds are on the number. */
function numberBranch(property: Schema): Schema {
  const branches = property.oneOf as Schema[] | undefined;
  return branches?.find((branch) => branch.type === 'number' || branch.type === 'integer') ?? property;
}

/** Every (path, value) of a JSON value, depth first. */
function* walk(value: unknown, path: string[] = []): Generator<[string[], unknown]> {
  yield [path, value];
  if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) yield* walk(v, [...path, k]);
}

describe("OpenAPI schemas built from the domain's validation schemas", () => {
  it.each(DOCUMENTS)(
    "when Variant %s's document is searched, then no keyword only our ajv knows is left in it",
    (_name, document) => {
      const leftovers = [...walk(document)].filter(
        ([path, value]) =>
          // `x-internal` on a server is OpenAPI's own extension (the audience of a server), not a keyword of ours.
          (/^x-/.test(path[path.length - 1] ?? '') && path[path.length - 3] !== 'servers' && path[0] !== 'servers') ||
          path[path.length - 1] === '$id' ||
          (path[path.length - 1] === 'format' && value === 'date-ymd-or-dmy'),
      );
      expect(leftovers.map(([path]) => path.join('.'))).toEqual([]);
    },
  );

  it('when a schema has a keyword the translation does not know, then building fails instead of copying it', () => {
    expect(() => toOpenApiSchema({ type: 'string', 'x-secret-rule': 1 } as unknown as JsonSchema)).toThrow(
      /x-secret-rule/,
    );
    expect(() => toOpenApiSchema({ type: 'object', additionalProperties: true } as unknown as JsonSchema)).toThrow(
      /additionalProperties/,
    );
  });

  it('when the consent and age rules are translated, then consent is standard JSON Schema that refuses a body without a true consent', () => {
    const { ajv } = documentAjv(buildA());
    const validate = ajv.compile({ $ref: 'doc#/components/schemas/ApplicantDetails' });
    expect(validate(validApplicant())).toBe(true);
    expect(validate(validApplicant({ consentCreditCheck: false }))).toBe(false);
    expect(validate(validApplicant({ consentCreditCheck: undefined, privacyConsent: true }))).toBe(true);
    expect(validate(validApplicant({ dateOfBirth: '1988/07/14' }))).toBe(false);
    expect(validate(validApplicant({ dateOfBirth: '14/07/1988' }))).toBe(true);
    expect(JSON.stringify(components(buildA()).ApplicantDetails)).toMatch(/at least 18 years old/);
  });

  it('when a whole-number field is sent as a numeric string, then the document takes the strings the validator takes', () => {
    const { ajv } = documentAjv(buildA());
    const validate = ajv.compile({ $ref: `doc#/components/schemas/${stepName('personal', 2)}` });
    for (const loanTerm of ['5', '5.0', '5.00', '5.5', '5e0', ' 5']) {
      const data = { ...VALID_STEPS.personal[2], loanTerm };
      expect([loanTerm, validate(data)]).toEqual([loanTerm, validateStepData('personal', 2, data).ok]);
    }
  });

  describe('each documented bound is the bound the validator enforces', () => {
    /** The violations of one field when `data` is validated as step `step` of `formType` (or step 5, or B's create). */
    type Check = (data: Record<string, unknown>) => Result<unknown>;
    const cases: Array<[string, Schema, Record<string, unknown>, Check]> = [];
    for (const formType of FORM_TYPES) {
      for (const step of [1, 2, 3, 4] as const) {
        cases.push([
          `${formType} step ${step}`,
          stepComponent(buildA(), formType, step),
          VALID_STEPS[formType][step],
          (data) => validateStepData(formType, step, data),
        ]);
      }
    }
    cases.push([
      'step 5',
      components(buildA()).ApplicantDetails,
      validApplicant(),
      (data) => validateApplicantDetails({ data }),
    ]);
    cases.push([
      'Variant B create',
      components(buildB()).CreateApplicationBRequest,
      flatApplication(),
      (data) => validateVariantBCreate(data),
    ]);
    // One branch per loan type: a car or home application carried over from A takes its own fields.
    (['personal', 'car', 'home'] as const).forEach((formType, i) => {
      cases.push([
        `Variant B PATCH of a ${formType} application`,
        (components(buildB()).UpdateApplicationBRequest.anyOf as Schema[])[i],
        { securityToken: 'st_x' },
        (data) => validateVariantBPatch(data, undefined, formType),
      ]);
    });

    const violationsOf = (result: Result<unknown>, field: string): FieldViolation[] =>
      result.ok ? [] : (result.error.details ?? []).filter((v) => v.field === field);

    it.each(cases)(
      '%s: a value at each documented minimum and maximum passes, one beyond fails naming that field and bound',
      (_name, schema, valid, check) => {
        const properties = Object.entries(schema.properties as Record<string, Schema>);
        let bounds = 0;
        for (const [field, property] of properties) {
          const { minimum, maximum, minLength, maxLength } = numberBranch(property) as {
            minimum?: number;
            maximum?: number;
            minLength?: number;
            maxLength?: number;
          };
          const probe = (value: unknown) => violationsOf(check({ ...valid, [field]: value }), field);
          if (maximum !== undefined) {
            bounds++;
            expect(probe(maximum)).toEqual([]);
            expect(probe(maximum + 1).map((v) => v.message)).toEqual([expect.stringContaining(String(maximum))]);
          }
          if (minimum !== undefined) {
            bounds++;
            expect(probe(minimum)).toEqual([]);
            expect(probe(minimum - 1).map((v) => v.message)).toEqual([expect.stringContaining(String(minimum))]);
          }
          // Lengths of text fields without a format of their own (an e-mail or a date of that length is no valid value).
          if (
            maxLength !== undefined &&
            property.format === undefined &&
            property.pattern === undefined &&
            property.enum === undefined
          ) {
            bounds++;
            expect(probe('x'.repeat(maxLength))).toEqual([]);
            expect(probe('x'.repeat(maxLength + 1)).map((v) => v.message)).toEqual([
              expect.stringContaining(String(maxLength)),
            ]);
            if (minLength !== undefined && minLength > 0) expect(probe('x'.repeat(minLength - 1))).toHaveLength(1);
          }
        }
        // Every table with a bounded field was probed (step 1 of a home loan has enums only).
        if (properties.some(([, p]) => numberBranch(p).maximum !== undefined || p.maxLength !== undefined))
          expect(bounds).toBeGreaterThan(0);
      },
    );
  });

  describe('examples', () => {
    /** Every example of a document, with the schema it illustrates, as JSON Pointer segments. */
    function examplesOf(document: Schema): Array<{ where: string; value: unknown; schema: string[] }> {
      const out: Array<{ where: string; value: unknown; schema: string[] }> = [];
      for (const [path, value] of walk(document)) {
        const last = path[path.length - 1];
        const parent = path[path.length - 2];
        if (parent === 'examples' && typeof value === 'object' && value !== null && 'value' in value) {
          const owner = path.slice(0, -2);
          out.push({ where: path.join(' '), value: (value as { value: unknown }).value, schema: [...owner, 'schema'] });
        } else if (last === 'example') {
          out.push({ where: path.join(' '), value, schema: path.slice(0, -1) });
        }
      }
      return out;
    }

    it.each(DOCUMENTS)(
      "when every example of Variant %s's document is validated against its schema, then all are valid",
      (_name, document) => {
        const { compile } = documentAjv(document);
        const examples = examplesOf(document);
        expect(examples.length).toBeGreaterThan(40);
        const invalid = examples.filter(({ value, schema }) => !compile(schema)(value)).map(({ where }) => where);
        expect(invalid).toEqual([]);
      },
    );

    it('when an example breaks its schema, then the same check finds it', () => {
      const document = structuredClone(buildA());
      const create = ((document.paths as Schema)['/applications'] as Schema).post as Schema;
      const media = ((create.requestBody as Schema).content as Schema)['application/json'] as {
        examples: Record<string, { value: Schema }>;
      };
      (media.examples.personal.value.data as Schema).loanAmount = 999;
      const { compile } = documentAjv(document);
      const broken = examplesOf(document).filter(({ value, schema }) => !compile(schema)(value));
      expect(broken.map(({ where }) => where)).toEqual([expect.stringContaining('examples personal')]);
    });

    it("when the request examples are given to the domain's own validators, then each is accepted", () => {
      for (const body of Object.values(EXAMPLES_A.create))
        expect(validateCreateRequest(body)).toMatchObject({ ok: true });
      for (const body of Object.values(EXAMPLES_A.steps))
        expect(validateStepRequest('personal', body)).toMatchObject({ ok: true });
      for (const body of Object.values(EXAMPLES_A.creditCheck))
        expect(validateApplicantDetails(body)).toMatchObject({ ok: true });
      for (const body of Object.values(EXAMPLES_B.token))
        expect(validateTokenRequest(body)).toMatchObject({ ok: true });
      for (const body of Object.values(EXAMPLES_B.create))
        expect(validateVariantBCreate(body)).toMatchObject({ ok: true });
      for (const body of Object.values(EXAMPLES_B.update))
        expect(validateVariantBPatch(body)).toMatchObject({ ok: true });
      for (const body of [...Object.values(EXAMPLES_B.creditCheck), ...Object.values(EXAMPLES_B.match)])
        expect(validateSecurityTokenRequest(body)).toMatchObject({ ok: true });
      // B's credit check: each example's step-5 fields over the create example's identity make a valid step 5 (B's: no date of birth needed).
      for (const { securityToken: _token, ...fields } of Object.values(EXAMPLES_B.creditCheck)) {
        const { firstName, lastName, email, phone } = EXAMPLES_B.create.spec;
        expect(
          validateApplicantDetailsB(
            { firstName, lastName, email, mobileNumber: phone, consentCreditCheck: true, ...fields },
            new Date(),
          ),
        ).toMatchObject({ ok: true });
      }
    });
  });

  describe('header parameters agree with the domain', () => {
    it('when words, near-misses and the numbers 0-12999 (plain and zero-padded) are read as a validating proxy reads a header, then the document accepts what the sandbox accepts, its words listed and its range bounded', () => {
      // Prism, like other validators, reads a header parameter as its schema types it (ajv's coerceTypes).
      const ajv = new Ajv2020({ strict: false, coerceTypes: true });
      addFormats(ajv);
      const { SandboxScore } = (buildA().components as Schema).parameters as Record<string, Schema>;
      const validate = ajv.compile(SandboxScore.schema as object);
      const [words, range] = (SandboxScore.schema as { oneOf: Schema[] }).oneOf;
      expect(words.enum).toEqual(['excellent', 'very_good', 'good', 'average', 'below_average', 'poor', 'unavailable']);
      expect(range).toMatchObject({ type: 'integer', minimum: 0, maximum: 1200 });

      const candidates = [
        'excellent',
        'very_good',
        'good',
        'average',
        'below_average',
        'poor',
        'unavailable',
        'Good',
        'great',
        '',
        '-1',
        '1.5',
        ' 670',
        '1e3',
      ];
      candidates.push('10000', '99999', '01200', '001200', '00001');
      for (let n = 0; n < 13000; n++) candidates.push(String(n), String(n).padStart(4, '0'));
      const disagree = candidates.filter((value) => validate(value) !== parseSandboxScore(value).ok);
      // What a number-coercing reader takes and the sandbox refuses, all outside what a client of the
      // document sends (the digits of a whole number): surrounding spaces (HTTP strips them before either
      // sees the header), an exponent, and zero padding past four digits.
      expect(disagree).toEqual([' 670', '1e3', '01200', '001200', '00001']);
    });

    it('when keys of every printable and some unprintable characters and lengths are tried, then the documented Idempotency-Key schema accepts exactly what the service accepts', () => {
      const { ajv } = documentAjv(buildA());
      const validate = ajv.compile({ $ref: 'doc#/components/parameters/IdempotencyKey/schema' });
      const candidates = ['', ' ', 'a b', 'é', '\t', 'x'.repeat(255), 'x'.repeat(256), 'create-1'];
      for (let code = 0; code < 0x80; code++) candidates.push(String.fromCharCode(code));
      const disagree = candidates.filter((key) => validate(key) !== checkIdempotencyKey(key, true).ok);
      expect(disagree).toEqual([]);
    });

    it('when request ids of every printable character and of 128 and 129 characters are sent, then the service echoes exactly those the documented X-Request-Id schema accepts', async () => {
      const { ajv } = documentAjv(buildA());
      const validate = ajv.compile({ $ref: 'doc#/components/parameters/XRequestId/schema' });
      const app = createServiceApp({ contract: 'test', logger: silentLogger, ping: async () => true, routes: [] });
      const candidates = ['x'.repeat(128), 'x'.repeat(129), 'trace:1.2_3-4', 'a b', 'é'];
      for (let code = 0x21; code < 0x7f; code++) candidates.push(`id${String.fromCharCode(code)}`);
      const disagree: string[] = [];
      for (const id of candidates) {
        const echoed = (await request(app).get('/healthz').set('X-Request-Id', id)).headers['x-request-id'] === id;
        if (echoed !== validate(id)) disagree.push(id);
      }
      expect(disagree).toEqual([]);
    });

    it('when e-mail addresses of the documented maximum and one more are tried, then the service takes the one and refuses the other naming the limit', () => {
      const { email } = components(buildA()).ApplicantDetails.properties as Record<string, Schema>;
      const maxLength = email.maxLength as number;
      const address = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(length - 69)}.com`;
      expect(validateApplicantDetails({ data: validApplicant({ email: address(maxLength) }) })).toMatchObject({
        ok: true,
      });
      expect(validateApplicantDetails({ data: validApplicant({ email: address(maxLength + 1) }) })).toMatchObject({
        ok: false,
        error: { message: `email: must be at most ${maxLength} characters` },
      });
    });
  });
});
