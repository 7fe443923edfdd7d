/** The one error type of the domain: `code` is a row of `error-codes.ts`, which also gives its HTTP status. */
import { ERROR_CODES, type DomainErrorCode } from './error-codes';

/** One violated rule: `field` is the path (`homeAddressComponents.postcode`), `message` reads `<field>: <rule text>`. */
export interface FieldViolation {
  field: string;
  rule: string;
  message: string;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: FieldViolation[],
  ) {
    super(message);
  }
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: DomainError };

/** What a use case answers when it succeeds: for callers that name a view the use case infers. */
export type Answered<F extends (...args: never[]) => Promise<Result<unknown>>> = Extract<
  Awaited<ReturnType<F>>,
  { ok: true }
>['value'];

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/** A refusal; without a message, the code's own text in `ERROR_CODES`. */
export const fail = (
  code: DomainErrorCode,
  message: string = ERROR_CODES[code].example,
  details?: FieldViolation[],
): { ok: false; error: DomainError } => ({
  ok: false,
  error: new DomainError(code, message, details),
});

export const violation = (field: string, rule: string, text: string): FieldViolation => ({
  field,
  rule,
  message: `${field}: ${text}`,
});

export const invalid = (...violations: FieldViolation[]) => fail('VALIDATION_ERROR', violations[0].message, violations);

export function objectBody(body: unknown): Result<Record<string, unknown>> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return ok(body as Record<string, unknown>);
  return invalid(violation('body', 'type', 'must be a JSON object'));
}
