/**
 * The JSON Schema of the catalogue file (`catalogue/catalogue.v1.json`): its shape and the bounds of
 * single values. Rules that relate two values (min ≤ max, a lender that exists) are in catalogue-rules.ts.
 */
import { COMPARISON_RATE_BENCHMARKS } from './benchmarks';
import {
  BANDS_BEST_FIRST,
  CAR_PURPOSES,
  EMPLOYMENT_TYPES,
  HOME_PURPOSES,
  LIVING_SITUATIONS,
  OCCUPANCY_TYPES,
  PERSONAL_PURPOSES,
  REPAYMENT_TYPES,
  SALE_TYPES,
} from './types';
import { commissionSchema } from '../outcomes/commission';

type Schema = Record<string, unknown>;

/** An object of exactly these properties, all required but `$comment` (or those named). */
const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required: required.filter((name) => name !== '$comment'),
  additionalProperties: false,
});
/** The same object schema with `names` no longer required. */
const optional = (schema: Schema, ...names: string[]): Schema => ({
  ...schema,
  required: (schema.required as string[]).filter((field) => !names.includes(field)),
});
const numeric =
  (type: 'number' | 'integer') =>
  (minimum: number, maximum?: number): Schema => ({ type, minimum, ...(maximum === undefined ? {} : { maximum }) });
const number = numeric('number');
const integer = numeric('integer');
/** Percentages of a loan or an income. */
const percent = number(0, 100);
const text: Schema = { type: 'string', minLength: 1, maxLength: 200 };
const comment: Schema = { type: 'string' };
const boolean: Schema = { type: 'boolean' };
const idMessage = 'must be a lowercase id: letters, digits and single hyphens';
const id: Schema = { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 80, 'x-message': idMessage };
const setOf = (list: readonly string[]) => ({ type: 'array', items: { enum: list }, minItems: 1, uniqueItems: true });
const range = (minimum: number, kind = number): Schema => object({ min: kind(minimum), max: kind(minimum) });
const arrayOf = (items: Schema): Schema => ({ type: 'array', items, minItems: 1 });

const bandRate: Schema = {
  anyOf: [number(0, 100), { const: 'decline' }],
  'x-message': 'must be a rate in percent per year (0 to 100) or "decline"',
};

const commonProduct = {
  id,
  lenderId: id,
  name: text,
  loanAmount: range(0),
  loanTermYears: range(1, integer),
  minimumBand: { enum: BANDS_BEST_FIRST },
  minimumMonthlyIncome: number(0),
  employment: object({ types: setOf(EMPLOYMENT_TYPES), minimumMonthsInJob: integer(0, 600) }),
  serviceability: id,
  fees: object({ establishment: number(0, 100000), monthly: number(0, 1000) }),
  rates: object(Object.fromEntries(BANDS_BEST_FIRST.map((band) => [band, bandRate]))),
  commission: commissionSchema as unknown as Schema,
};

const product = (loanType: string, purposes: readonly string[], extra: Record<string, Schema> = {}): Schema =>
  optional(
    object({ ...commonProduct, loanType: { const: loanType }, purposes: setOf(purposes), ...extra }),
    'commission',
  );

const carRules = {
  ...object({
    saleTypes: setOf(SALE_TYPES),
    maxVehicleAgeYears: integer(0, 50),
    balloon: object({ maxPercent: percent, maxTermYears: integer(0, 30) }),
    // Above 100%: on-road costs, insurance and warranties financed with the vehicle.
    maxLvrPercent: number(1, 200),
  }),
  'x-message': {
    required: {
      maxLvrPercent:
        'is required: a car loan states its largest amount as a share of what the vehicle calls for (price less deposit and trade-in, plus any trade-in payout)',
    },
  },
};
const loading = number(0, 10);
const occupancyRules = object({ maxLvrPercent: number(1, 100), rateLoadingPercentPoints: loading }, ['maxLvrPercent']);
const homeRules = optional(
  object({
    occupancy: { ...object(Object.fromEntries(OCCUPANCY_TYPES.map((o) => [o, occupancyRules])), []), minProperties: 1 },
    lmiAboveLvrPercent: percent,
    firstHomeBuyerOnly: boolean,
    lmi: object({ table: id, capitalised: boolean }),
    repaymentTypes: setOf(REPAYMENT_TYPES),
    interestOnly: object({ maxYears: integer(1, 15), rateLoadingPercentPoints: loading }),
  }),
  'lmi',
  'interestOnly',
);

/** Premiums in percent of the loan by LVR row and amount column (gaps and order: catalogue-rules.ts). */
const lmiTable = object({
  $comment: comment,
  loanAmountUpTo: arrayOf(number(1)),
  rows: arrayOf(object({ lvrAbovePercent: percent, lvrUpToPercent: percent, premiumPercent: arrayOf(number(0, 20)) })),
});

/** The regulation's benchmarks, stated in the file so that an operator can check a comparison rate by hand. */
const benchmarks = object({
  $comment: comment,
  ...Object.fromEntries(
    Object.entries(COMPARISON_RATE_BENCHMARKS).map(([loanType, b]) => [
      loanType,
      object(
        Object.fromEntries(
          Object.entries(b).map(([key, value]) => [
            key,
            { const: value, 'x-message': `must be ${value}: the reg 100 benchmark for ${loanType} loans` },
          ]),
        ),
      ),
    ]),
  ),
});

const margins = object({
  loanAmountPercent: percent,
  loanTermYears: integer(0, 30),
  creditBands: integer(0, BANDS_BEST_FIRST.length - 1),
  incomePercent: percent,
  timeInJobMonths: integer(0, 600),
  serviceabilityPercent: percent,
  lvrPercentPoints: percent,
  vehicleAgeYears: integer(0, 50),
  balloonPercentPoints: percent,
  balloonTermYears: integer(0, 30),
});

const serviceabilityPolicy = object({
  bufferPercentPoints: number(0, 20),
  netIncomePercent: number(1, 100),
  otherIncomePercent: percent,
  livingCosts: object({ base: number(0), perDependant: number(0) }),
  housingCostFloor: object(Object.fromEntries(LIVING_SITUATIONS.map((s) => [s, number(0)]))),
});

const url = {
  type: 'string',
  format: 'uri',
  pattern: '^https://',
  'x-message': { pattern: 'must be an https address' },
};

export const catalogueSchema: Schema = object({
  $comment: comment,
  version: { const: 1 },
  effectiveFrom: { type: 'string', format: 'date' },
  nearMiss: object({ maxMissedRules: integer(1, 5), maxResults: integer(0, 1000), margins }),
  comparisonRateBenchmarks: benchmarks,
  serviceabilityPolicies: {
    type: 'object',
    propertyNames: id,
    additionalProperties: serviceabilityPolicy,
    minProperties: 1,
  },
  lmiTables: { type: 'object', propertyNames: id, additionalProperties: lmiTable },
  lenders: arrayOf(object({ id, name: text, url })),
  products: arrayOf({
    type: 'object',
    required: ['loanType'],
    // The discriminator picks the branch and reports a loanType that is none of them.
    properties: { loanType: { type: 'string' } },
    discriminator: { propertyName: 'loanType' },
    oneOf: [
      product('personal', PERSONAL_PURPOSES),
      product('car', CAR_PURPOSES, { car: carRules }),
      product('home', HOME_PURPOSES, { home: homeRules }),
    ],
  }),
});
