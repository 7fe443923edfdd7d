/** Types of the lender catalogue: the file as written (`catalogue/catalogue.v1.json`) and as loaded. */
import { SCORE_BANDS, type ScoreBand } from '../credit/bureau';
import type { CommissionDefinition, CommissionTerms } from '../outcomes/commission';
import type * as schemas from '../validation/schemas';

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

export type EmploymentType = (typeof schemas.EMPLOYMENT_TYPES)[number];
export type LivingSituation = (typeof schemas.LIVING_SITUATIONS)[number];
export type OccupancyType = (typeof schemas.OCCUPANCY_TYPES)[number];
export type RepaymentType = (typeof schemas.REPAYMENT_TYPES)[number];

type Range = Readonly<{ min: number; max: number }>;
/** A rate in percent per year, or the explicit refusal of a band. */
export type BandRate = number | 'decline';
/** How a lender assesses whether the applicant can afford the new repayment (amounts monthly, shares in percent). */
export type ServiceabilityPolicy = Readonly<{
  bufferPercentPoints: number;
  netIncomePercent: number;
  otherIncomePercent: number;
  livingCosts: Readonly<{ base: number; perDependant: number }>;
  /** The least housing cost assumed for each living situation; the declared `monthlyRent` counts when higher. */
  housingCostFloor: Readonly<Record<LivingSituation, number>>;
}>;

/** How many rules a near-miss may miss, how many are returned, and how far from each bound it may be. */
export type NearMissPolicy = Readonly<{
  maxMissedRules: number;
  maxResults: number;
  margins: Readonly<
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
}>;

/** The loan a comparison rate is quoted on, by kind of credit (National Credit Regulations, reg 100). */
export type ComparisonRateBenchmark = Readonly<{ amount: number; termYears: number; secured: boolean }>;
/** A loan a comparison rate is computed on. */
export type BenchmarkLoan = Readonly<{ amount: number; termMonths: number }>;
/** LMI premiums in percent of the loan: a row per LVR band (above, up to), a column per loan amount (up to). */
export type LmiTableDefinition = Readonly<{
  $comment?: string;
  loanAmountUpTo: readonly number[];
  rows: readonly Readonly<{ lvrAbovePercent: number; lvrUpToPercent: number; premiumPercent: readonly number[] }>[];
}>;

/** A lender, and where an applicant is forwarded to apply. */
export type LenderDefinition = Readonly<{ id: string; name: string; url: string }>;
type ProductDefinitionBase = Readonly<{
  id: string;
  lenderId: string;
  name: string;
  loanAmount: Range;
  loanTermYears: Range;
  minimumBand: ScoreBand;
  /** Assessable gross monthly income (salary plus the counted share of other income). */
  minimumMonthlyIncome: number;
  employment: Readonly<{ types: readonly EmploymentType[]; minimumMonthsInJob: number }>;
  /** The id of one of the catalogue's `serviceabilityPolicies`. */
  serviceability: string;
  fees: Readonly<{ establishment: number; monthly: number }>;
  rates: Readonly<Record<ScoreBand, BandRate>>;
  commission?: Readonly<CommissionDefinition>;
}>;
export type PersonalProductDefinition = ProductDefinitionBase &
  Readonly<{ loanType: 'personal'; purposes: readonly (typeof schemas.PERSONAL_LOAN_PURPOSES)[number][] }>;
export type CarProductDefinition = ProductDefinitionBase &
  Readonly<{
    loanType: 'car';
    purposes: readonly (typeof CAR_PURPOSES)[number][];
    car: Readonly<{
      saleTypes: readonly (typeof schemas.USED_CAR_SALE_TYPES)[number][];
      maxVehicleAgeYears: number;
      /** Balloon as a share of the loan amount; `maxPercent: 0` allows none. */
      balloon: Readonly<{ maxPercent: number; maxTermYears: number }>;
      /** The largest loan as a share of the vehicle's price less deposit and trade-in, plus any trade-in payout. */
      maxLvrPercent: number;
    }>;
  }>;

export type HomeProductDefinition = ProductDefinitionBase &
  Readonly<{
    loanType: 'home';
    purposes: readonly (typeof schemas.HOME_LOAN_PURPOSES)[number][];
    home: Readonly<{
      occupancy: Partial<Record<OccupancyType, Readonly<{ maxLvrPercent: number; rateLoadingPercentPoints?: number }>>>;
      lmiAboveLvrPercent: number;
      /** Required when an occupancy lends above `lmiAboveLvrPercent`; a capitalised premium is added to the loan. */
      lmi?: Readonly<{ table: string; capitalised: boolean }>;
      firstHomeBuyerOnly: boolean;
      repaymentTypes: readonly RepaymentType[];
      interestOnly?: Readonly<{ maxYears: number; rateLoadingPercentPoints: number }>;
    }>;
  }>;
export type ProductDefinition = PersonalProductDefinition | CarProductDefinition | HomeProductDefinition;

export type CatalogueFile = Readonly<{
  version: number;
  effectiveFrom: string;
  nearMiss: NearMissPolicy;
  comparisonRateBenchmarks: Readonly<Record<schemas.FormType, ComparisonRateBenchmark> & { $comment?: string }>;
  serviceabilityPolicies: Readonly<Record<string, ServiceabilityPolicy>>;
  lmiTables: Readonly<Record<string, LmiTableDefinition>>;
  lenders: readonly LenderDefinition[];
  products: readonly ProductDefinition[];
}>;
export type Ref = Readonly<{ id: string; name: string }>;
/** The price of a product at one band and variant, with its figures on the benchmark loan. */
export type BandPrice = Readonly<{
  /** Percent per year (interest only: during that period); `revertRate` after the period (otherwise the same). */
  rate: number;
  revertRate: number;
  comparisonRate: number;
  /** With an LMI table: the comparison rate with the premium of each of its rows, at the benchmark amount. */
  lmiComparisonRates: readonly number[];
  /** Comparison rate above the cost-rate cap: never offered, not even as a near-miss. */
  capped: boolean;
  /** The headline, and what comes before its comparison rate. */
  headline: string;
  headlinePrefix: string;
}>;

/** An LMI table with the premiums as fractions of the loan (`premiumRate[row][column]`). */
export type LmiTable = Readonly<{
  name: string;
  loanAmountUpTo: readonly number[];
  lvrAbove: readonly number[];
  lvrUpTo: readonly number[];
  premiumRate: readonly (readonly number[])[];
}>;

export type CatalogueProduct = Readonly<{
  definition: ProductDefinition;
  lender: Ref;
  product: Ref;
  lenderUrl: string;
  commission: CommissionTerms | null;
  serviceability: ServiceabilityPolicy;
  /** `prices[variant * 6 + band rank]` (null: declined). Home variants: 1 interest only, 2 investment, 3 both. */
  prices: readonly (BandPrice | null)[];
  /** The loan the comparison rates are quoted on: the regulation's, within the product's limits. */
  benchmark: BenchmarkLoan;
  /** The benchmark in words, e.g. "a $30,000 unsecured loan over 5 years". */
  comparisonRateExample: string;
  comparisonRateWarning: string;
  /** Home loans lending above their LMI threshold: the premiums' table, and the example with each row's premium. */
  lmiTable?: LmiTable;
  lmiExamples: readonly string[];
}>;

export type Catalogue = Readonly<{
  nearMiss: NearMissPolicy;
  lenders: readonly LenderDefinition[];
  products: readonly CatalogueProduct[];
  productsByType: Readonly<Record<schemas.FormType, readonly CatalogueProduct[]>>;
}>;
