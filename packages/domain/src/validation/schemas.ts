/**
 * The field tables of the partner API spec (section 2) as JSON Schemas: one schema per loan type and
 * step, plus the step-5 applicant schema and the small request wrappers. These objects are the ONLY
 * place a bound, an enum or a default is written; `validate.ts` compiles them once and derives every
 * error message from the failing keyword, and the tests iterate them instead of restating bounds.
 *
 * Conventions (so that `validate.ts` can stay generic):
 * - every object schema has `additionalProperties: false`, so ajv (`removeAdditional: true`) drops
 *   fields the table does not list (spec 2.1 rule 2), also inside nested address components;
 * - `properties` are written in the order of the spec's table; violations are reported in that order;
 * - numeric fields have `type: 'number'` or `'integer'` (whole numbers only); that type is also what
 *   tells the pre-validation step to turn numeric strings ("5000") into numbers (spec 2.1 rule 1);
 * - `x-message` (an annotation keyword registered in validate.ts) replaces the rule text of the errors
 *   raised by the schema object it sits on: a string for all its keywords, or `{keyword: text}`;
 * - `x-consent`, `x-minimumAge` and `x-notInFuture` are custom keywords implemented in validate.ts.
 *
 * Every schema is deep-frozen at module load: they are shared with the compiled validators and handed
 * out by `schemaFor` (for OpenAPI generation) without cloning.
 */
import { CONSENT_FIELDS } from '../consent-texts';
import { CONSENT_CAPTURE_FIELDS } from './consent-schemas';
import { deepFreeze } from '../deep-freeze';
import { clientTagsSchema } from './client-tags-schema';
import {
  DATE_FORMAT,
  boolean,
  integer,
  nonEmptyText,
  number,
  object,
  oneOf,
  present,
  text,
  withDefault,
  type JsonSchema,
  type ObjectRules,
  type ObjectSchema,
} from './schema-builders';

export { DATE_FORMAT, type ConsentRule, type JsonSchema, type ObjectSchema } from './schema-builders';

export type FormType = 'personal' | 'car' | 'home';
export const FORM_TYPES: readonly FormType[] = Object.freeze(['personal', 'car', 'home'] as const);

export type StepNumber = 1 | 2 | 3 | 4;
export const STEP_NUMBERS: readonly StepNumber[] = Object.freeze([1, 2, 3, 4] as const);
/** Steps saved with PATCH (step 1 comes with create, step 5 with the credit check). */
export const PATCH_STEPS = Object.freeze([2, 3, 4] as const);

// ---------------------------------------------------------------------------------------------
// The spec's value lists that other parts of the domain (matching) also need: written once, here
// ---------------------------------------------------------------------------------------------

export const EMPLOYMENT_TYPES = Object.freeze([
  'full_time',
  'part_time',
  'casual',
  'contract',
  'contractor',
  'self_employed',
  'unemployed',
  'retired',
  'student',
  'centrelink',
] as const);
export const LIVING_SITUATIONS = Object.freeze([
  'renting',
  'own_outright',
  'own_mortgage',
  'living_with_parents',
  'boarding',
  'other',
] as const);
export const PERSONAL_LOAN_PURPOSES = Object.freeze([
  'debt_consolidation',
  'home_improvement',
  'car_purchase',
  'medical_expenses',
  'holiday',
  'wedding',
  'education',
  'business',
  'other',
] as const);
export const HOME_LOAN_PURPOSES = Object.freeze([
  'new_property',
  'refinance',
  'construction',
  'equity_release',
] as const);
export const USED_CAR_SALE_TYPES = Object.freeze(['private', 'dealer'] as const);
export const OCCUPANCY_TYPES = Object.freeze(['owner_occupied', 'investment'] as const);
export const REPAYMENT_TYPES = Object.freeze(['principal_and_interest', 'interest_only'] as const);

// ---------------------------------------------------------------------------------------------
// Shared definitions (written once, reused wherever the spec says "same as")
// ---------------------------------------------------------------------------------------------

const STATE = oneOf('NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT');

/** Address parts: the fields of `homeAddressComponents` / `propertyAddressComponents`, and (without
 * country) the flat address fields of step 5, which have the same bounds. */
const addressParts = {
  streetNumber: text(20),
  streetName: text(100),
  streetType: text(50),
  suburb: text(100),
  state: STATE,
  postcode: text(10),
  country: text(100),
  unitNumber: text(20),
};

const addressComponents = object(addressParts);

/** Personal loan step 3 (employment and income). Car step 3 is this very schema; home step 4 picks fields. */
const personalStep3 = object(
  {
    employmentType: oneOf(...EMPLOYMENT_TYPES),
    employerName: nonEmptyText(100),
    employmentYears: number(0, 50),
    employmentMonths: integer(0, 11),
    grossMonthlyIncome: number(0, 1000000),
    otherIncome: withDefault(number(0, 10000000), 0),
  },
  ['employmentType', 'grossMonthlyIncome'],
);

/** Personal loan step 4 (living situation). Car step 4 is this very schema; home step 4 picks fields. */
const personalStep4 = object(
  {
    livingSituation: oneOf(...LIVING_SITUATIONS),
    homeAddress: nonEmptyText(500),
    homeAddressComponents: addressComponents,
    monthlyRent: withDefault(number(0, 50000), 0),
    residentialYears: number(0, 100),
    residentialMonths: integer(0, 11),
    dependents: integer(0, 20),
  },
  ['livingSituation'],
);

const employment = personalStep3.properties;
const living = personalStep4.properties;

// ---------------------------------------------------------------------------------------------
// 2.2 Personal loan
// ---------------------------------------------------------------------------------------------

const personal: Record<StepNumber, ObjectSchema> = {
  1: object({ loanAmount: number(1000, 100000) }, ['loanAmount']),
  2: object(
    {
      loanPurpose: oneOf(...PERSONAL_LOAN_PURPOSES),
      loanTerm: integer(1, 7),
      creditScoreEstimate: oneOf('excellent', 'good', 'average', 'below_average', 'poor', 'unknown'),
    },
    ['loanPurpose', 'loanTerm'],
  ),
  3: personalStep3,
  4: personalStep4,
};

// ---------------------------------------------------------------------------------------------
// 2.3 Car loan
// ---------------------------------------------------------------------------------------------

const car: Record<StepNumber, ObjectSchema> = {
  1: object(
    {
      carLoanPurpose: oneOf('new', 'used', 'refinance', 'NewCarPurchase', 'UsedCarPurchase', 'RefinanceCarLoan'),
      hasFoundCar: oneOf('yes', 'no'),
      estimatedCarPrice: number(5000, 200000),
      vehicleYear: integer(1990, 2027),
      usedCarSaleType: oneOf(...USED_CAR_SALE_TYPES),
    },
    ['carLoanPurpose'],
    {
      allOf: [
        {
          // Rule 1: a found car, or a refinance, needs a price.
          if: {
            anyOf: [
              present({ hasFoundCar: { const: 'yes' } }),
              present({ carLoanPurpose: { enum: ['refinance', 'RefinanceCarLoan'] } }),
            ],
          },
          then: {
            required: ['estimatedCarPrice'],
            'x-message': 'is required when hasFoundCar is yes or carLoanPurpose is refinance',
          },
        },
        {
          // Rule 2: a used car that has been found also needs its year and sale type.
          if: present({ carLoanPurpose: { enum: ['used', 'UsedCarPurchase'] }, hasFoundCar: { const: 'yes' } }),
          then: {
            required: ['vehicleYear', 'usedCarSaleType'],
            'x-message': 'is required for a used car when hasFoundCar is yes',
          },
        },
      ],
    },
  ),
  2: object(
    {
      tradeInValue: withDefault(number(0, 100000), 0),
      tradeInPayout: withDefault(number(0, 100000), 0),
      depositAmount: withDefault(number(0, 50000), 0),
      loanAmount: number(5000, 200000),
      loanTerm: integer(1, 7),
      balloonPaymentPercent: withDefault(number(0, 35), 0),
    },
    ['loanAmount', 'loanTerm'],
    {
      // No balloon payment on a 6 or 7 year term.
      if: present({ loanTerm: { enum: [6, 7] } }),
      then: {
        properties: { balloonPaymentPercent: { const: 0, 'x-message': 'must be 0 when loanTerm is 6 or 7' } },
      },
    },
  ),
  // "Steps 3 and 4 have the same fields, types and bounds as the personal loan steps 3 and 4."
  3: personalStep3,
  4: personalStep4,
};

// ---------------------------------------------------------------------------------------------
// 2.4 Home loan
// ---------------------------------------------------------------------------------------------

const home: Record<StepNumber, ObjectSchema> = {
  1: object(
    {
      occupancyType: oneOf(...OCCUPANCY_TYPES),
      loanPurpose: oneOf(...HOME_LOAN_PURPOSES),
      isFirstHomeBuyer: oneOf('yes', 'no'),
    },
    ['occupancyType', 'loanPurpose'],
    {
      if: present({ loanPurpose: { enum: ['new_property', 'construction'] } }),
      then: {
        required: ['isFirstHomeBuyer'],
        'x-message': 'is required when loanPurpose is new_property or construction',
      },
    },
  ),
  2: object(
    {
      propertyValue: number(100000, 10000000),
      propertyAddress: nonEmptyText(500),
      propertyAddressComponents: addressComponents,
      propertyType: oneOf('house', 'apartment', 'townhouse', 'land', 'unit', 'villa', 'other'),
    },
    ['propertyValue', 'propertyAddress', 'propertyType'],
  ),
  3: object(
    {
      loanAmount: number(50000, 10000000),
      loanTerm: integer(1, 30),
      repaymentType: oneOf(...REPAYMENT_TYPES),
      settlementTimeframe: oneOf('within_30_days', '30_60_days', '60_90_days', '90_plus_days'),
    },
    ['loanAmount', 'loanTerm', 'repaymentType', 'settlementTimeframe'],
  ),
  // Same-named fields are the personal definitions themselves (the spec says "same values as").
  4: object(
    {
      employmentType: employment.employmentType,
      livingSituation: living.livingSituation,
      homeAddress: living.homeAddress,
      homeAddressComponents: living.homeAddressComponents,
      employmentYears: employment.employmentYears,
      employmentMonths: employment.employmentMonths,
      grossMonthlyIncome: employment.grossMonthlyIncome,
    },
    ['employmentType', 'livingSituation', 'grossMonthlyIncome'],
  ),
};

// ---------------------------------------------------------------------------------------------
// 2.5 Step 5: applicant details and consent
// ---------------------------------------------------------------------------------------------

export const applicantSchema: ObjectSchema = object(
  {
    firstName: nonEmptyText(100),
    lastName: nonEmptyText(100),
    // RFC 5321's longest deliverable address (a 256-octet path less its angle brackets).
    email: { type: 'string', format: 'email', maxLength: 254 },
    mobileNumber: { type: 'string', minLength: 8, maxLength: 20 },
    dateOfBirth: { type: 'string', minLength: 8, maxLength: 20, format: DATE_FORMAT, 'x-minimumAge': 18 },
    gender: oneOf('male', 'female', 'other', 'prefer_not_to_say'),
    maritalStatus: oneOf('single', 'married', 'de_facto', 'divorced', 'separated', 'widowed'),
    address: nonEmptyText(500),
    homeAddress: living.homeAddress,
    streetNumber: addressParts.streetNumber,
    streetName: addressParts.streetName,
    streetType: addressParts.streetType,
    suburb: addressParts.suburb,
    state: addressParts.state,
    postcode: addressParts.postcode,
    unitNumber: addressParts.unitNumber,
    consentCreditCheck: boolean(),
    creditCheckConsent: boolean(),
    privacyConsent: boolean(),
    consentMarketing: withDefault(boolean(), false),
    marketingConsent: withDefault(boolean(), false),
    consentTerms: boolean(),
    termsConsent: boolean(),
    ...CONSENT_CAPTURE_FIELDS, // beyond the spec's table: for the consent record
  },
  ['firstName', 'lastName', 'email', 'mobileNumber', 'dateOfBirth'],
  {
    // Rule 1: one of the three consent aliases must be the JSON boolean true (checked after the
    // per-field type checks, which reject "true" and 1).
    'x-consent': {
      name: 'credit check consent',
      anyTrue: [...CONSENT_FIELDS.creditCheck, ...CONSENT_FIELDS.privacy],
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Request wrappers (spec 4.1, 4.2, 4.3). Their root label is `body`; step data is validated after.
// ---------------------------------------------------------------------------------------------

const wrapperRoot: ObjectRules = { 'x-message': { type: 'must be a JSON object' } };
const anyObject: JsonSchema = { type: 'object' };

/** POST /applications: `{formType, data}`. */
export const createRequestSchema: ObjectSchema = object(
  { formType: { type: 'string', enum: FORM_TYPES }, data: anyObject, clientTags: clientTagsSchema },
  ['formType', 'data'],
  wrapperRoot,
);

/** PATCH /applications/{id}: `{step, data}`; `step` may be a numeric string like any number. */
export const stepRequestSchema: ObjectSchema = object(
  { step: { type: 'integer', enum: PATCH_STEPS }, data: anyObject },
  ['step', 'data'],
  wrapperRoot,
);

/** POST /applications/{id}/credit-check: `{data}`. */
export const creditCheckRequestSchema: ObjectSchema = object({ data: anyObject }, ['data'], wrapperRoot);

// ---------------------------------------------------------------------------------------------
// Variant B (spec 4.6): the token exchange and the security token; its flat bodies are built from the
// step tables above in variant-b-schemas.ts.
// ---------------------------------------------------------------------------------------------

/** POST /v1/auth/token: `{grantType: "api_key"}`. */
export const tokenRequestSchema: ObjectSchema = object(
  { grantType: { type: 'string', enum: ['api_key'] } },
  ['grantType'],
  wrapperRoot,
);

/** The `securityToken` that Variant B's credit check and match bodies carry (`st_` and 43 characters). */
export const securityTokenRequestSchema: ObjectSchema = object(
  { securityToken: { type: 'string', minLength: 1, maxLength: 200 } },
  ['securityToken'],
  wrapperRoot,
);

// ---------------------------------------------------------------------------------------------
// Webhooks (CONTRACT.md "Webhooks"): registration on either front-end.
// ---------------------------------------------------------------------------------------------

/** Event types an endpoint may subscribe to. (`webhook.test` is sent on request, to one endpoint.) */
export const WEBHOOK_EVENT_TYPES = Object.freeze(['application.status_changed', 'referral.outcome_changed'] as const);

/** POST /webhooks: `{url, events?}`; the URL's scheme and addresses are checked apart, by environment. */
export const webhookRequestSchema: ObjectSchema = object(
  {
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENT_TYPES }, minItems: 1, maxItems: 20 },
  },
  ['url'],
  wrapperRoot,
);

// ---------------------------------------------------------------------------------------------
// What a partner sends beside the bodies: query parameters and headers. Their checks (offers.ts,
// webhooks.ts, idempotency.ts, the HTTP layer's request id) read their bounds from here, and so do the
// OpenAPI documents.
// ---------------------------------------------------------------------------------------------

/**
 * The longest numeric string a number field takes (`"15000"`, `"12.5"`): far more digits than any bound
 * needs, so a longer one is refused before it is converted.
 */
export const NUMERIC_STRING_MAX_LENGTH = 32;

/** The query of the paged lists: `limit` (both lists) and the referrals' `cursor`, which encodes a time and an id. */
export const pageQuerySchema: ObjectSchema = object({
  limit: withDefault(integer(1, 100), 50),
  cursor: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' },
});

/** Headers a partner may send, by their schema: printable ASCII keys, and request ids safe to log and echo. */
export const HEADER_SCHEMAS = {
  idempotencyKey: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
  requestId: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' },
} as const satisfies Readonly<Record<string, JsonSchema>>;

/** The test of a string schema (one of HEADER_SCHEMAS or the page query's), its pattern compiled once. */
export function stringCheck(schema: JsonSchema): (value: unknown) => value is string {
  const pattern = new RegExp(schema.pattern ?? '');
  const [min, max] = [schema.minLength ?? 0, schema.maxLength ?? Number.POSITIVE_INFINITY];
  return (value): value is string =>
    typeof value === 'string' && value.length >= min && value.length <= max && pattern.test(value);
}

// ---------------------------------------------------------------------------------------------

export const STEP_SCHEMAS: Readonly<Record<FormType, Readonly<Record<StepNumber, ObjectSchema>>>> = {
  personal,
  car,
  home,
};

/** The JSON Schema of one step of one loan type (the same object the validator was compiled from). */
export function schemaFor(formType: FormType, step: StepNumber): ObjectSchema {
  const schema = Object.hasOwn(STEP_SCHEMAS, formType) ? STEP_SCHEMAS[formType][step] : undefined;
  if (schema === undefined) throw new TypeError(`no schema for loan type ${String(formType)} step ${String(step)}`);
  return schema;
}

deepFreeze(STEP_SCHEMAS);
deepFreeze(applicantSchema);
deepFreeze(createRequestSchema);
deepFreeze(stepRequestSchema);
deepFreeze(creditCheckRequestSchema);
deepFreeze(tokenRequestSchema);
deepFreeze(securityTokenRequestSchema);
deepFreeze(webhookRequestSchema);
deepFreeze(pageQuerySchema);
deepFreeze(HEADER_SCHEMAS);
