/**
 * The `data` of each successful answer, with the contract's field names (README, CONTRACT.md).
 * `test/response-types.typecheck.ts` checks at compile time (in `pnpm typecheck`) that each has exactly the fields of the
 * service's own view type.
 */
import type { FormType, RepaymentType, WebhookEventType } from './requests';

export type ApplicationStatus = 'draft' | 'in_progress' | 'credit_checked' | 'matched' | 'referred';

/** 4.1 */
export interface CreatedApplication {
  applicationId: string;
  formType: FormType;
  status: ApplicationStatus;
  lastStep: number;
}

/** 4.2 and 4.5: never step 5, never a score. */
export interface Application {
  applicationId: string;
  formType: FormType;
  status: ApplicationStatus;
  lastStep: number;
  /** Steps 1-4 as saved (normalised: numbers, defaults), keyed `"1"` to `"4"`. */
  steps: Record<string, Record<string, unknown>>;
  creditCheckComplete: boolean;
  creditCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** 4.3 */
export interface CreditCheckResult {
  applicationId: string;
  creditCheckComplete: boolean;
  /** True when the bureau was unavailable and matching will use the applicant's own estimate. */
  degraded_mode: boolean;
  sandbox_mode: boolean;
}

export interface Ref {
  id: string;
  name: string;
}

export interface OfferDetails {
  /** Percent a year. */
  interestRate: number;
  comparisonRate: number;
  comparisonRateWarning: string;
  comparisonRateExample: string;
  loanAmount: number;
  loanTermMonths: number;
  monthlyRepayment: number;
  establishmentFee: number;
  monthlyFee: number;
  /** Car. */
  balloonAmount?: number;
  /** Home. */
  repaymentType?: RepaymentType;
  interestOnlyMonths?: number;
  /** The rate after the interest-only period (its loading applies during the period only). */
  interestRateAfterInterestOnly?: number;
  repaymentAfterInterestOnly?: number;
  lvr?: number;
  lendersMortgageInsurance?: boolean;
  /** The estimated LMI premium (0 without), and what is repaid: the loan plus a capitalised premium. */
  lmiPremium?: number;
  amountFinanced?: number;
}

/** `pre_qualified`: every rule of the product was assessed; `indicative`: some await data the lender will check (`conditions`). */
export type OfferCertainty = 'pre_qualified' | 'indicative';

export interface Offer {
  offerId: string;
  lender: Ref;
  product: Ref;
  headline: string;
  certainty: OfferCertainty;
  offerDetails: OfferDetails;
  /** What the lender will need to see; empty for a pre-qualified offer. */
  conditions: { field: string; requirement: string }[];
  /** Only when the application gave no loan term: the term this offer assumed (also `offerDetails.loanTermMonths`). */
  assumedLoanTermMonths?: number;
  expiresAt: string;
  /** Where the applicant's browser goes; about two hours. */
  trackingUrl: string;
}

export interface NearMissOffer {
  lender: Ref;
  product: Ref;
  headline: string;
  /** `actual`: the applicant's value with its unit (`$54,000`, `6 years`, `85%`); credit: `not met`. */
  reasons: { field: string; rule: string; actual: string }[];
  wouldQualifyIf: { field: string; requirement: string }[];
}

/** 4.4 */
export interface MatchResult {
  applicationId: string;
  matchId: string;
  generatedAt: string;
  degraded_mode: boolean;
  assessment: { basis: 'bureau' | 'self_estimate'; notice?: string };
  acceptedOffers: Offer[];
  nearMissOffers: NearMissOffer[];
}

/** What a lender reported of a referral: the latest status by when it occurred. */
export type OutcomeStatus = 'application_started' | 'approved' | 'declined' | 'funded' | 'withdrawn' | 'cancelled';

export interface Referral {
  referralId: string;
  applicationId: string;
  offerId: string;
  lender: Ref;
  product: Ref;
  referredAt: string;
  /** Your `clientTags` of the application; `{}` when none. */
  clientTags: Record<string, string>;
  /** Null until the lender reports; `updatedAt` is when the event that set the status occurred. `fundedAmount` in AUD. */
  outcome: { status: OutcomeStatus; updatedAt: string; fundedAmount: number | null } | null;
  /** Null until a loan is funded; 0 once a cancellation within the clawback period reversed it. */
  commission: { amount: number; currency: 'AUD' } | null;
}

/** `GET /referrals`: newest first; pass `nextCursor` back for the next page (null: the last page). */
export interface ReferralPage {
  referrals: Referral[];
  nextCursor: string | null;
}

/** `GET /consents` (both contracts): the consent wording by version, newest first. */
export interface ConsentTexts {
  /** The wording to show now; send the version shown as `consentTextVersion`. */
  currentVersion: string;
  versions: Array<{
    version: string;
    effectiveFrom: string;
    current: boolean;
    consents: Array<{ consent: 'creditCheck' | 'privacy' | 'marketing' | 'terms'; fields: string[]; text: string }>;
  }>;
}

/** One row of `GET /reports/referrals`: referrals made in the window, and what became of them. Amounts in AUD. */
export interface ReferralReportRow {
  /** The day (`YYYY-MM-DD`, UTC), lender id, product id or tag value; null for referrals without the tag. */
  group: string | null;
  referrals: number;
  started: number;
  approved: number;
  declined: number;
  /** Funded loans that stand (not cancelled within the clawback period). */
  funded: number;
  fundedAmount: number;
  commission: number;
}

export interface ReferralReport {
  rows: ReferralReportRow[];
}

/** `POST /api/lender/v1/outcomes`: `status` is the referral's outcome with this event counted. */
export interface OutcomeRecorded {
  outcomeId: string;
  referralId: string;
  status: OutcomeStatus;
}

// Variant B ----------------------------------------------------------------------------------------

/** `POST /v1/auth/token` */
export interface AccessTokenGrant {
  accessToken: string;
  tokenType: 'Bearer';
  /** Seconds. */
  expiresIn: number;
}

/** `POST /v1/applications`: the security token is shown this once; keep it. */
export interface CreatedApplicationB {
  applicationId: string;
  securityToken: string;
}

/** `PATCH /v1/applications/{id}`: where the application stands. */
export interface UpdatedApplicationB {
  applicationId: string;
  status: ApplicationStatus;
  lastStep: number;
  creditCheckComplete: boolean;
  /** Required fields of steps 2-4 not given yet; while any is, offers are `indicative`. */
  missingFields: string[];
}

// Webhooks -----------------------------------------------------------------------------------------

export interface Webhook {
  webhookId: string;
  url: string;
  events: WebhookEventType[];
  status: 'active' | 'disabled';
  disabledReason: string | null;
  disabledAt: string | null;
  failingSince: string | null;
  lastSuccessAt: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

export interface RegisteredWebhook extends Webhook {
  /** `whsec_…`, shown this once. */
  secret: string;
}

export interface WebhookList {
  webhooks: Webhook[];
}

export interface DeletedWebhook {
  webhookId: string;
  deleted: true;
}

export interface RotatedSecret {
  webhookId: string;
  secret: string;
  previousSecretExpiresAt: string;
}

export interface TestEvent {
  webhookId: string;
  eventId: string;
  type: string;
}

export interface DeliveryAttempt {
  eventId: string;
  eventType: string;
  attempt: number;
  attemptedAt: string;
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  nextRetryAt: string | null;
}

export interface DeliveryLog {
  webhookId: string;
  pending: number;
  deliveries: DeliveryAttempt[];
}
