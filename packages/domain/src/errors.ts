/**
 * The one error type of the domain. Front-ends branch on `code` (a documented, stable union) and map
 * it to an HTTP status in their own table; the domain knows nothing of HTTP.
 */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'STEP_OUT_OF_ORDER'
  | 'STEPS_INCOMPLETE'
  | 'CREDIT_CHECK_REQUIRED'
  | 'CREDIT_CHECK_ALREADY_COMPLETED'
  | 'CREDIT_CHECK_IN_PROGRESS'
  | 'IDEMPOTENCY_IN_PROGRESS'
  | 'IDEMPOTENCY_KEY_UNRESOLVED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'INVALID_SECURITY_TOKEN'
  | 'LINK_EXPIRED'
  | 'WEBHOOK_DISABLED'
  | 'WEBHOOK_LIMIT_REACHED'
  | 'PERSONAL_DATA_ERASED'
  | 'SERVICE_UNAVAILABLE';

/** One violated rule: `field` is the path (`homeAddressComponents.postcode`), `message` reads `<field>: <rule text>`. */
export interface FieldViolation {
  field: string;
  rule: string;
  message: string;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldViolation[],
  ) {
    super(message);
  }
}

/** Expected outcomes are values, not exceptions. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: DomainError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string, details?: FieldViolation[]): { ok: false; error: DomainError } => ({
  ok: false,
  error: new DomainError(code, message, details),
});
