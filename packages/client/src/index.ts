/** `@loanmatch/client`: typed clients of LoanMatch's partner API (Variants A and B) and lender API; see README.md. */
export { LoanMatchClientA, type ClientAOptions } from './variant-a';
export { LoanMatchClientB, type ClientBOptions } from './variant-b';
export { LoanMatchLenderClient, type LenderClientOptions } from './lender';
export { verifyWebhook, type ReportsApi, type WebhooksApi } from './partner';
export * from './errors';
export type { ResponseInfo, TransportOptions } from './transport';
export type * from './types';
