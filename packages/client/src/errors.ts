/**
 * What a call that did not succeed throws. Branch on `code` (stable strings), not on the message;
 * quote `requestId` to LoanMatch support. Neither error ever holds the API key, an access token or
 * the request body.
 */
import type { ServiceErrorCode } from '@loanmatch/domain';

/**
 * Codes the service answers with (the service's list, `@loanmatch/domain`; README "Walk-through"),
 * and the client's own; new ones may appear, so `code` stays a string.
 */
export type KnownErrorCode =
  | ServiceErrorCode
  /** Set by this client: the answer was not the contract's JSON envelope (a proxy's error page, say). */
  | 'UNEXPECTED_RESPONSE';

// `string & {}` keeps editor completion for the known codes while accepting any other.
export type ApiErrorCode = KnownErrorCode | (string & {});

/** One violated rule of a `VALIDATION_ERROR`: `message` reads `<field>: <rule text>`. */
export interface FieldViolation {
  field: string;
  rule: string;
  message: string;
}

/** The service answered, and not with success. */
export class LoanMatchApiError extends Error {
  override readonly name = 'LoanMatchApiError';
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly details?: FieldViolation[];
  /** `X-Request-Id` of the last attempt. */
  readonly requestId?: string;
  /** Seconds from `Retry-After` (429, 503), when the service sent it. */
  readonly retryAfter?: number;
  /** The `Idempotency-Key` the request carried: after a 5xx or `IDEMPOTENCY_KEY_UNRESOLVED`, check the application before a new key. */
  readonly idempotencyKey?: string;
  /** How many times the request was sent, this client's own retries included. */
  readonly attempts: number;

  constructor(fields: {
    status: number;
    code: ApiErrorCode;
    message: string;
    details?: FieldViolation[];
    requestId?: string;
    retryAfter?: number;
    idempotencyKey?: string;
    attempts: number;
  }) {
    super(fields.message);
    this.status = fields.status;
    this.code = fields.code;
    this.details = fields.details;
    this.requestId = fields.requestId;
    this.retryAfter = fields.retryAfter;
    this.idempotencyKey = fields.idempotencyKey;
    this.attempts = fields.attempts;
  }
}

/**
 * No answer came: the connection failed or the attempt timed out. Whether the service acted on the
 * request is unknown; a request with an `Idempotency-Key` can be sent again under the same key.
 */
export class LoanMatchConnectionError extends Error {
  override readonly name = 'LoanMatchConnectionError';
  readonly timedOut: boolean;
  readonly idempotencyKey?: string;
  readonly attempts: number;

  constructor(fields: {
    message: string;
    cause: unknown;
    timedOut: boolean;
    idempotencyKey?: string;
    attempts: number;
  }) {
    super(fields.message, { cause: fields.cause });
    this.timedOut = fields.timedOut;
    this.idempotencyKey = fields.idempotencyKey;
    this.attempts = fields.attempts;
  }
}
