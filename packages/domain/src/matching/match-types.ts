/**
 * Types of matching: what it reads of an application, and the offers and near-misses it answers.
 */
import type { FormType, Ref, RepaymentType, ScoreBand } from './types';

export interface MatchInput {
  readonly formType: FormType;
  /**
   * Normalised step data as stored (numbers as numbers; numeric strings are tolerated). A step may be
   * partly known (a Variant B application's fields given so far): the loan term, employment, income and
   * living situation may be missing, and the offers are then indicative.
   */
  readonly steps: Readonly<Record<1 | 2 | 3 | 4, Readonly<Record<string, unknown>> | undefined>>;
  /** The soft check's result: a band, or `null` when the bureau was unavailable. */
  readonly credit: { readonly band: ScoreBand | null; readonly degradedMode: boolean };
  /** The applicant's own estimate (personal step 2 `creditScoreEstimate`; read from there when absent here). */
  readonly creditScoreEstimate?: string;
  /** The year vehicle ages are measured against (passed in so matching needs no clock). */
  readonly referenceYear: number;
}

/** Which band matching used, and why. */
export type CreditAssessment =
  | { readonly basis: 'bureau'; readonly band: ScoreBand }
  | {
      readonly basis: 'self_estimate';
      readonly band: ScoreBand;
      /** What the applicant said (`unknown` when nothing was said). */
      readonly estimate: string;
      readonly notice: string;
    };

export interface OfferDetails {
  readonly interestRate: number;
  readonly comparisonRate: number;
  readonly comparisonRateWarning: string;
  /** The benchmark loan the comparison rate is true for, in words. */
  readonly comparisonRateExample: string;
  readonly loanAmount: number;
  readonly loanTermMonths: number;
  /** The loan's own repayment (interest and principal), without the monthly fee. */
  readonly monthlyRepayment: number;
  readonly establishmentFee: number;
  readonly monthlyFee: number;
  /** Car: the amount due at the end of the term. */
  readonly balloonAmount?: number;
  /** Home, interest only: the interest-only period, the rate and the repayment after it. */
  readonly repaymentType?: RepaymentType;
  readonly interestOnlyMonths?: number;
  readonly interestRateAfterInterestOnly?: number;
  readonly repaymentAfterInterestOnly?: number;
  /** Home: loan-to-value ratio in percent and whether lenders mortgage insurance applies. */
  readonly lvr?: number;
  readonly lendersMortgageInsurance?: boolean;
  /** Home: the estimated LMI premium (0 without LMI), and the amount repaid: the loan plus a capitalised premium. */
  readonly lmiPremium?: number;
  readonly amountFinanced?: number;
}

/**
 * How certain an accepted offer is: `pre_qualified` when every rule of the product was assessed on the
 * application's data and the credit result; `indicative` when some could not be (the data was not given).
 */
export type OfferCertainty = 'pre_qualified' | 'indicative';
export const OFFER_CERTAINTIES: readonly OfferCertainty[] = Object.freeze(['pre_qualified', 'indicative'] as const);

/** What the lender will need to see before an indicative offer holds, in the near-miss form. */
export interface OfferCondition {
  /** The field still to be given: an input field, or `timeInJob`. */
  readonly field: string;
  readonly requirement: string;
}

export interface AcceptedOffer {
  readonly lender: Ref;
  readonly product: Ref;
  readonly headline: string;
  readonly certainty: OfferCertainty;
  readonly offerDetails: OfferDetails;
  /** Empty for a pre-qualified offer. */
  readonly conditions: readonly OfferCondition[];
  /** The term the offer is priced over when the application gave none (`offerDetails.loanTermMonths` too). */
  readonly assumedLoanTermMonths?: number;
  /** The lender's address; the caller turns it into a tracking URL. */
  readonly lenderUrl: string;
}

export interface NearMissReason {
  /** The assessed quantity: an input field, or `creditScore`, `timeInJob`, `lvr`, `vehicleAge`, `serviceability`. */
  readonly field: string;
  /** The product's rule, in words. */
  readonly rule: string;
  /** The applicant's value with its unit (`$54,000`, `6 years`, `85%`, `-$79.11/month`); credit: `not met`. */
  readonly actual: string;
}

export interface NearMissRequirement {
  /** The field to change: an input field, or `creditScore` / `timeInJob`. */
  readonly field: string;
  readonly requirement: string;
}

export interface NearMissOffer {
  readonly lender: Ref;
  readonly product: Ref;
  readonly headline: string;
  readonly reasons: readonly NearMissReason[];
  readonly wouldQualifyIf: readonly NearMissRequirement[];
}

export interface MissingField {
  readonly step: 1 | 2 | 3 | 4;
  readonly field: string;
}

export type MatchResult =
  | {
      readonly outcome: 'assessed';
      readonly assessment: CreditAssessment;
      readonly acceptedOffers: readonly AcceptedOffer[];
      readonly nearMissOffers: readonly NearMissOffer[];
    }
  | {
      /** A field matching needs is missing or unreadable: nothing was assessed. */
      readonly outcome: 'incomplete_application';
      readonly assessment: CreditAssessment;
      readonly missing: readonly MissingField[];
      readonly acceptedOffers: readonly [];
      readonly nearMissOffers: readonly [];
    };
