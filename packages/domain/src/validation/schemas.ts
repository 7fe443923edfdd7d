/**
 * The field tables of the partner API as JSON Schemas (TypeBox): one schema per loan type and step, and
 * the step-5 applicant schema. These objects are the only place a bound, an enum or a default is
 * written; `validate.ts` compiles them and derives every error message from the failing keyword, and
 * the OpenAPI documents and the tests read them. Every object drops the fields it does not list;
 * `properties` are in the table's order, which is the order of violations; a `number` or `integer`
 * field also takes a numeric string; `x-message` replaces the rule text of the errors raised by the
 * schema it sits on (a string, or `{keyword: text}`); `x-consent`, `x-minimumAge`, `x-notInFuture` and
 * `x-cents` are custom keywords of validate.ts. Every schema is deep-frozen: validators and documents share them.
 */
import { Type, type SchemaOptions, type TObject, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { CONSENT_FIELDS, CONSENT_TEXT_VERSIONS } from '../consent-texts';
import { deepFreeze } from '../deep-freeze';

/** Any schema object of these tables, read as JSON Schema; an object schema with its `properties`. */
export type JsonSchema = SchemaOptions;
export type ObjectSchema = TObject;

export type FormType = 'personal' | 'car' | 'home';
export const FORM_TYPES: readonly FormType[] = Object.freeze(['personal', 'car', 'home'] as const);
/** A table with one entry per loan type, in `FORM_TYPES` order. */
export const byFormType = <T>(of: (formType: FormType) => T) =>
  Object.fromEntries(FORM_TYPES.map((formType) => [formType, of(formType)])) as Record<FormType, T>;
export type StepNumber = 1 | 2 | 3 | 4;
export const STEP_NUMBERS: readonly StepNumber[] = Object.freeze([1, 2, 3, 4] as const);
/** Steps saved with PATCH (step 1 comes with create, step 5 with the credit check). */
export const PATCH_STEPS = Object.freeze([2, 3, 4] as const);

/** `x-consent`: at least one of `anyTrue` must be the JSON boolean `true`. */
export interface ConsentRule {
  readonly name: string;
  readonly anyTrue: readonly string[];
}

/** Custom format of `dateOfBirth`: a real calendar date written `YYYY-MM-DD` or `DD/MM/YYYY`. */
export const DATE_FORMAT = 'date-ymd-or-dmy';

// Small builders: they only shape a schema; every number passed to them is a bound of the tables.
export const num = (minimum: number, maximum: number, options = {}) => Type.Number({ minimum, maximum, ...options });
/** Whole numbers only: 2.5 fails with "must be a whole number". */
export const int = (minimum: number, maximum: number, options = {}) => Type.Integer({ minimum, maximum, ...options });
/** A value from a list, as `enum` (its error lists the values): a string unless `options` give a `type`. */
export const oneOf = <T extends readonly (string | number)[]>(values: T, options = {}): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
/** "string, not empty, max N characters". */
export const nonEmptyText = (maxLength: number, options = {}) => Type.String({ minLength: 1, maxLength, ...options });
/** "string, max N characters" (may be empty). */
const text = (maxLength: number) => Type.String({ maxLength });
export const opt = Type.Optional;
/** An object that drops the fields it does not list, frozen with all it holds as it is built. */
export const object = <T extends Record<string, TSchema>>(properties: T, options = {}) =>
  deepFreeze(Type.Object(properties, { additionalProperties: false, ...options }));
/** "Each of these fields is present and matches its schema": the `if` of a conditional rule. Without
 * `required`, an absent field would make the `if` pass and the rule fire. */
const present = (fields: Record<string, object>) => ({ properties: fields, required: Object.keys(fields) });

// The value lists that other parts of the domain (matching) also need: written once, here.
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
const YES_NO = ['yes', 'no'] as const;

// Shared definitions (written once, reused wherever a table says "same as")

/** Address parts: the fields of `homeAddressComponents` / `propertyAddressComponents`, and (without
 * country) the flat address fields of step 5, which have the same bounds. */
const addressParts = {
  streetNumber: opt(text(20)),
  streetName: opt(text(100)),
  streetType: opt(text(50)),
  suburb: opt(text(100)),
  state: opt(oneOf(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'])),
  postcode: opt(text(10)),
  country: opt(text(100)),
  unitNumber: opt(text(20)),
};
const addressComponents = opt(object(addressParts));

/** Personal loan step 3 (employment and income). Car step 3 is this very schema; home step 4 picks fields. */
const personalStep3 = object({
  employmentType: oneOf(EMPLOYMENT_TYPES),
  employerName: opt(nonEmptyText(100)),
  employmentYears: opt(num(0, 50)),
  employmentMonths: opt(int(0, 11)),
  grossMonthlyIncome: num(0, 1000000),
  otherIncome: opt(num(0, 10000000, { default: 0 })),
});

/** Personal loan step 4 (living situation). Car step 4 is this very schema; home step 4 picks fields. */
const personalStep4 = object({
  livingSituation: oneOf(LIVING_SITUATIONS),
  homeAddress: opt(nonEmptyText(500)),
  homeAddressComponents: addressComponents,
  monthlyRent: opt(num(0, 50000, { default: 0 })),
  residentialYears: opt(num(0, 100)),
  residentialMonths: opt(int(0, 11)),
  dependents: opt(int(0, 20)),
});

const employment = personalStep3.properties;
const living = personalStep4.properties;
const loanTerm = (maximum: number) => int(1, maximum);

const personal = {
  1: object({ loanAmount: num(1000, 100000) }),
  2: object({
    loanPurpose: oneOf(PERSONAL_LOAN_PURPOSES),
    loanTerm: loanTerm(7),
    creditScoreEstimate: opt(oneOf(['excellent', 'good', 'average', 'below_average', 'poor', 'unknown'])),
  }),
  3: personalStep3,
  4: personalStep4,
};

const car = {
  1: object(
    {
      carLoanPurpose: oneOf(['new', 'used', 'refinance', 'NewCarPurchase', 'UsedCarPurchase', 'RefinanceCarLoan']),
      hasFoundCar: opt(oneOf(YES_NO)),
      estimatedCarPrice: opt(num(5000, 200000)),
      vehicleYear: opt(int(1990, 2027)),
      usedCarSaleType: opt(oneOf(USED_CAR_SALE_TYPES)),
    },
    {
      allOf: [
        {
          // A found car, or a refinance, needs a price.
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
          // A used car that has been found also needs its year and sale type.
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
      tradeInValue: opt(num(0, 100000, { default: 0 })),
      tradeInPayout: opt(num(0, 100000, { default: 0 })),
      depositAmount: opt(num(0, 50000, { default: 0 })),
      loanAmount: num(5000, 200000),
      loanTerm: loanTerm(7),
      balloonPaymentPercent: opt(num(0, 35, { default: 0 })),
    },
    {
      // No balloon payment on a 6 or 7 year term.
      if: present({ loanTerm: { enum: [6, 7] } }),
      then: {
        properties: { balloonPaymentPercent: { const: 0, 'x-message': 'must be 0 when loanTerm is 6 or 7' } },
      },
    },
  ),
  // Steps 3 and 4 have the same fields, types and bounds as the personal loan's.
  3: personalStep3,
  4: personalStep4,
};

const home = {
  1: object(
    {
      occupancyType: oneOf(OCCUPANCY_TYPES),
      loanPurpose: oneOf(HOME_LOAN_PURPOSES),
      isFirstHomeBuyer: opt(oneOf(YES_NO)),
    },
    {
      if: present({ loanPurpose: { enum: ['new_property', 'construction'] } }),
      then: {
        required: ['isFirstHomeBuyer'],
        'x-message': 'is required when loanPurpose is new_property or construction',
      },
    },
  ),
  2: object({
    propertyValue: num(100000, 10000000),
    propertyAddress: nonEmptyText(500),
    propertyAddressComponents: addressComponents,
    propertyType: oneOf(['house', 'apartment', 'townhouse', 'land', 'unit', 'villa', 'other']),
  }),
  3: object({
    loanAmount: num(50000, 10000000),
    loanTerm: loanTerm(30),
    repaymentType: oneOf(REPAYMENT_TYPES),
    settlementTimeframe: oneOf(['within_30_days', '30_60_days', '60_90_days', '90_plus_days']),
  }),
  // Same-named fields are the personal definitions themselves (the table says "same values as").
  4: object({
    employmentType: employment.employmentType,
    livingSituation: living.livingSituation,
    homeAddress: living.homeAddress,
    homeAddressComponents: living.homeAddressComponents,
    employmentYears: employment.employmentYears,
    employmentMonths: employment.employmentMonths,
    grossMonthlyIncome: employment.grossMonthlyIncome,
  }),
};

const { country: _country, ...flatAddress } = addressParts;
const consent = opt(Type.Boolean());
/** Step 5: applicant details and consent. */
export const applicantSchema = object(
  {
    firstName: nonEmptyText(100),
    lastName: nonEmptyText(100),
    // RFC 5321's longest deliverable address (a 256-octet path less its angle brackets).
    email: Type.String({ format: 'email', maxLength: 254 }),
    mobileNumber: Type.String({ minLength: 8, maxLength: 20 }),
    dateOfBirth: Type.String({ minLength: 8, maxLength: 20, format: DATE_FORMAT, 'x-minimumAge': 18 }),
    gender: opt(oneOf(['male', 'female', 'other', 'prefer_not_to_say'])),
    maritalStatus: opt(oneOf(['single', 'married', 'de_facto', 'divorced', 'separated', 'widowed'])),
    address: opt(nonEmptyText(500)),
    homeAddress: living.homeAddress,
    ...flatAddress,
    consentCreditCheck: consent,
    creditCheckConsent: consent,
    privacyConsent: consent,
    consentMarketing: opt(Type.Boolean({ default: false })),
    marketingConsent: opt(Type.Boolean({ default: false })),
    consentTerms: consent,
    termsConsent: consent,
    // Beyond the table, how the consents were captured, for the consent record: the wording's version
    // shown, when the applicant agreed, and the partner's own reference (an identifier).
    consentTextVersion: opt(oneOf(CONSENT_TEXT_VERSIONS)),
    consentCapturedAt: opt(Type.String({ format: 'date-time', maxLength: 40, 'x-notInFuture': 300 })),
    consentReference: opt(
      nonEmptyText(100, {
        pattern: '^[A-Za-z0-9._:/-]+$',
        'x-message': { pattern: "must be letters, digits, '.', '_', ':', '/' or '-' only" },
      }),
    ),
  },
  {
    // One of the credit check consents must be the JSON boolean true (checked after the per-field
    // type checks, which reject "true" and 1).
    'x-consent': {
      name: 'credit check consent',
      anyTrue: [...CONSENT_FIELDS.creditCheck, ...CONSENT_FIELDS.privacy],
    } satisfies ConsentRule,
  },
);

export const STEP_SCHEMAS: Readonly<Record<FormType, Readonly<Record<StepNumber, TObject>>>> = { personal, car, home };

/** The JSON Schema of one step of one loan type (the same object the validator was compiled from). */
export function schemaFor(formType: FormType, step: StepNumber): TObject {
  const schema = Object.hasOwn(STEP_SCHEMAS, formType) ? STEP_SCHEMAS[formType][step] : undefined;
  if (schema === undefined) throw new TypeError(`no schema for loan type ${String(formType)} step ${String(step)}`);
  return schema;
}

deepFreeze(STEP_SCHEMAS);
