/** What a call that did not succeed throws; neither error holds the API key, a token or the request body. */
import type { components } from './generated/variant-a';

type ErrorBody = components['schemas']['Error'];
/** The documents' list of codes, and `UNEXPECTED_RESPONSE`: the answer was not the envelope (a proxy's page, say). */
export type KnownErrorCode = ErrorBody['error'] | 'UNEXPECTED_RESPONSE';
/** New codes may appear, so `code` stays a string; `string & {}` keeps completion for the known ones. */
export type ApiErrorCode = KnownErrorCode | (string & {});
/** One violated rule of a `VALIDATION_ERROR`: `message` reads `<field>: <rule text>`. */
export type FieldViolation = NonNullable<ErrorBody['details']>[number];

/** The service answered, and not with success. Branch on `code`, not on the message. */
export class LoanMatchApiError extends Error {
  override readonly name = 'LoanMatchApiError';
  declare readonly status: number;
  declare readonly code: ApiErrorCode;
  declare readonly details?: FieldViolation[];
  /** The last attempt's `X-Request-Id`: quote it to LoanMatch support. */
  declare readonly requestId?: string;
  /** Seconds from `Retry-After` (429, 503). */
  declare readonly retryAfter?: number;
  /** After a 5xx or `IDEMPOTENCY_KEY_UNRESOLVED`, check the application before trying a new key. */
  declare readonly idempotencyKey?: string;
  /** How many times the request was sent, this client's retries included. */
  declare readonly attempts: number;

  constructor(fields: Omit<LoanMatchApiError, 'name' | 'stack' | 'cause'>) {
    super(fields.message);
    Object.assign(this, fields);
  }
}

/** No answer came (the connection failed or timed out): whether the service acted is unknown; resend under the key. */
export class LoanMatchConnectionError extends Error {
  override readonly name = 'LoanMatchConnectionError';
  declare readonly timedOut: boolean;
  declare readonly idempotencyKey?: string;
  declare readonly attempts: number;

  constructor({ cause, ...fields }: Omit<LoanMatchConnectionError, 'name' | 'stack'>) {
    super(fields.message, { cause });
    Object.assign(this, fields);
  }
}
