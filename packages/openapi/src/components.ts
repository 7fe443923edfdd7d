/**
 * What both documents share: the request schemas translated from the domain's (from `SchemaSource`
 * only), the headers and parameters, and the error responses built from the contract's list of codes
 * (status, example message). The response schemas are in `response-schemas.ts`.
 */
import { FORM_TYPES, SANDBOX_SCORE_VALUES, type FormType, type ObjectSchema, type StepNumber } from '@loanmatch/domain';
import { ERROR_CODES } from '@loanmatch/contract';
import { STATUS_OF, type HttpErrorCode } from '@loanmatch/http';
import { toOpenApiSchema, type Schema } from './schema-translation';
import type { SchemaSource } from './source';

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
export const dateTime: Schema = { type: 'string', format: 'date-time' };
export const uuid: Schema = { type: 'string', format: 'uuid' };

const LOAN_TYPE_NAMES: Record<FormType, string> = { personal: 'Personal', car: 'Car', home: 'Home' };
/** `PersonalLoanStep2` and so on: the component name of one step table. */
export const stepComponent = (formType: FormType, step: StepNumber | 5): string =>
  step === 5 ? 'ApplicantDetails' : `${LOAN_TYPE_NAMES[formType]}LoanStep${step}`;

const NUMBERS_NOTE =
  'Numbers may be sent as JSON numbers or as plain decimal strings (`"15000"`, `"12.5"`); fields not listed here are ignored.';
const FLAT_FIELDS_NOTE =
  "Flat fields of a personal loan: each is the field of that name in steps 1-5, with its rule (`phone` is step 5's `mobileNumber`; `homeAddress` is step 4's). " +
  'A step whose fields are all known and valid is saved as Variant A saves it, in order; the rest is kept until it is. Matching uses what is known: offers are `indicative` until the term, employment, income and living situation are known.';

// ---------------------------------------------------------------------------------------------
// Request schemas: the domain's, translated
// ---------------------------------------------------------------------------------------------

/** The step tables as components; a step that is another's very schema (car steps 3-4) refers to it. */
function stepSchemas(source: SchemaSource): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const named = new Map<ObjectSchema, string>();
  for (const formType of FORM_TYPES) {
    for (const step of [1, 2, 3, 4] as const) {
      const schema = source.steps[formType][step];
      const name = stepComponent(formType, step);
      const same = named.get(schema);
      out[name] = same
        ? { ...ref(same), description: `The same fields, types and bounds as ${same}.` }
        : {
            title: `${LOAN_TYPE_NAMES[formType]} loan, step ${step}`,
            ...withNote(toOpenApiSchema(schema), NUMBERS_NOTE),
          };
      if (!same) named.set(schema, name);
    }
  }
  return out;
}

function withNote(schema: Schema, note: string): Schema {
  return { ...schema, description: schema.description ? `${String(schema.description)} ${note}` : note };
}

/** One wrapper property replaced by a reference (the wrapper's own keywords, required list and order kept). */
function wrap(wrapper: ObjectSchema, replace: Record<string, Schema>, extra: Schema = {}): Schema {
  const base = toOpenApiSchema(wrapper);
  return { ...base, properties: { ...(base.properties as Record<string, Schema>), ...replace }, ...extra };
}

/**
 * Variant B's credit-check body: the security token, and step 5's fields other than the identity given
 * at create. Which fields those are is read from the schemas: the step-5 definitions that the flat
 * create requires (names, e-mail, `phone` = `mobileNumber`) are ignored here; the rest of step 5 may be sent.
 */
export function variantBCreditCheckSchema(source: SchemaSource): Schema {
  const applicant = toOpenApiSchema(source.applicant);
  const createdWith = new Set(
    (source.variantBCreate.required ?? []).flatMap((field) =>
      Object.entries(source.applicant.properties)
        .filter(([, schema]) => schema === source.variantBCreate.properties[field])
        .map(([name]) => name),
    ),
  );
  const properties = Object.fromEntries(
    Object.entries(applicant.properties as Record<string, Schema>).filter(([name]) => !createdWith.has(name)),
  );
  const token = toOpenApiSchema(source.securityTokenRequest);
  return {
    type: 'object',
    description:
      "The application's `securityToken`, and any step-5 fields to lay over those given at create and by PATCH; checked as Variant A checks step 5 (age, consent), except that `dateOfBirth` is optional. " +
      `Consent may have been given at create or by PATCH (\`consentCreditCheck: true\`); a consent field here overrides it. Names, e-mail and phone sent here are ignored. ${NUMBERS_NOTE}`,
    properties: { ...(token.properties as Record<string, Schema>), ...properties },
    required: [...(source.securityTokenRequest.required ?? [])],
  };
}

export function requestSchemas(source: SchemaSource): Record<string, Schema> {
  const formTypes = (source.createRequest.properties.formType.enum ?? []) as FormType[];
  const steps = (source.stepRequest.properties.step.enum ?? []) as Array<2 | 3 | 4>;
  const createVariants = Object.fromEntries(
    formTypes.map((formType) => [
      `Create${LOAN_TYPE_NAMES[formType]}Application`,
      wrap(
        source.createRequest,
        { formType: { type: 'string', const: formType }, data: ref(stepComponent(formType, 1)) },
        { title: `Create a ${formType} loan application` },
      ),
    ]),
  );
  const stepVariants = Object.fromEntries(
    steps.map((step) => {
      // One reference per loan type (anyOf, not oneOf: car steps 3-4 are personal's very schemas).
      const refs = formTypes.map((formType) => ref(stepComponent(formType, step)));
      return [
        `SaveStep${step}`,
        wrap(
          source.stepRequest,
          {
            step: { type: 'integer', const: step },
            data: { description: `Step ${step} of the application's loan type.`, anyOf: refs },
          },
          { title: `Save step ${step}` },
        ),
      ];
    }),
  );
  return {
    ...stepSchemas(source),
    ApplicantDetails: {
      title: 'Step 5: applicant details and consent',
      ...withNote(toOpenApiSchema(source.applicant), NUMBERS_NOTE),
    },
    ...createVariants,
    CreateApplicationRequest: {
      description: '`formType` and the step-1 fields of that loan type.',
      oneOf: Object.keys(createVariants).map(ref),
      discriminator: {
        propertyName: 'formType',
        mapping: Object.fromEntries(
          formTypes.map((f) => [f, `#/components/schemas/Create${LOAN_TYPE_NAMES[f]}Application`]),
        ),
      },
    },
    ...stepVariants,
    SaveStepRequest: {
      description: "`step` (2, 3 or 4) and the fields of that step for the application's loan type.",
      oneOf: Object.keys(stepVariants).map(ref),
    },
    CreditCheckRequest: wrap(source.creditCheckRequest, { data: ref('ApplicantDetails') }),
    TokenRequest: toOpenApiSchema(source.tokenRequest),
    CreateApplicationBRequest: withNote(
      { ...toOpenApiSchema(source.variantBCreate), description: FLAT_FIELDS_NOTE },
      "Spec 4.6 requires the first seven fields; the others are optional. Optional fields have no defaults here: a step's defaults apply when its fields are saved as the step.",
    ),
    UpdateApplicationBRequest: withNote(
      { ...toOpenApiSchema(source.variantBPatch), description: FLAT_FIELDS_NOTE },
      'Each field sent is added or replaces the one given before; `loanAmount` is fixed at create.',
    ),
    CreditCheckBRequest: variantBCreditCheckSchema(source),
    SecurityTokenRequest: toOpenApiSchema(source.securityTokenRequest),
    WebhookRequest: {
      ...toOpenApiSchema(source.webhookRequest),
      description:
        'Live accepts only `https` URLs whose host resolves to public addresses; the sandbox also accepts loopback `http`. Without `events`, every event type.',
    },
  };
}

/** `{success: true, data: <schema>}`. */
export const envelope = (data: Schema): Schema => ({
  type: 'object',
  properties: { success: { const: true }, data },
  required: ['success', 'data'],
});

// ---------------------------------------------------------------------------------------------
// Headers and parameters
// ---------------------------------------------------------------------------------------------

/** `0`-`1200` as a string, leading zeros allowed, at most four digits: what `parseSandboxScore` takes. */
const SCORE_DIGITS = '^(?=[0-9]{1,4}$)0*(?:[0-9]{1,3}|1[01][0-9]{2}|1200)$';
const SANDBOX_WORDS = SANDBOX_SCORE_VALUES.filter((value) => value !== '0-1200');

export const HEADERS: Record<string, Schema> = {
  XRequestId: {
    description:
      "On every response: the caller's `X-Request-Id` when it is 1-128 of `[A-Za-z0-9._:-]`, else a new UUID. Quote it to support.",
    schema: { type: 'string' },
    required: true,
  },
  RateLimit: {
    description:
      'IETF draft-8: the quota policy, what remains (`r`) and seconds until reset (`t`), e.g. `"a"; r=119; t=60`.',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description: 'IETF draft-8: the quota (`q`) per window of `w` seconds, e.g. `"a"; q=120; w=60`.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    required: true,
  },
  IdempotencyReplayed: {
    description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { const: 'true' },
  },
  WWWAuthenticate: { description: 'The authentication scheme expected.', schema: { type: 'string' }, required: true },
  CacheControlNoStore: {
    description: 'The answer holds a secret shown once: not to be stored by caches.',
    schema: { const: 'no-store' },
    required: true,
  },
  Location: {
    description: "The lender's address, with `lm_ref=<offerId>`.",
    schema: { type: 'string', format: 'uri' },
    required: true,
  },
};

export const PARAMETERS: Record<string, Schema> = {
  XRequestId: {
    name: 'X-Request-Id',
    in: 'header',
    description:
      'Your id for this request, echoed in the response (1-128 of `[A-Za-z0-9._:-]`; otherwise the service makes one).',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes a retry safe: the same key with the same request answers the first response again (`Idempotency-Replayed: true`) and does nothing twice. 1-255 printable ASCII characters, scoped to your partner account, kept 24 hours.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
  },
  SandboxScore: {
    name: 'X-Sandbox-Score',
    in: 'header',
    description:
      "Sandbox only (a live server refuses it): the simulated result. A word level, a whole number 0-1200 (Equifax Australia's scale), or `unavailable` (a bureau outage: the check completes in degraded mode). Without it the sandbox draws a stable score from the applicant's details.",
    schema: {
      anyOf: [
        { type: 'string', enum: SANDBOX_WORDS },
        { type: 'string', pattern: SCORE_DIGITS },
      ],
    },
    examples: { level: { value: 'good' }, number: { value: '742' }, outage: { value: 'unavailable' } },
  },
  ApplicationId: {
    name: 'applicationId',
    in: 'path',
    required: true,
    description: 'The `applicationId` create answered.',
    schema: uuid,
  },
  WebhookId: { name: 'webhookId', in: 'path', required: true, schema: uuid },
  Limit: {
    name: 'limit',
    in: 'query',
    description: 'Page size, 1-100 (default 50).',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
  Cursor: {
    name: 'cursor',
    in: 'query',
    description: 'The `nextCursor` of the previous page.',
    schema: { type: 'string' },
  },
  TrackingToken: {
    name: 'token',
    in: 'path',
    required: true,
    description: "The signed token of an offer's `trackingUrl`.",
    schema: { type: 'string' },
  },
};

export const paramRef = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` });
export const headerRef = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

export function errorExample(code: HttpErrorCode): Schema {
  const body: Schema = { success: false, error: code, message: ERROR_CODES[code].example };
  if (code === 'VALIDATION_ERROR')
    body.details = [{ field: 'loanAmount', rule: 'range', message: ERROR_CODES.VALIDATION_ERROR.example }];
  return body;
}

/** How an operation is limited: its answers after authentication carry the rate-limit headers. */
export interface ErrorOptions {
  codes: readonly HttpErrorCode[];
  /** Rate-limit headers on every answer after authentication (all but 401). */
  rateLimited: boolean;
  /** `WWW-Authenticate` value the 401 carries. */
  authenticated: boolean;
}

/** The error responses of an operation: one per status, the body narrowed to that status's codes, an example each. */
export function errorResponses({ codes, rateLimited, authenticated }: ErrorOptions): Record<string, Schema> {
  const byStatus = new Map<number, HttpErrorCode[]>();
  for (const code of codes) byStatus.set(STATUS_OF[code], [...(byStatus.get(STATUS_OF[code]) ?? []), code]);
  const out: Record<string, Schema> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, Schema> = { 'X-Request-Id': headerRef('XRequestId') };
    if (rateLimited && status !== 401)
      Object.assign(headers, { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimitPolicy') });
    if (status === 429 || (status === 503 && authenticated)) headers['Retry-After'] = headerRef('RetryAfter');
    if (status === 401) headers['WWW-Authenticate'] = headerRef('WWWAuthenticate');
    out[String(status)] = {
      description: list.map((code) => `\`${code}\``).join(', '),
      headers,
      content: {
        'application/json': {
          schema: { allOf: [ref('Error'), { properties: { error: { enum: list } } }] },
          examples: Object.fromEntries(list.map((code) => [code, { value: errorExample(code) }])),
        },
      },
    };
  }
  return out;
}
