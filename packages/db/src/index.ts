export {
  JOB_QUERY_TIMEOUT_MS,
  openDatabase,
  type Database,
  type DatabaseHandle,
  type DatabaseOptions,
  type PoolStats,
  type Sql,
  type Transactional,
} from './connect';
export { DataDirLockedError, LOCK_FILE } from './data-dir-lock';
export { PRISMA_DIR, applyMigrations } from './migrate';
export { createRepositories, type Repositories } from './repositories';
export type { Json } from './repositories/types';
export type { PartnerRow, ApiKeyRow, KeyOwner } from './repositories/partners';
export * from './repositories/applications';
export * from './repositories/credit-checks';
export * from './repositories/idempotency';
export type { TierRow } from './repositories/tiers';
export type { StoredCatalogue, CatalogueDocumentParts } from './repositories/catalogue';
export type { ReferralRow } from './repositories/matches';
export * from './repositories/applicants';
export {
  insertEvent,
  type WebhookRow,
  type ClaimedDelivery,
  type AttemptRow,
  type DeliveryState,
  type WebhookStatus,
} from './repositories/webhooks';
export * from './repositories/consents';
export * from './repositories/sealed-fields';
export type { LenderKeyRow, LenderKeyOwner } from './repositories/lender-keys';
export type { StoredOutcomeEvent, ReferralForOutcome, OutcomeSummaryRow } from './repositories/outcomes';
export type { ReportGrouping, ReportRow, FunnelCounts, PartnerFunnel } from './repositories/reports';
