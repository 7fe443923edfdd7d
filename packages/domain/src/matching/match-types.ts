/** Types of matching: what it reads of an application, and the offers and near-misses it answers. */
import type { CommissionTerms } from '../outcomes/commission';
import type { FormType, Ref, RepaymentType, ScoreBand } from './types';

export type MatchInput = Readonly<{
  formType: FormType;
  /** Step data as stored (numeric strings tolerated); a thin one's offers are indicative. */
  steps: Readonly<Record<1 | 2 | 3 | 4, Readonly<Record<string, unknown>> | undefined>>;
  /** The soft check's result: a band, or `null` when the bureau was unavailable. */
  credit: Readonly<{ band: ScoreBand | null; degradedMode: boolean }>;
  /** The applicant's own estimate (personal step 2 `creditScoreEstimate`; read from there when absent here). */
  creditScoreEstimate?: string;
  /** The year vehicle ages are measured against (passed in so matching needs no clock). */
  referenceYear: number;
}>;

/** Which band matching used, and why (`estimate`: what the applicant said, `unknown` when nothing). */
export type CreditAssessment =
  | Readonly<{ basis: 'bureau'; band: ScoreBand }>
  | Readonly<{ basis: 'self_estimate'; band: ScoreBand; estimate: string; notice: string }>;

export type OfferDetails = Readonly<{
  interestRate: number;
  comparisonRate: number;
  comparisonRateWarning: string;
  /** The benchmark loan the comparison rate is true for, in words. */
  comparisonRateExample: string;
  loanAmount: number;
  loanTermMonths: number;
  /** The loan's own repayment (interest and principal), without the monthly fee. */
  monthlyRepayment: number;
  establishmentFee: number;
  monthlyFee: number;
  // Car: the balloon due at the end. Home: the repayment type, the interest-only period with the rate and
  // repayment after it, the LVR (percent), whether LMI applies, its premium, the loan plus a capitalised premium.
  balloonAmount?: number;
  repaymentType?: RepaymentType;
  interestOnlyMonths?: number;
  interestRateAfterInterestOnly?: number;
  repaymentAfterInterestOnly?: number;
  lvr?: number;
  lendersMortgageInsurance?: boolean;
  lmiPremium?: number;
  amountFinanced?: number;
}>;

/**
 * How certain an accepted offer is: `pre_qualified` when every rule of the product was assessed on the
 * application's data and the credit result; `indicative` when some could not be (the data was not given).
 */
export type OfferCertainty = 'pre_qualified' | 'indicative';

/** A field to give or change (an input field, or `creditScore` / `timeInJob`), and what it must be. */
export type Requirement = Readonly<{ field: string; requirement: string }>;

export type AcceptedOffer = Readonly<{
  lender: Ref;
  product: Ref;
  headline: string;
  certainty: OfferCertainty;
  offerDetails: OfferDetails;
  /** What the lender will need to see before an indicative offer holds; empty for a pre-qualified one. */
  conditions: readonly Requirement[];
  /** The term the offer is priced over when the application gave none (`offerDetails.loanTermMonths` too). */
  assumedLoanTermMonths?: number;
  /** The lender's address, and what a referral earns (the product's commission): kept by the caller, never shown. */
  lenderUrl: string;
  commission: CommissionTerms | null;
}>;

export type NearMissOffer = Readonly<{
  lender: Ref;
  product: Ref;
  headline: string;
  /**
   * Each missed rule: the assessed quantity (an input field, or `creditScore`, `timeInJob`, `lvr`,
   * `vehicleAge`, `serviceability`), the rule in words, and the applicant's value with its unit.
   */
  reasons: readonly Readonly<{ field: string; rule: string; actual: string }>[];
  wouldQualifyIf: readonly Requirement[];
}>;

export type MissingField = Readonly<{ step: 1 | 2 | 3 | 4; field: string }>;

export type MatchResult =
  | Readonly<{
      outcome: 'assessed';
      assessment: CreditAssessment;
      acceptedOffers: readonly AcceptedOffer[];
      nearMissOffers: readonly NearMissOffer[];
    }>
  | Readonly<{
      /** A field matching needs is missing or unreadable: nothing was assessed. */
      outcome: 'incomplete_application';
      assessment: CreditAssessment;
      missing: readonly MissingField[];
      acceptedOffers: readonly [];
      nearMissOffers: readonly [];
    }>;
