export {
  JOB_QUERY_TIMEOUT_MS,
  openDatabase,
  type Database,
  type DatabaseHandle,
  type DatabaseOptions,
  type PoolStats,
} from './connect';
export { DataDirLockedError, LOCK_FILE } from './data-dir-lock';
export { PRISMA_DIR, applyMigrations } from './migrate';
export { createRepositories, type Repositories } from './repositories';
export type { Json } from './repositories/types';
export type { PartnerRow, ApiKeyRow, KeyOwner } from './repositories/partners';
export type {
  ApplicationRow,
  StepNumber,
  SealedStepNumber,
  CreditCheckSummary,
} from './repositories/application-row';
export type { IdempotencyRow, IdempotencyState, KeyCompletion } from './repositories/idempotency';
export type { CheckCompletion } from './repositories/credit-checks';
export type { TierRow } from './repositories/tiers';
export type { StoredCatalogue, CatalogueDocumentParts } from './repositories/catalogue';
export type { ReferralRow } from './repositories/matches';
export type { SealedDetails, ApplicantRecord } from './repositories/applicants';
export type { CompletedKey, ChangeOutcome } from './repositories/status-changes';
export type { OutboxEvent } from './repositories/outbox';
export type { WebhookRow, ClaimedDelivery, AttemptRow, DeliveryState, WebhookStatus } from './repositories/webhooks';
export type { ConsentRecordRow, NewConsentRecord } from './repositories/consents';
export { SEALED_COLUMNS, type SealedColumn, type ClearSteps } from './repositories/sealed-fields';
export type { LenderKeyRow, LenderKeyOwner } from './repositories/lender-keys';
export type { StoredOutcomeEvent, ReferralForOutcome, OutcomeSummaryRow } from './repositories/outcomes';
export type { ReportGrouping, ReportRow, FunnelCounts, PartnerFunnel } from './repositories/reports';
