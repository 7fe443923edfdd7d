/** Compile-time only, run by `pnpm typecheck`: each response type of the client has exactly the fields of the service's view type. */
import type {
  ApplicationStatus as DomainApplicationStatus,
  ApplicationView,
  AttemptView,
  CreatedApplication as DomainCreatedApplication,
  CreatedApplicationB as DomainCreatedApplicationB,
  UpdatedApplicationB as DomainUpdatedApplicationB,
  ConsentKind,
  ConsentTextsView,
  CreditCheckView,
  MatchView,
  OfferView,
  ReferralView,
  RegisteredWebhook as DomainRegisteredWebhook,
  WebhookView,
  matching,
  OutcomeRecorded as DomainOutcomeRecorded,
  ReferralReportRow as DomainReferralReportRow,
} from '@loanmatch/domain';
import type { AccessTokenGrant as DomainAccessTokenGrant, HttpErrorCode } from '@loanmatch/http';
import type {
  AccessTokenGrant,
  Application,
  ApplicationStatus,
  ConsentTexts,
  CreatedApplication,
  CreatedApplicationB,
  UpdatedApplicationB,
  CreditCheckResult,
  DeliveryAttempt,
  MatchResult,
  NearMissOffer,
  Offer,
  OfferDetails,
  Referral,
  RegisteredWebhook,
  Webhook,
  KnownErrorCode,
  OutcomeRecorded,
  ReferralReportRow,
} from '../src';
import type { Equal, SameKeys } from './type-helpers';

// A `false` among these fails `pnpm typecheck`.
type AllTrue<T extends true[]> = T;
// biome-ignore lint/correctness/noUnusedVariables: the type is the assertion; tsc evaluates it.
type ResponseFieldsMatch = AllTrue<
  [
    SameKeys<CreatedApplication, DomainCreatedApplication>,
    SameKeys<Application, ApplicationView>,
    SameKeys<CreditCheckResult, CreditCheckView>,
    SameKeys<MatchResult, MatchView>,
    SameKeys<Offer, OfferView>,
    SameKeys<OfferDetails, matching.OfferDetails>,
    SameKeys<NearMissOffer, matching.NearMissOffer>,
    SameKeys<Referral, ReferralView>,
    SameKeys<ReferralReportRow, DomainReferralReportRow>,
    SameKeys<OutcomeRecorded, DomainOutcomeRecorded>,
    SameKeys<Webhook, WebhookView>,
    SameKeys<RegisteredWebhook, DomainRegisteredWebhook>,
    SameKeys<DeliveryAttempt, AttemptView>,
    SameKeys<AccessTokenGrant, DomainAccessTokenGrant>,
    SameKeys<CreatedApplicationB, DomainCreatedApplicationB>,
    SameKeys<UpdatedApplicationB, DomainUpdatedApplicationB>,
    SameKeys<ConsentTexts, ConsentTextsView>,
    SameKeys<ConsentTexts['versions'][number], ConsentTextsView['versions'][number]>,
    Equal<ConsentTexts['versions'][number]['consents'][number]['consent'], ConsentKind>,
    Equal<ApplicationStatus, DomainApplicationStatus>,
    // Every code the service can send is a known code of the client (UNEXPECTED_RESPONSE is the client's own).
    Equal<Exclude<KnownErrorCode, 'UNEXPECTED_RESPONSE'>, HttpErrorCode>,
  ]
>;
