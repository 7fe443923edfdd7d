/**
 * The schema components of both documents. Answers are the domain's response schemas as they are;
 * request bodies are its validation schemas translated by `toOpenApiSchema` into OpenAPI 3.1's JSON
 * Schema: the keywords only our ajv understands become their standard equivalent (`x-consent`: an
 * `anyOf` of `const: true`; the date format: the domain's two patterns) or words in the description
 * (messages, age, cents), and `additionalProperties: false` is dropped (the validator removes unknown
 * fields, which the API ignores). A request's number field is `oneOf` the number and a numeric string,
 * as the validator takes both, and its `default` becomes words (generators would make it required); a
 * stored step's defaulted fields are required and it carries no request-only rule. A keyword not known
 * here makes the translation throw, so a new custom keyword cannot slip into the documents untranslated.
 */
import {
  AU_DATE,
  DATE_FORMAT,
  FLAT_FIELDS,
  FORM_TYPES,
  INTEGER_STRING,
  ISO_DATE,
  NUMERIC_STRING,
  NUMERIC_STRING_MAX_LENGTH,
  PATCH_STEPS,
  RESPONSE_SCHEMAS,
  STATUS_ORDER,
  STEP_NUMBERS,
  STEP_SCHEMAS,
  applicantSchema,
  createRequestSchema,
  creditCheckRequestSchema,
  dateTime,
  nullable,
  outcomeEventSchema,
  securityTokenRequestSchema,
  stepRequestSchema,
  tokenRequestSchema,
  uuid,
  variantBCreateSchema,
  variantBPatchSchemas,
  webhookRequestSchema,
  lenderWebhookRequestSchema,
  type ConsentRule,
  type FormType,
  type JsonSchema,
  type StepNumber,
} from '@loanmatch/domain';

/** A schema object of the OpenAPI document (JSON Schema 2020-12 plus OpenAPI's annotations). */
export type Schema = { [keyword: string]: unknown };

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** Keywords that mean the same in JSON Schema 2020-12, copied as they are: bounds, and the others. */
const BOUNDS = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'maxProperties'];
const STANDARD = new Set(['type', 'format', 'pattern', 'enum', 'const', 'required', ...BOUNDS]);
/** Keywords whose value is a schema, or a list of schemas, translated recursively. */
const SUBSCHEMA = new Set(['items', 'if', 'then', 'propertyNames']);
const SUBSCHEMA_LIST = new Set(['anyOf', 'allOf']);
/** What a response schema leaves out: rules only a request can break, and their words. */
const REQUEST_ONLY = new Set(['if', 'then', 'anyOf', 'allOf', 'x-message', 'x-consent', 'x-minimumAge']);

/** `^(?:<ISO>|<AU>)$` from the domain's own two regular expressions. */
const DATE_PATTERN = `^(?:${ISO_DATE.source.slice(1, -1)}|${AU_DATE.source.slice(1, -1)})$`;

/** `request`: what a partner sends; `response`: a step as the service stores and answers it. */
export function toOpenApiSchema(schema: JsonSchema, direction: 'request' | 'response' = 'request'): Schema {
  const out: Schema = {};
  const notes: string[] = [];
  const translate = (sub: JsonSchema) => toOpenApiSchema(sub, direction);
  for (const [keyword, value] of Object.entries(schema)) {
    if (direction === 'response' && REQUEST_ONLY.has(keyword)) continue;
    if (keyword === 'format' && value === DATE_FORMAT) {
      out.pattern = DATE_PATTERN;
      notes.push('A real calendar date, written `YYYY-MM-DD` or `DD/MM/YYYY`.');
    } else if (STANDARD.has(keyword)) out[keyword] = Array.isArray(value) ? [...value] : value;
    else if (keyword === 'default') {
      if (direction === 'request') notes.push(`Default when omitted: \`${JSON.stringify(value)}\`.`);
    } else if (SUBSCHEMA.has(keyword)) out[keyword] = translate(value);
    else if (SUBSCHEMA_LIST.has(keyword)) out[keyword] = value.map(translate);
    else if (keyword === 'properties')
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, translate(sub as Schema)]));
    else if (keyword === 'additionalProperties') {
      // A schema for the values of a map (`clientTags`) is the same in the document.
      if (typeof value === 'object' && value !== null) out.additionalProperties = toOpenApiSchema(value);
      else if (value !== false)
        throw new TypeError(`additionalProperties: ${JSON.stringify(value)} has no translation`);
    } else if (keyword === 'x-cents') notes.push('In dollars, with at most two decimal places (whole cents).');
    else if (keyword === 'x-message') {
      // The rule's own words, as its error message reads: `<fields>: <text>`.
      if (typeof value === 'string') notes.push(schema.required ? `${schema.required.join(', ')}: ${value}` : value);
    } else if (keyword === 'x-consent') {
      const rule = value as ConsentRule;
      out.allOf = [
        {
          description: `The ${rule.name} is required: one of ${rule.anyTrue.map((f) => `\`${f}\``).join(', ')} must be the JSON boolean \`true\`.`,
          anyOf: rule.anyTrue.map((field) => ({ required: [field], properties: { [field]: { const: true } } })),
        },
      ];
    } else if (keyword === 'x-minimumAge')
      notes.push(`The applicant must be at least ${String(value)} years old on the day of the check.`);
    else if (keyword === 'x-notInFuture')
      notes.push(`Not in the future (${String(value)} seconds of clock difference are allowed).`);
    else throw new TypeError(`the schema keyword ${keyword} has no OpenAPI translation`);
  }
  if (out.type === 'integer') out.format = 'int32';
  // A stored step always holds its defaulted fields.
  const defaulted = Object.entries(schema.properties ?? {}).filter(([, sub]) => (sub as Schema).default !== undefined);
  if (direction === 'response' && defaulted.length > 0)
    out.required = [...new Set([...(schema.required ?? []), ...defaulted.map(([name]) => name)])];
  const numeric = out.type === 'number' || out.type === 'integer';
  const translated = direction === 'request' && numeric ? numberOrNumericString(out) : out;
  if (notes.length > 0) translated.description = notes.join(' ');
  return translated;
}

/** A number field as the validator takes it: the bounded JSON number, or a numeric string (converted,
 * then held to the same bounds). Whole-number fields document strings of a whole number. */
const numberOrNumericString = (number: Schema): Schema => ({
  oneOf: [
    number,
    {
      type: 'string',
      pattern: (number.type === 'integer' ? INTEGER_STRING : NUMERIC_STRING).source,
      maxLength: NUMERIC_STRING_MAX_LENGTH,
      description: 'The same number as a plain decimal string, held to the same bounds.',
    },
  ],
});

const FLAT_FIELDS_NOTE =
  "Flat fields of a personal loan: each is the field of that name in steps 1-5, with its rule (`phone` is step 5's `mobileNumber`; `homeAddress` is step 4's). " +
  'A step whose fields are all known and valid is saved as Variant A saves it, in order; the rest is kept until it is. Matching uses what is known: offers are `indicative` until the term, employment, income and living situation are known.';

const LOAN_TYPE_NAMES: Record<FormType, string> = { personal: 'Personal', car: 'Car', home: 'Home' };
/** `PersonalLoanStep2` and so on: the component name of one step table (`Stored…` for its answer). */
const stepComponent = (formType: FormType, step: StepNumber) => `${LOAN_TYPE_NAMES[formType]}LoanStep${step}`;
const applicationOf = (formType: FormType) => `${LOAN_TYPE_NAMES[formType]}Application`;
const createOf = (formType: FormType) => `Create${LOAN_TYPE_NAMES[formType]}Application`;
const oneOfByFormType = (name: (formType: FormType) => string) => ({
  oneOf: FORM_TYPES.map((formType) => ref(name(formType))),
  discriminator: {
    propertyName: 'formType',
    mapping: Object.fromEntries(FORM_TYPES.map((f) => [f, `#/components/schemas/${name(f)}`])),
  },
});
const propertiesOf = (schema: JsonSchema) => toOpenApiSchema(schema).properties as Record<string, Schema>;

/** The step tables, as sent (`PersonalLoanStep1`) and as stored (`StoredPersonalLoanStep1`); a step
 * that is another's very schema (car steps 3-4) refers to it. */
function stepSchemas(): Record<string, Schema> {
  const [sent, stored]: Record<string, Schema>[] = [{}, {}];
  const named = new Map<object, string>();
  for (const formType of FORM_TYPES) {
    for (const step of STEP_NUMBERS) {
      const schema = STEP_SCHEMAS[formType][step];
      const name = stepComponent(formType, step);
      const same = named.get(schema);
      if (same) {
        sent[name] = { ...ref(same), description: `The same fields, types and bounds as ${same}.` };
        stored[`Stored${name}`] = { ...ref(`Stored${same}`), description: `The same fields as Stored${same}.` };
        continue;
      }
      named.set(schema, name);
      const title = `${LOAN_TYPE_NAMES[formType]} loan, step ${step}`;
      sent[name] = { title, ...toOpenApiSchema(schema) };
      stored[`Stored${name}`] = {
        title: `${title}, as stored`,
        ...toOpenApiSchema(schema, 'response'),
        description: 'As saved: numbers as numbers, every field with a default present, unknown fields dropped.',
      };
    }
  }
  return { ...sent, ...stored };
}

function applicationSchema(formType: FormType): Schema {
  const properties = {
    applicationId: uuid,
    formType: { type: 'string', const: formType },
    status: { type: 'string', enum: [...STATUS_ORDER] },
    lastStep: { type: 'integer', format: 'int32', minimum: 1, maximum: 5 },
    steps: {
      type: 'object',
      description: 'Steps 1-4 as stored, keyed `"1"` to `"4"`: each step saved so far. Never step 5.',
      properties: Object.fromEntries(STEP_NUMBERS.map((s) => [String(s), ref(`Stored${stepComponent(formType, s)}`)])),
      required: ['1'],
      additionalProperties: false,
    },
    creditCheckComplete: { type: 'boolean' },
    creditCheckedAt: nullable(dateTime),
    createdAt: dateTime,
    updatedAt: dateTime,
  };
  return { type: 'object', properties, required: Object.keys(properties), title: `A ${formType} loan application` };
}

/** A wrapper with some of its properties replaced (its own keywords, required list and order kept). */
function wrap(wrapper: JsonSchema, replace: Record<string, Schema>, title?: string): Schema {
  return {
    ...toOpenApiSchema(wrapper),
    properties: { ...propertiesOf(wrapper), ...replace },
    ...(title ? { title } : {}),
  };
}

/**
 * Variant B's credit-check body: the security token, and step 5's fields other than the identity given
 * at create (the step-5 fields the flat create requires: names, e-mail, `phone` = `mobileNumber`).
 */
function variantBCreditCheckSchema(): Schema {
  const createdWith = new Set(
    variantBCreateSchema.required?.filter((f) => FLAT_FIELDS[f]?.step === 5).map((f) => FLAT_FIELDS[f].name),
  );
  return {
    type: 'object',
    description:
      "The application's `securityToken`, and any step-5 fields to lay over those given at create and by PATCH; checked as Variant A checks step 5 (age, consent), except that `dateOfBirth` is optional. " +
      'Consent may have been given at create or by PATCH (`consentCreditCheck: true`); a consent field here overrides it. Names, e-mail and phone sent here are ignored.',
    properties: {
      ...propertiesOf(securityTokenRequestSchema),
      ...Object.fromEntries(Object.entries(propertiesOf(applicantSchema)).filter(([name]) => !createdWith.has(name))),
    },
    required: [...(securityTokenRequestSchema.required ?? [])],
  };
}

/** Every schema component of both documents (each document keeps those it uses). */
export function schemaComponents(): Record<string, Schema> {
  const steps = Object.fromEntries(
    PATCH_STEPS.map((step) => [
      `SaveStep${step}`,
      wrap(
        stepRequestSchema,
        {
          step: { const: step },
          // One reference per loan type (anyOf, not oneOf: car steps 3-4 are personal's very schemas).
          data: {
            description: `Step ${step} of the application's loan type.`,
            anyOf: FORM_TYPES.map((formType) => ref(stepComponent(formType, step))),
          },
        },
        `Save step ${step}`,
      ),
    ]),
  );
  return {
    ...stepSchemas(),
    ApplicantDetails: { title: 'Step 5: applicant details and consent', ...toOpenApiSchema(applicantSchema) },
    ...Object.fromEntries(
      FORM_TYPES.map((formType) => [
        createOf(formType),
        wrap(
          createRequestSchema,
          { formType: { const: formType }, data: ref(stepComponent(formType, 1)) },
          `Create a ${formType} loan application`,
        ),
      ]),
    ),
    CreateApplicationRequest: {
      description: '`formType` and the step-1 fields of that loan type.',
      ...oneOfByFormType(createOf),
    },
    ...steps,
    SaveStepRequest: {
      description: "`step` (2, 3 or 4) and the fields of that step for the application's loan type.",
      oneOf: Object.keys(steps).map(ref),
    },
    CreditCheckRequest: wrap(creditCheckRequestSchema, { data: ref('ApplicantDetails') }),
    TokenRequest: toOpenApiSchema(tokenRequestSchema),
    CreateApplicationBRequest: {
      ...toOpenApiSchema(variantBCreateSchema),
      description: `${FLAT_FIELDS_NOTE} Optional fields have no defaults here: a step's defaults apply when its fields are saved as the step.`,
    },
    UpdateApplicationBRequest: {
      description: `${FLAT_FIELDS_NOTE} Each field sent is added or replaces the one given before; \`loanAmount\` is fixed at create. A car or home application carried over from Variant A takes its own loan type's fields of steps 2-4 instead, flat under their names in that type's step tables, each step saved as Variant A saves it once complete.`,
      anyOf: FORM_TYPES.map((formType) => ({
        title: `${LOAN_TYPE_NAMES[formType]} loan`,
        ...toOpenApiSchema(variantBPatchSchemas[formType]),
      })),
    },
    CreditCheckBRequest: variantBCreditCheckSchema(),
    SecurityTokenRequest: toOpenApiSchema(securityTokenRequestSchema),
    WebhookRequest: {
      ...toOpenApiSchema(webhookRequestSchema),
      description:
        'Live accepts only `https` URLs whose host resolves to public addresses; the sandbox also accepts loopback `http`. Without `events`, every event type.',
    },
    ...Object.fromEntries(FORM_TYPES.map((formType) => [applicationOf(formType), applicationSchema(formType)])),
    Application: {
      description:
        "What partners see of an application: never step 5, never a score. `steps` is typed by the application's `formType`.",
      ...oneOfByFormType(applicationOf),
    },
    ...RESPONSE_SCHEMAS,
    LenderWebhookRequest: toOpenApiSchema(lenderWebhookRequestSchema),
    OutcomeEventRequest: {
      ...toOpenApiSchema(outcomeEventSchema),
      description:
        '`reference` is the `lm_ref` the tracking redirect added to your address. `eventId` is yours, unique among your events: sending it again answers the first answer. ' +
        'Times carry their offset and may be at most 5 minutes ahead of ours. Events may be sent in any order.',
    },
  };
}
