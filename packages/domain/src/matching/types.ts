/**
 * Types of the lender catalogue: the file as written (`catalogue/catalogue.v1.json`, field by field in
 * docs/matching.md) and as loaded. Matching's input and answer are in match-types.ts.
 */
import { SCORE_BANDS, type ScoreBand } from '../credit/bureau';
import type { CommissionDefinition } from '../outcomes/commission';
import type {
  EMPLOYMENT_TYPES,
  FormType,
  HOME_LOAN_PURPOSES,
  LIVING_SITUATIONS,
  OCCUPANCY_TYPES,
  PERSONAL_LOAN_PURPOSES,
  REPAYMENT_TYPES,
  USED_CAR_SALE_TYPES,
} from '../validation/schemas';

export type { ScoreBand } from '../credit/bureau';
export {
  EMPLOYMENT_TYPES,
  type FormType,
  HOME_LOAN_PURPOSES as HOME_PURPOSES,
  LIVING_SITUATIONS,
  OCCUPANCY_TYPES,
  PERSONAL_LOAN_PURPOSES as PERSONAL_PURPOSES,
  REPAYMENT_TYPES,
  USED_CAR_SALE_TYPES as SALE_TYPES,
} from '../validation/schemas';

/** Score bands from best to worst: the index is a band's rank (0 = excellent, 5 = poor). */
export const BANDS_BEST_FIRST: readonly ScoreBand[] = Object.freeze(SCORE_BANDS.map((b) => b.band));
/** Car step 1 `carLoanPurpose`, with its long aliases folded in (`NewCarPurchase` is `new`). */
export const CAR_PURPOSES = Object.freeze(['new', 'used', 'refinance'] as const);

export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
export type LivingSituation = (typeof LIVING_SITUATIONS)[number];
export type OccupancyType = (typeof OCCUPANCY_TYPES)[number];
export type RepaymentType = (typeof REPAYMENT_TYPES)[number];

export interface Range {
  readonly min: number;
  readonly max: number;
}

/** A rate in percent per year, or the explicit refusal of a band. */
export type BandRate = number | 'decline';

/** How a lender assesses whether the applicant can afford the new repayment (amounts monthly, shares in percent). */
export interface ServiceabilityPolicy {
  readonly bufferPercentPoints: number;
  readonly netIncomePercent: number;
  readonly otherIncomePercent: number;
  readonly livingCosts: { readonly base: number; readonly perDependant: number };
  /** The least housing cost assumed for each living situation; the declared `monthlyRent` counts when higher. */
  readonly housingCostFloor: Readonly<Record<LivingSituation, number>>;
}

/** How many rules a near-miss may miss, how many are returned, and how far from each bound it may be. */
export interface NearMissPolicy {
  readonly maxMissedRules: number;
  readonly maxResults: number;
  readonly margins: Readonly<
    Record<
      | 'loanAmountPercent'
      | 'loanTermYears'
      | 'creditBands'
      | 'incomePercent'
      | 'timeInJobMonths'
      | 'serviceabilityPercent'
      | 'lvrPercentPoints'
      | 'vehicleAgeYears'
      | 'balloonPercentPoints'
      | 'balloonTermYears',
      number
    >
  >;
}

/** The loan a comparison rate is quoted on, by kind of credit (National Credit Regulations, reg 100). */
export interface ComparisonRateBenchmark {
  readonly amount: number;
  readonly termYears: number;
  readonly secured: boolean;
}

/** A loan a comparison rate is computed on. */
export interface BenchmarkLoan {
  readonly amount: number;
  readonly termMonths: number;
}

/** LMI premiums in percent of the loan: a row per LVR band (above, up to), a column per loan amount (up to). */
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
  /** Where an applicant is forwarded to apply. */
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
  readonly rates: Readonly<Record<ScoreBand, BandRate>>;
  readonly commission?: Readonly<CommissionDefinition>;
}

export interface PersonalProductDefinition extends ProductDefinitionBase {
  readonly loanType: 'personal';
  readonly purposes: readonly (typeof PERSONAL_LOAN_PURPOSES)[number][];
}

export interface CarProductDefinition extends ProductDefinitionBase {
  readonly loanType: 'car';
  readonly purposes: readonly (typeof CAR_PURPOSES)[number][];
  readonly car: {
    readonly saleTypes: readonly (typeof USED_CAR_SALE_TYPES)[number][];
    readonly maxVehicleAgeYears: number;
    /** Balloon as a share of the loan amount; `maxPercent: 0` allows none. */
    readonly balloon: { readonly maxPercent: number; readonly maxTermYears: number };
    /** The largest loan as a share of the vehicle's price less deposit and trade-in, plus any trade-in payout. */
    readonly maxLvrPercent: number;
  };
}

export interface HomeProductDefinition extends ProductDefinitionBase {
  readonly loanType: 'home';
  readonly purposes: readonly (typeof HOME_LOAN_PURPOSES)[number][];
  readonly home: {
    readonly occupancy: Partial<
      Record<OccupancyType, { readonly maxLvrPercent: number; readonly rateLoadingPercentPoints?: number }>
    >;
    readonly lmiAboveLvrPercent: number;
    /** Required when an occupancy lends above `lmiAboveLvrPercent`; a capitalised premium is added to the loan. */
    readonly lmi?: { readonly table: string; readonly capitalised: boolean };
    readonly firstHomeBuyerOnly: boolean;
    readonly repaymentTypes: readonly RepaymentType[];
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

export interface Ref {
  readonly id: string;
  readonly name: string;
}

/** The price of a product at one band and variant, with its figures on the benchmark loan. */
export interface BandPrice {
  /** Percent per year (interest only: during that period). */
  readonly rate: number;
  /** Interest only: the rate after the period; otherwise `rate`. */
  readonly revertRate: number;
  readonly comparisonRate: number;
  /** With an LMI table: the comparison rate with the premium of each of its rows, at the benchmark amount. */
  readonly lmiComparisonRates: readonly number[];
  /** Comparison rate above the cost-rate cap: never offered, not even as a near-miss. */
  readonly capped: boolean;
  readonly headline: string;
  /** The headline before its comparison rate. */
  readonly headlinePrefix: string;
}

/** An LMI table with the premiums as fractions of the loan (`premiumRate[row][column]`). */
export interface LmiTable {
  readonly name: string;
  readonly loanAmountUpTo: readonly number[];
  readonly lvrAbove: readonly number[];
  readonly lvrUpTo: readonly number[];
  readonly premiumRate: readonly (readonly number[])[];
}

export interface CatalogueProduct {
  readonly definition: ProductDefinition;
  readonly lender: Ref;
  readonly product: Ref;
  readonly lenderUrl: string;
  readonly serviceability: ServiceabilityPolicy;
  /**
   * By variant and band: `prices[variant * 6 + band rank]`, `null` where declined or the variant does not
   * exist. Variant 0 is the product as written; home loans add 1 interest only, 2 investment, 3 both.
   */
  readonly prices: readonly (BandPrice | null)[];
  /** The loan the comparison rates are quoted on: the regulation's, within the product's limits. */
  readonly benchmark: BenchmarkLoan;
  /** The benchmark in words, e.g. "a $30,000 unsecured loan over 5 years". */
  readonly comparisonRateExample: string;
  readonly comparisonRateWarning: string;
  /** Home loans lending above their LMI threshold: the premiums' table, and the example with each row's premium. */
  readonly lmiTable?: LmiTable;
  readonly lmiExamples: readonly string[];
}

export interface Catalogue {
  readonly version: number;
  readonly effectiveFrom: string;
  readonly nearMiss: NearMissPolicy;
  readonly lenders: readonly LenderDefinition[];
  readonly products: readonly CatalogueProduct[];
  readonly productsByType: Readonly<Record<FormType, readonly CatalogueProduct[]>>;
}
