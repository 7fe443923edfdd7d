/** Types of the lender catalogue: the file as written (`catalogue/catalogue.v1.json`) and as loaded. */
import type { CommissionTerms } from '../outcomes/commission';
import type * as schemas from '../validation/schemas';
import type { BenchmarkLoan } from './benchmarks';
import type { LenderDefinition, NearMissPolicy, ProductDefinition, ServiceabilityPolicy } from './catalogue-schema';

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

export type { BenchmarkLoan, ComparisonRateBenchmark } from './benchmarks';
export {
  BANDS_BEST_FIRST,
  CAR_PURPOSES,
  type BandRate,
  type CarProductDefinition,
  type CatalogueFile,
  type HomeProductDefinition,
  type LenderDefinition,
  type LmiTableDefinition,
  type NearMissPolicy,
  type PersonalProductDefinition,
  type ProductDefinition,
  type ServiceabilityPolicy,
} from './catalogue-schema';

export type EmploymentType = (typeof schemas.EMPLOYMENT_TYPES)[number];
export type OccupancyType = (typeof schemas.OCCUPANCY_TYPES)[number];
export type RepaymentType = (typeof schemas.REPAYMENT_TYPES)[number];

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
