/**
 * Types of the lender catalogue (as written in `catalogue/catalogue.v1.json`, and as loaded, with the
 * per-product figures that depend on the product alone computed once). Matching's input and answer are
 * in match-types.ts.
 */
import type { CommissionDefinition } from '../outcomes/commission';
import type { ScoreBand } from '../credit/bureau';
import type { FormType } from '../validation/schemas';
import {
  type EMPLOYMENT_TYPES,
  HOME_LOAN_PURPOSES,
  type LIVING_SITUATIONS,
  type OCCUPANCY_TYPES,
  PERSONAL_LOAN_PURPOSES,
  type REPAYMENT_TYPES,
  USED_CAR_SALE_TYPES,
} from '../validation/schemas';

export type { ScoreBand } from '../credit/bureau';
export type { FormType } from '../validation/schemas';

/** Score bands from best to worst: the index is a band's rank (0 = excellent, 5 = poor). */
export const BANDS_BEST_FIRST: readonly ScoreBand[] = Object.freeze([
  'excellent',
  'very_good',
  'good',
  'average',
  'below_average',
  'poor',
]);

// ---------------------------------------------------------------------------------------------
// Enumerations of the spec's field tables that products refer to
// ---------------------------------------------------------------------------------------------

// The spec's value lists come from the field tables (validation/schemas.ts), written once there.
export { EMPLOYMENT_TYPES, LIVING_SITUATIONS, OCCUPANCY_TYPES, REPAYMENT_TYPES } from '../validation/schemas';
export const PERSONAL_PURPOSES = PERSONAL_LOAN_PURPOSES;
export const HOME_PURPOSES = HOME_LOAN_PURPOSES;
export const SALE_TYPES = USED_CAR_SALE_TYPES;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
export type LivingSituation = (typeof LIVING_SITUATIONS)[number];
/** Car step 1 `carLoanPurpose`, with its long aliases folded in (`NewCarPurchase` is `new`). */
export const CAR_PURPOSES = Object.freeze(['new', 'used', 'refinance'] as const);

/** The values of each loan type's purpose field, in the order bit masks index them. */
export const PURPOSES_BY_TYPE: Readonly<Record<FormType, readonly string[]>> = Object.freeze({
  personal: PERSONAL_PURPOSES,
  car: CAR_PURPOSES,
  home: HOME_PURPOSES,
});

export type CarPurpose = (typeof CAR_PURPOSES)[number];
export type HomePurpose = (typeof HOME_PURPOSES)[number];
export type SaleType = (typeof SALE_TYPES)[number];
export type OccupancyType = (typeof OCCUPANCY_TYPES)[number];
export type RepaymentType = (typeof REPAYMENT_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// The catalogue file
// ---------------------------------------------------------------------------------------------

export interface Range {
  readonly min: number;
  readonly max: number;
}

/** A rate in percent per year, or the explicit refusal of a band. */
export type BandRate = number | 'decline';

/** How a lender assesses whether the applicant can afford the new repayment (all amounts monthly). */
export interface ServiceabilityPolicy {
  /** Added to the product's rate when the new repayment is assessed (percentage points). */
  readonly bufferPercentPoints: number;
  /** Share of assessable gross income taken as income after tax (a flat approximation). */
  readonly netIncomePercent: number;
  /** Share of `otherIncome` counted as assessable income. */
  readonly otherIncomePercent: number;
  /** Living costs of the applicant, plus each dependant. */
  readonly livingCosts: { readonly base: number; readonly perDependant: number };
  /** The least housing cost assumed for each living situation; the declared `monthlyRent` counts when higher. */
  readonly housingCostFloor: Readonly<Record<LivingSituation, number>>;
}

/** How far from a bound a missed rule may be for the product to count as narrowly missed. */
export interface NearMissPolicy {
  /** A near-miss misses at most this many rules (every other rule passes). */
  readonly maxMissedRules: number;
  /** At most this many near-misses are returned (the closest first). */
  readonly maxResults: number;
  readonly margins: NearMissMargins;
}

export interface NearMissMargins {
  /** Loan amount above the maximum (or below the minimum) by at most this share of the bound. */
  readonly loanAmountPercent: number;
  /** Term beyond the product's range by at most this many years. */
  readonly loanTermYears: number;
  /** Credit band at most this many bands below the product's minimum band. */
  readonly creditBands: number;
  /** Assessable income below the minimum by at most this share of the minimum. */
  readonly incomePercent: number;
  /** Time in the current job short by at most this many months. */
  readonly timeInJobMonths: number;
  /** The largest loan the income services is at most this share below the amount assessed (asked for, or capped by another missed rule). */
  readonly serviceabilityPercent: number;
  /** LVR above the maximum by at most this many percentage points. */
  readonly lvrPercentPoints: number;
  /** Vehicle older than the maximum by at most this many years. */
  readonly vehicleAgeYears: number;
  /** Balloon above the maximum by at most this many percentage points of the loan amount. */
  readonly balloonPercentPoints: number;
  /** Term longer than the longest term that allows a balloon by at most this many years. */
  readonly balloonTermYears: number;
}

/**
 * The loan a comparison rate is quoted on, by kind of credit (National Credit Regulations, reg 100): the
 * catalogue states it so that an operator can check a figure; the schema accepts only the regulation's.
 */
export interface ComparisonRateBenchmark {
  readonly amount: number;
  readonly termYears: number;
  /** Words of the example only: "a $30,000 secured loan over 5 years". */
  readonly secured: boolean;
}

/**
 * Lenders mortgage insurance premiums, as a percentage of the loan amount, by LVR (rows) and loan amount
 * (columns). Row `r` covers LVRs above `lvrAbovePercent` up to and including `lvrUpToPercent`; column `c`
 * covers loan amounts above `loanAmountUpTo[c - 1]` (0 for the first) up to and including `loanAmountUpTo[c]`.
 */
export interface LmiTableDefinition {
  readonly $comment?: string;
  readonly loanAmountUpTo: readonly number[];
  readonly rows: readonly {
    readonly lvrAbovePercent: number;
    readonly lvrUpToPercent: number;
    readonly premiumPercent: readonly number[];
  }[];
}

export interface LenderDefinition {
  readonly id: string;
  readonly name: string;
  /** Where an applicant is forwarded to apply (the referral's destination). */
  readonly url: string;
}

interface ProductDefinitionBase {
  readonly id: string;
  readonly lenderId: string;
  readonly name: string;
  readonly loanAmount: Range;
  readonly loanTermYears: Range;
  readonly minimumBand: ScoreBand;
  /** Assessable gross monthly income (salary plus the counted share of other income). */
  readonly minimumMonthlyIncome: number;
  readonly employment: { readonly types: readonly EmploymentType[]; readonly minimumMonthsInJob: number };
  /** The id of one of the catalogue's `serviceabilityPolicies`. */
  readonly serviceability: string;
  readonly fees: { readonly establishment: number; readonly monthly: number };
  /** Rate per year by credit band; every band is priced or explicitly declined. */
  readonly rates: Readonly<Record<ScoreBand, BandRate>>;
  /** What a funded loan earns the referring partner (`outcomes/commission.ts`); none when absent. */
  readonly commission?: Readonly<CommissionDefinition>;
}

export interface PersonalProductDefinition extends ProductDefinitionBase {
  readonly loanType: 'personal';
  readonly purposes: readonly (typeof PERSONAL_PURPOSES)[number][];
}

export interface CarProductDefinition extends ProductDefinitionBase {
  readonly loanType: 'car';
  readonly purposes: readonly CarPurpose[];
  readonly car: {
    readonly saleTypes: readonly SaleType[];
    /** Age of a used vehicle at application (reference year less `vehicleYear`). */
    readonly maxVehicleAgeYears: number;
    /** Balloon at the end of the term as a share of the loan amount; `maxPercent: 0` allows none. */
    readonly balloon: { readonly maxPercent: number; readonly maxTermYears: number };
    /**
     * The largest loan as a share of what the vehicle calls for: its price less the deposit and the
     * trade-in, plus any payout owed on the trade-in.
     */
    readonly maxLvrPercent: number;
  };
}

export interface HomeProductDefinition extends ProductDefinitionBase {
  readonly loanType: 'home';
  readonly purposes: readonly HomePurpose[];
  readonly home: {
    /** Allowed occupancy types, each with its maximum LVR and an optional rate loading. */
    readonly occupancy: Partial<
      Record<OccupancyType, { readonly maxLvrPercent: number; readonly rateLoadingPercentPoints?: number }>
    >;
    /** Lenders mortgage insurance applies above this LVR. */
    readonly lmiAboveLvrPercent: number;
    /**
     * The premium's table (one of the catalogue's `lmiTables`), and whether the premium is added to the
     * loan (`capitalised`) or paid at settlement. Required when an occupancy lends above `lmiAboveLvrPercent`.
     */
    readonly lmi?: { readonly table: string; readonly capitalised: boolean };
    readonly firstHomeBuyerOnly: boolean;
    readonly repaymentTypes: readonly RepaymentType[];
    /** Required when `repaymentTypes` has `interest_only`. */
    readonly interestOnly?: { readonly maxYears: number; readonly rateLoadingPercentPoints: number };
  };
}

export type ProductDefinition = PersonalProductDefinition | CarProductDefinition | HomeProductDefinition;

export interface CatalogueFile {
  readonly version: number;
  readonly effectiveFrom: string;
  readonly nearMiss: NearMissPolicy;
  readonly comparisonRateBenchmarks: Readonly<Record<FormType, ComparisonRateBenchmark>> & {
    readonly $comment?: string;
  };
  readonly serviceabilityPolicies: Readonly<Record<string, ServiceabilityPolicy>>;
  readonly lmiTables: Readonly<Record<string, LmiTableDefinition>>;
  readonly lenders: readonly LenderDefinition[];
  readonly products: readonly ProductDefinition[];
}

// ---------------------------------------------------------------------------------------------
// The loaded catalogue
// ---------------------------------------------------------------------------------------------

export interface Ref {
  readonly id: string;
  readonly name: string;
}

/** The price of one band of one product variant, with everything that depends on the product alone. */
export interface BandPrice {
  /** Percent per year, 2 decimals (base rate plus any loading of the variant; interest only: during that period). */
  readonly rate: number;
  /** Interest only: the rate after the interest-only period (its loading gone); otherwise `rate`. */
  readonly revertRate: number;
  /** Percent per year on the benchmark loan, 2 decimals. */
  readonly comparisonRate: number;
  /**
   * Home loans with an LMI table: the comparison rate on the benchmark loan with the premium of each of
   * the table's rows (its LVRs) at the benchmark amount, capitalised or paid at settlement as the product
   * says; 2 decimals. Empty otherwise.
   */
  readonly lmiComparisonRates: readonly number[];
  /** Comparison rate above the 48% cap: this band is never offered, not even as a near-miss. */
  readonly capped: boolean;
  readonly headline: string;
  /** With an LMI table: the headline before its comparison rate (`headline.ts`); otherwise empty. */
  readonly headlinePrefix: string;
  /**
   * This product's place among the products of its loan type offered at this band and variant:
   * cheapest comparison rate first, then the lower rate, then id. Accepted offers are put in order by it.
   */
  readonly position: number;
  // Precomputed for the matching loop: monthly rates, and log(1 + monthly rate) so that a discount
  // factor (1 + i)^-n is one Math.exp.
  readonly monthlyRate: number;
  readonly growthLog: number;
  /** At the rate plus the product's serviceability buffer. */
  readonly bufferedMonthlyRate: number;
  readonly bufferedGrowthLog: number;
  readonly revertMonthlyRate: number;
  readonly revertGrowthLog: number;
}

/** An LMI table as matching reads it (`LmiTableDefinition` with the premiums as fractions). */
export interface LmiTable {
  readonly name: string;
  readonly loanAmountUpTo: readonly number[];
  readonly lvrAbove: readonly number[];
  readonly lvrUpTo: readonly number[];
  /** `premiumRate[row][column]`: the premium as a fraction of the loan amount. */
  readonly premiumRate: readonly (readonly number[])[];
}

export interface CatalogueProduct {
  readonly definition: ProductDefinition;
  readonly lender: Ref;
  readonly product: Ref;
  readonly lenderUrl: string;
  readonly loanType: FormType;
  readonly serviceability: ServiceabilityPolicy;
  /**
   * `prices[variant * 6 + bandRank]`: `null` where the band is declined or the variant does not exist.
   * Variants are priced differently: 0 is the product as written (principal and interest, owner
   * occupied for home); home loans add 1 interest only, 2 investment, 3 both (their rate loadings added).
   */
  readonly prices: readonly (BandPrice | null)[];
  /** The benchmark loan the comparison rates are computed on (the regulation's, within the product's limits). */
  readonly benchmark: { readonly amount: number; readonly termMonths: number };
  /** The benchmark in words, e.g. "a $30,000 unsecured loan over 5 years". */
  readonly comparisonRateExample: string;
  /** The standard warning, and, when the product cannot be written at the benchmark, that its nearest is used. */
  readonly comparisonRateWarning: string;
  /** Home: index into `Catalogue.lmiTables`, or -1. */
  readonly lmiTable: number;
  /** With an LMI table: `comparisonRateExample` with the premium of each of its rows (`BandPrice.lmiComparisonRates`). */
  readonly lmiExamples: readonly string[];
}

/**
 * The products of one loan type as columns of typed arrays (built by `buildTable` in table.ts). Row `i`
 * is `productsByType[type][i]`; price columns have `slots` entries per row, indexed like
 * `CatalogueProduct.prices` (variant × 6 + band rank).
 */
export interface ProductTable {
  readonly size: number;
  readonly slots: number;
  // Rules, one entry per product
  readonly minAmount: Float64Array;
  readonly maxAmount: Float64Array;
  readonly minTermYears: Float64Array;
  readonly maxTermYears: Float64Array;
  readonly minBandRank: Int32Array;
  readonly minMonthlyIncome: Float64Array;
  readonly minMonthsInJob: Float64Array;
  readonly purposeMask: Int32Array;
  readonly employmentMask: Int32Array;
  readonly establishmentFee: Float64Array;
  readonly monthlyFee: Float64Array;
  readonly netIncomeShare: Float64Array;
  readonly otherIncomeShare: Float64Array;
  readonly livingBase: Float64Array;
  readonly livingPerDependant: Float64Array;
  /** `LIVING_SITUATIONS.length` entries per product. */
  readonly housingFloor: Float64Array;
  readonly saleTypeMask: Int32Array;
  readonly maxVehicleAgeYears: Float64Array;
  readonly balloonMaxPercent: Float64Array;
  readonly balloonMaxTermYears: Float64Array;
  readonly maxVehicleLvr: Float64Array;
  /** `OCCUPANCY_TYPES.length` entries per product; `NaN` where the occupancy is not allowed. */
  readonly maxLvr: Float64Array;
  readonly lmiAboveLvrPercent: Float64Array;
  readonly firstHomeBuyerOnly: Uint8Array;
  readonly repaymentTypeMask: Int32Array;
  readonly interestOnlyMonths: Int32Array;
  /** Index into `Catalogue.lmiTables`, or -1 (no LMI table). */
  readonly lmiTable: Int32Array;
  readonly lmiCapitalised: Uint8Array;
  // Prices, `slots` entries per product (see `BandPrice`)
  readonly priceState: Uint8Array;
  readonly comparisonRate: Float64Array;
  readonly monthlyRate: Float64Array;
  readonly growthLog: Float64Array;
  readonly bufferedMonthlyRate: Float64Array;
  readonly bufferedGrowthLog: Float64Array;
  readonly revertMonthlyRate: Float64Array;
  readonly revertGrowthLog: Float64Array;
  readonly position: Int32Array;
  readonly rate: Float64Array;
  readonly revertRate: Float64Array;
  readonly headline: readonly string[];
  readonly headlinePrefix: readonly string[];
  /** `lmiRows` entries per product (`CatalogueProduct.lmiExamples`). */
  readonly lmiExample: readonly string[];
  /** `lmiRows` entries per price (`BandPrice.lmiComparisonRates`), `NaN` past a table's rows. */
  readonly lmiRows: number;
  readonly lmiComparisonRate: Float64Array;
  // What an offer repeats from its product, one entry per product
  readonly productId: readonly string[];
  readonly lender: readonly Ref[];
  readonly product: readonly Ref[];
  readonly lenderUrl: readonly string[];
  readonly comparisonRateExample: readonly string[];
  readonly comparisonRateWarning: readonly string[];
}

export interface Catalogue {
  readonly version: number;
  readonly effectiveFrom: string;
  readonly nearMiss: NearMissPolicy;
  readonly lenders: readonly LenderDefinition[];
  readonly lmiTables: readonly LmiTable[];
  readonly products: readonly CatalogueProduct[];
  readonly productsByType: Readonly<Record<FormType, readonly CatalogueProduct[]>>;
  /** The same products as columns for the matching loop (internal: typed arrays cannot be frozen, do not modify). */
  readonly tables: Readonly<Record<FormType, ProductTable>>;
}
