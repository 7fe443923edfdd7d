/** `@loanmatch/client`: typed clients for LoanMatch's partner API, Variant A and Variant B. See README.md. */
export {
  LoanMatchClientA,
  type ClientAOptions,
  type CreditCheckOptions,
  type IdempotentCallOptions,
} from './variant-a';
export { LoanMatchClientB, type ClientBOptions } from './variant-b';
export { WebhooksApi } from './webhooks';
export { ReportsApi } from './reports';
export { LoanMatchLenderClient, type LenderClientOptions } from './lender';
export {
  LoanMatchApiError,
  LoanMatchConnectionError,
  type ApiErrorCode,
  type FieldViolation,
  type KnownErrorCode,
} from './errors';
export type { ResponseInfo, TransportOptions } from './transport';
export type * from './requests';
export type * from './responses';
