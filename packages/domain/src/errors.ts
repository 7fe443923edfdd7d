/**
 * The one error type of the domain. Front-ends branch on `code` (a documented, stable union) and map
 * it to an HTTP status in their own table; the domain knows nothing of HTTP. The codes are the rows of
 * the one list (`error-codes.ts`) marked as raised by the domain: only their names are read here.
 */
import type { DomainErrorCode } from './error-codes';

export type ErrorCode = DomainErrorCode;

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
export const fail = (
  code: ErrorCode,
  message: string,
  details?: FieldViolation[],
): { ok: false; error: DomainError } => ({
  ok: false,
  error: new DomainError(code, message, details),
});
