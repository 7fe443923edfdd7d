/**
 * The JSON Schema of the catalogue file (`catalogue/catalogue.v1.json`): its shape and the bounds of
 * single values, and the file's types read from it. Rules that relate two values (min ≤ max, a lender
 * that exists) are in catalogue-rules.ts.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { SCORE_BANDS, type ScoreBand } from '../credit/bureau';
import { commissionSchema, type CommissionDefinition } from '../outcomes/commission';
import {
  EMPLOYMENT_TYPES,
  type FormType,
  HOME_LOAN_PURPOSES,
  LIVING_SITUATIONS,
  object,
  OCCUPANCY_TYPES,
  opt,
  PERSONAL_LOAN_PURPOSES,
  REPAYMENT_TYPES,
  USED_CAR_SALE_TYPES,
} from '../validation/schemas';
import { COMPARISON_RATE_BENCHMARKS, type ComparisonRateBenchmark } from './benchmarks';

/** Score bands from best to worst: the index is a band's rank (0 = excellent, 5 = poor). */
export const BANDS_BEST_FIRST: readonly ScoreBand[] = Object.freeze(SCORE_BANDS.map((b) => b.band));
/** Car step 1 `carLoanPurpose`, with its long aliases folded in (`NewCarPurchase` is `new`). */
export const CAR_PURPOSES = Object.freeze(['new', 'used', 'refinance'] as const);

/** A rate in percent per year, or the explicit refusal of a band. */
export type BandRate = number | 'decline';

const numeric = (type: 'number' | 'integer') => (minimum: number, maximum?: number) =>
  Type.Unsafe<number>({ type, minimum, ...(maximum === undefined ? {} : { maximum }) });
const number = numeric('number');
const integer = numeric('integer');
/** Percentages of a loan or an income. */
const percent = number(0, 100);
const text = Type.String({ minLength: 1, maxLength: 200 });
const comment = opt(Type.String());
const boolean = Type.Boolean();
const constant = <T extends number | boolean | string>(value: T, options = {}) =>
  Type.Unsafe<T>({ const: value, ...options });
const idMessage = 'must be a lowercase id: letters, digits and single hyphens';
const id = Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 80, 'x-message': idMessage });
const oneOf = <T extends string>(list: readonly T[]) => Type.Unsafe<T>({ enum: list });
const setOf = <T extends string>(list: readonly T[]) =>
  Type.Unsafe<T[]>({ type: 'array', items: { enum: list }, minItems: 1, uniqueItems: true });
const range = (minimum: number, kind = number) => object({ min: kind(minimum), max: kind(minimum) });
const arrayOf = <T extends TSchema>(items: T) => Type.Array(items, { minItems: 1 });
/** An object with a property of schema `value` for each of `keys`. */
const keyed = <K extends string, T extends TSchema>(keys: readonly K[], value: T) =>
  Type.Unsafe<Record<K, Static<T>>>(object(Object.fromEntries(keys.map((key) => [key, value]))));
/** An object whose keys are ids, each value of schema `value`. */
const byId = <T extends TSchema>(value: T, options = {}) =>
  Type.Unsafe<Record<string, Static<T>>>({
    type: 'object',
    propertyNames: id,
    additionalProperties: value,
    ...options,
  });

const bandRate = Type.Unsafe<BandRate>({
  anyOf: [number(0, 100), { const: 'decline' }],
  'x-message': 'must be a rate in percent per year (0 to 100) or "decline"',
});

const commonProduct = {
  id,
  lenderId: id,
  name: text,
  loanAmount: range(0),
  loanTermYears: range(1, integer),
  minimumBand: oneOf(BANDS_BEST_FIRST),
  /** Assessable gross monthly income (salary plus the counted share of other income). */
  minimumMonthlyIncome: number(0),
  employment: object({ types: setOf(EMPLOYMENT_TYPES), minimumMonthsInJob: integer(0, 600) }),
  /** The id of one of the catalogue's `serviceabilityPolicies`. */
  serviceability: id,
  fees: object({ establishment: number(0, 100000), monthly: number(0, 1000) }),
  rates: keyed(BANDS_BEST_FIRST, bandRate),
  commission: opt(Type.Unsafe<CommissionDefinition>(commissionSchema)),
};

const product = <L extends FormType, P extends string, E extends Record<string, TSchema>>(
  loanType: L,
  purposes: readonly P[],
  extra: E,
) => object({ ...commonProduct, loanType: constant(loanType), purposes: setOf(purposes), ...extra });

const carRules = object(
  {
    saleTypes: setOf(USED_CAR_SALE_TYPES),
    maxVehicleAgeYears: integer(0, 50),
    /** Balloon as a share of the loan amount; `maxPercent: 0` allows none. */
    balloon: object({ maxPercent: percent, maxTermYears: integer(0, 30) }),
    /** The largest loan as a share of the vehicle's price less deposit and trade-in, plus any trade-in payout.
     * Above 100%: on-road costs, insurance and warranties financed with the vehicle. */
    maxLvrPercent: number(1, 200),
  },
  {
    'x-message': {
      required: {
        maxLvrPercent:
          'is required: a car loan states its largest amount as a share of what the vehicle calls for (price less deposit and trade-in, plus any trade-in payout)',
      },
    },
  },
);
const loading = number(0, 10);
const occupancyRules = object({ maxLvrPercent: number(1, 100), rateLoadingPercentPoints: opt(loading) });
const homeRules = object({
  occupancy: Type.Unsafe<Partial<Record<(typeof OCCUPANCY_TYPES)[number], Static<typeof occupancyRules>>>>(
    object(Object.fromEntries(OCCUPANCY_TYPES.map((o) => [o, opt(occupancyRules)])), { minProperties: 1 }),
  ),
  lmiAboveLvrPercent: percent,
  firstHomeBuyerOnly: boolean,
  /** Required when an occupancy lends above `lmiAboveLvrPercent`; a capitalised premium is added to the loan. */
  lmi: opt(object({ table: id, capitalised: boolean })),
  repaymentTypes: setOf(REPAYMENT_TYPES),
  interestOnly: opt(object({ maxYears: integer(1, 15), rateLoadingPercentPoints: loading })),
});

const personalProduct = product('personal', PERSONAL_LOAN_PURPOSES, {});
const carProduct = product('car', CAR_PURPOSES, { car: carRules });
const homeProduct = product('home', HOME_LOAN_PURPOSES, { home: homeRules });

/** Premiums in percent of the loan by LVR row and amount column (gaps and order: catalogue-rules.ts). */
const lmiTable = object({
  $comment: comment,
  loanAmountUpTo: arrayOf(number(1)),
  rows: arrayOf(object({ lvrAbovePercent: percent, lvrUpToPercent: percent, premiumPercent: arrayOf(number(0, 20)) })),
});

/** The regulation's benchmarks, stated in the file so that an operator can check a comparison rate by hand. */
const benchmarks = Type.Unsafe<{ $comment?: string } & Record<FormType, ComparisonRateBenchmark>>(
  object({
    $comment: comment,
    ...Object.fromEntries(
      Object.entries(COMPARISON_RATE_BENCHMARKS).map(([loanType, b]) => [
        loanType,
        object(
          Object.fromEntries(
            Object.entries(b).map(([key, value]) => [
              key,
              constant(value, { 'x-message': `must be ${value}: the reg 100 benchmark for ${loanType} loans` }),
            ]),
          ),
        ),
      ]),
    ),
  }),
);

/** How many rules a near-miss may miss, how many are returned, and how far from each bound it may be. */
const nearMiss = object({
  maxMissedRules: integer(1, 5),
  maxResults: integer(0, 1000),
  margins: object({
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
  }),
});

/** How a lender assesses whether the applicant can afford the new repayment (amounts monthly, shares in percent). */
const serviceabilityPolicy = object({
  bufferPercentPoints: number(0, 20),
  netIncomePercent: number(1, 100),
  otherIncomePercent: percent,
  livingCosts: object({ base: number(0), perDependant: number(0) }),
  /** The least housing cost assumed for each living situation; the declared `monthlyRent` counts when higher. */
  housingCostFloor: keyed(LIVING_SITUATIONS, number(0)),
});

const url = Type.String({ format: 'uri', pattern: '^https://', 'x-message': { pattern: 'must be an https address' } });
/** A lender, where an applicant is forwarded to apply, and its lead ownership window in days (default 90). */
const lender = object({ id, name: text, url, ownershipDays: opt(integer(0, 3650)) });

export const catalogueSchema = object({
  $comment: comment,
  version: constant(1),
  effectiveFrom: Type.String({ format: 'date' }),
  nearMiss,
  comparisonRateBenchmarks: benchmarks,
  serviceabilityPolicies: byId(serviceabilityPolicy, { minProperties: 1 }),
  lmiTables: byId(lmiTable),
  lenders: arrayOf(lender),
  products: arrayOf(
    Type.Unsafe<Static<typeof personalProduct> | Static<typeof carProduct> | Static<typeof homeProduct>>({
      type: 'object',
      required: ['loanType'],
      // The discriminator picks the branch and reports a loanType that is none of them.
      properties: { loanType: { type: 'string' } },
      discriminator: { propertyName: 'loanType' },
      oneOf: [personalProduct, carProduct, homeProduct],
    }),
  ),
});

/** A value and all it holds read-only, as the loaded catalogue is frozen. */
type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

export type CatalogueFile = Frozen<Static<typeof catalogueSchema>>;
export type NearMissPolicy = CatalogueFile['nearMiss'];
export type ServiceabilityPolicy = CatalogueFile['serviceabilityPolicies'][string];
export type LmiTableDefinition = CatalogueFile['lmiTables'][string];
export type LenderDefinition = CatalogueFile['lenders'][number];
export type ProductDefinition = CatalogueFile['products'][number];
export type HomeProductDefinition = Extract<ProductDefinition, { loanType: 'home' }>;
