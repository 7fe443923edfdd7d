/**
 * Variant B's flat bodies (spec 4.6, CONTRACT.md "Variant B details"). Every flat field is the very
 * definition of a personal loan field of steps 1-5 (schemas.ts) under its table name, `phone` being
 * step 5's `mobileNumber`, so no bound is written twice and messages read `<field>: <rule text>`.
 *
 * Defaults are left out of the optional flat fields: a field not sent must never replace one sent
 * before. The step's own schema applies them when its fields are saved as the step.
 */
import {
  STEP_SCHEMAS,
  applicantSchema,
  securityTokenRequestSchema,
  type JsonSchema,
  type ObjectSchema,
} from './schemas';
import { deepFreeze } from '../deep-freeze';
import { clientTagsSchema } from './client-tags-schema';

/** The personal-loan step a flat field belongs to (step 5: the applicant's details). */
export type FlatStep = 2 | 3 | 4 | 5;

/** Step 5's `mobileNumber` is B's `phone`; every other field keeps its table name. */
const FLAT_NAMES: Readonly<Record<string, string>> = { mobileNumber: 'phone' };

/**
 * Where each optional flat field belongs: its step and its name there, in the tables' order. A name
 * that two tables list (`homeAddress`, steps 4 and 5) belongs to the first: the living situation's.
 */
export const FLAT_FIELDS: Readonly<Record<string, { readonly step: FlatStep; readonly name: string }>> = (() => {
  const places: Record<string, { step: FlatStep; name: string }> = {};
  for (const step of [2, 3, 4] as const)
    for (const name of Object.keys(STEP_SCHEMAS.personal[step].properties)) places[name] ??= { step, name };
  for (const name of Object.keys(applicantSchema.properties)) places[FLAT_NAMES[name] ?? name] ??= { step: 5, name };
  return places;
})();

function withoutDefault(schema: JsonSchema): JsonSchema {
  if (schema.default === undefined) return schema;
  const { default: _default, ...rest } = schema;
  return rest;
}

const definitionOf = ({ step, name }: { step: FlatStep; name: string }): JsonSchema =>
  withoutDefault(step === 5 ? applicantSchema.properties[name] : STEP_SCHEMAS.personal[step].properties[name]);

/** Every optional flat field, by its B name, in the tables' order. */
const FLAT_PROPERTIES: Readonly<Record<string, JsonSchema>> = Object.fromEntries(
  Object.entries(FLAT_FIELDS).map(([flat, place]) => [flat, definitionOf(place)]),
);

const wrapperRoot = { 'x-message': { type: 'must be a JSON object' } } as const;

/** The fields of the spec's create (4.6), with the consent CONTRACT.md allows there. */
const CREATE_FIELDS = ['loanPurpose', 'firstName', 'lastName', 'email', 'phone', 'consentCreditCheck'] as const;

/**
 * POST /v1/applications: spec 4.6's fields (`formType` personal, `loanAmount`, `loanPurpose`, names,
 * e-mail, `phone`) and, optional, every other field of personal steps 2-5.
 */
export const variantBCreateSchema: ObjectSchema = {
  type: 'object',
  properties: {
    formType: { type: 'string', enum: ['personal'] },
    loanAmount: STEP_SCHEMAS.personal[1].properties.loanAmount,
    ...Object.fromEntries(CREATE_FIELDS.map((name) => [name, FLAT_PROPERTIES[name]])),
    ...FLAT_PROPERTIES,
    clientTags: clientTagsSchema,
  },
  required: ['formType', 'loanAmount', 'loanPurpose', 'firstName', 'lastName', 'email', 'phone'],
  additionalProperties: false,
  ...wrapperRoot,
};

/** PATCH /v1/applications/{applicationId}: the security token and any fields of personal steps 2-5 to add or replace. */
export const variantBPatchSchema: ObjectSchema = {
  type: 'object',
  properties: { securityToken: securityTokenRequestSchema.properties.securityToken, ...FLAT_PROPERTIES },
  required: ['securityToken'],
  additionalProperties: false,
  ...wrapperRoot,
};

/** Step 5 as Variant B's credit check takes it: Variant A's, with `dateOfBirth` optional (CONTRACT.md). */
export const variantBApplicantSchema: ObjectSchema = {
  ...applicantSchema,
  required: (applicantSchema.required ?? []).filter((name) => name !== 'dateOfBirth'),
};

deepFreeze(FLAT_FIELDS);
deepFreeze(variantBCreateSchema);
deepFreeze(variantBPatchSchema);
deepFreeze(variantBApplicantSchema);
