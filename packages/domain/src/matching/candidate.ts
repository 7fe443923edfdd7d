/**
 * The assessment's vocabulary: the rules a product can be missed on, a miss in numbers, a product that
 * passed or nearly passed (a candidate), and what every product's assessment of one application shares.
 */
import type { Applicant } from './applicant';
import type { CatalogueProduct, LmiTable, NearMissMargins } from './types';

export type RuleId =
  | 'creditBand'
  | 'maxLoanAmount'
  | 'minLoanAmount'
  | 'maxLoanTerm'
  | 'minLoanTerm'
  | 'minIncome'
  | 'timeInJob'
  | 'vehicleAge'
  | 'balloonPercent'
  | 'balloonTerm'
  | 'lvr'
  | 'vehicleLvr'
  | 'serviceability';

/** One missed rule, in numbers; the words are written only for the near-misses returned. */
export interface Miss {
  readonly rule: RuleId;
  /** How much of the margin the miss uses, in (0, 1]. */
  readonly distance: number;
  /** The product's bound (serviceability: the amount assessed, i.e. asked for or capped by another rule). */
  readonly bound: number;
  /** The value that would pass (serviceability: the largest loan the income services). */
  readonly needed: number;
  /** The applicant's value (serviceability: the monthly surplus, negative). */
  readonly actual: number;
  /** Serviceability: the gross monthly income that would service the amount assessed. */
  readonly alternative?: number;
}

/** A product that passed (no misses) or nearly passed, by its row in the loan type's table. */
export interface Candidate {
  /** Row in the table (and in `catalogue.productsByType`). */
  readonly row: number;
  /** Index of the price in the table's price columns (row × slots + slot). */
  readonly priceIndex: number;
  /** The slot within the product's `prices`. */
  readonly slot: number;
  /** The product's place in the catalogue's ranking at this price (see `BandPrice.position`). */
  readonly position: number;
  /** On the benchmark loan; with LMI, with the premium of the applicant's LVR (`BandPrice.lmiComparisonRates`). */
  readonly comparisonRate: number;
  readonly productId: string;
  /** The loan's repayment and, for interest only, the repayment after the period: both rounded to cents. */
  readonly repayment: number;
  readonly afterInterestOnly: number;
  readonly interestOnlyMonths: number;
  /** Percent, 2 decimals. */
  readonly lvr: number;
  /** Home: the LMI premium in dollars (0 without LMI), the row of the product's table it came from (-1 without). */
  readonly lmiPremium: number;
  readonly lmiRow: number;
  /** What is repaid: the amount plus a capitalised premium, to cents. */
  readonly amountFinanced: number;
  readonly misses: Miss[] | null;
  readonly closeness: number;
  /** The term assessed: the one asked for, brought within the product's limits, or assumed. */
  readonly termMonths: number;
  /** The repayment at the rate plus the serviceability buffer, on the amount assessed. */
  readonly buffered: number;
  /** A rule needed what the application does not tell: an accepted offer is indicative. */
  readonly indicative: boolean;
}

/** Per application: what every product's assessment shares. */
export interface Context {
  readonly a: Applicant;
  readonly products: readonly CatalogueProduct[];
  readonly bandRank: number;
  /** Index into a product's `prices`: the price variant (home: bit 0 interest only, bit 1 investment) × 6 + band rank. */
  readonly priceSlot: number;
  readonly margins: NearMissMargins;
  readonly maxMisses: number;
  readonly referenceYear: number;
  readonly replacesHousing: boolean;
  readonly isCar: boolean;
  readonly isHome: boolean;
  /** Car: the balloon asked for, in dollars (2 decimals). */
  readonly balloonAmount: number;
  /** Home: the catalogue's LMI tables, and for each the row and premium rate of the amount asked (-1 and `NaN` outside it). */
  readonly lmiTables: readonly LmiTable[];
  readonly lmiRowAsked: Int32Array;
  readonly lmiRateAsked: Float64Array;
}
