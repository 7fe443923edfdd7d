export * from './errors';
export { ERROR_CODES, type DomainErrorCode, type ErrorCodeEntry, type ServiceErrorCode } from './error-codes';
export * from './context';
export * from './keys';
export * from './partners';
export * from './applications/view';
export * from './applications/create-application';
export * from './applications/save-step';
export * from './applications/credit-check';
export * from './applications/run-credit-check';
export * from './idempotency';
export { createInstanceRegistry } from './instances';
export {
  SANDBOX_SCORE_RANGE,
  SANDBOX_SCORE_WORDS,
  createSandboxBureau,
  createUnconfiguredBureau,
  parseSandboxScore,
} from './credit/sandbox';
export { SCORE_BANDS } from './credit/bureau';
export type { CreditBureau, BureauAnswer, BureauRequest } from './credit/bureau';
export * from './validation';
export * from './variant-b/tokens';
export * from './variant-b/security-token';
export * from './variant-b/create-application';
export * from './variant-b/update-application';
export * from './variant-b/run-credit-check';
export * from './variant-b/match-application';
export { readIntake, type Intake } from './variant-b/intake';
export * from './tiers';
export * from './contracts';
export * from './contract-snapshot';
export * from './sealing';
export * from './personal-data';
export * from './sealed-fields';
export * from './consents';
export * from './offers';
export * from './referrals';
export * from './catalogue-store';
export { STATUS_ORDER, type ApplicationStatus } from './status';
export { TRACKING_TOKEN_SCHEMA } from './tracking';
export * as matching from './matching';
export * from './webhooks';
export * from './webhook-delivery';
export * from './leads';
export * from './outcomes/lender-keys';
export * from './outcomes/record-outcome';
export {
  OUTCOME_TYPES,
  DECLINE_REASONS,
  ALLOWED_NEXT,
  type OutcomeType,
  type DeclineReason,
} from './outcomes/lifecycle';
export type { CommissionDefinition, CommissionTerms } from './outcomes/commission';
export * from './outcomes/referral-reports';
export * from './outcomes/funnel';
export * from './outcomes/simulate';
