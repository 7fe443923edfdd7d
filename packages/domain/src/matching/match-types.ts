/** Types of matching: what it reads of an application, and the offers and near-misses it answers. */
import type { CommissionTerms } from '../outcomes/commission';
import type { Answer } from '../validation/responses';
import type { ScoreBand } from '../credit/bureau';
import type { FormType } from '../validation/schemas';

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

/** A field to give or change (an input field, or `creditScore` / `timeInJob`), and what it must be. */
export type Requirement = Answer<'Offer'>['conditions'][number];

/** An offer as the answer shows it, less what the caller adds (id, expiry, tracking link), with what the caller keeps:
 * the lender's address and what a referral earns (the product's commission), never shown. */
export type AcceptedOffer = Omit<Answer<'Offer'>, 'offerId' | 'expiresAt' | 'trackingUrl'> &
  Readonly<{ lenderUrl: string; commission: CommissionTerms | null }>;

export type NearMissOffer = Answer<'NearMissOffer'>;

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
