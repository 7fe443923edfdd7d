/**
 * The request schemas of both documents: the domain's validation schemas translated (from
 * `SchemaSource` only), wrapped as each operation's body. What the service answers is in
 * `response-schemas.ts` and `stored-steps.ts`.
 */
import { FORM_TYPES, type FormType, type ObjectSchema } from '@loanmatch/domain';
import { LOAN_TYPE_NAMES, ref, stepComponent } from './components';
import { toOpenApiSchema, type Schema } from './schema-translation';
import type { SchemaSource } from './source';

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
        { formType: { const: formType }, data: ref(stepComponent(formType, 1)) },
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
            step: { const: step },
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
