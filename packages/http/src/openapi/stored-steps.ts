/**
 * Steps 1-4 as the service stores and answers them (GET and Variant A's PATCH), typed per loan type:
 * the same tables as the requests, read as answers (numbers as numbers, every defaulted field present),
 * and the application that holds them, one schema per loan type told apart by `formType`.
 */
import { FORM_TYPES, STATUS_ORDER, type FormType, type ObjectSchema } from '@loanmatch/domain';
import { LOAN_TYPE_NAMES, dateTime, nullable, ref, responseObject, stepComponent, uuid } from './components';
import { toOpenApiSchema, type Schema } from './schema-translation';
import type { SchemaSource } from './source';

const storedStep = (formType: FormType, step: 1 | 2 | 3 | 4) => `Stored${stepComponent(formType, step)}`;
const applicationOf = (formType: FormType) => `${LOAN_TYPE_NAMES[formType]}Application`;

/** `StoredPersonalLoanStep1` and so on; a step that is another's very schema refers to it. */
function storedStepSchemas(source: SchemaSource): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const named = new Map<ObjectSchema, string>();
  for (const formType of FORM_TYPES) {
    for (const step of [1, 2, 3, 4] as const) {
      const schema = source.steps[formType][step];
      const name = storedStep(formType, step);
      const same = named.get(schema);
      out[name] = same
        ? { ...ref(same), description: `The same fields as ${same}.` }
        : {
            title: `${LOAN_TYPE_NAMES[formType]} loan, step ${step}, as stored`,
            ...toOpenApiSchema(schema, 'response'),
            description: 'As saved: numbers as numbers, every field with a default present, unknown fields dropped.',
          };
      if (!same) named.set(schema, name);
    }
  }
  return out;
}

function applicationSchema(formType: FormType): Schema {
  const steps = Object.fromEntries(
    ([1, 2, 3, 4] as const).map((step) => [String(step), ref(storedStep(formType, step))]),
  );
  return responseObject(
    {
      applicationId: uuid,
      formType: { type: 'string', const: formType },
      status: { type: 'string', enum: [...STATUS_ORDER] },
      lastStep: { type: 'integer', format: 'int32', minimum: 1, maximum: 5 },
      steps: {
        type: 'object',
        description: 'Steps 1-4 as stored, keyed `"1"` to `"4"`: each step saved so far. Never step 5.',
        properties: steps,
        required: ['1'],
        additionalProperties: false,
      },
      creditCheckComplete: { type: 'boolean' },
      creditCheckedAt: nullable(dateTime),
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    { title: `A ${formType} loan application` },
  );
}

/** The stored steps, `Application` (one of the three, by `formType`) and each loan type's application. */
export function applicationSchemas(source: SchemaSource): Record<string, Schema> {
  return {
    ...storedStepSchemas(source),
    ...Object.fromEntries(FORM_TYPES.map((formType) => [applicationOf(formType), applicationSchema(formType)])),
    Application: {
      description:
        "What partners see of an application: never step 5, never a score. `steps` is typed by the application's `formType`.",
      oneOf: FORM_TYPES.map((formType) => ref(applicationOf(formType))),
      discriminator: {
        propertyName: 'formType',
        mapping: Object.fromEntries(FORM_TYPES.map((f) => [f, `#/components/schemas/${applicationOf(f)}`])),
      },
    },
  };
}
