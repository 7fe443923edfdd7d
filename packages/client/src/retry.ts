/**
 * When this client sends a request again by itself, and how long it waits first (docs/adr/0087).
 * Pure functions, so the rules can be read and tested apart from HTTP.
 */

export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns every retry off. */
  readonly retries: number;
  /** The first backoff; each later one doubles, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown with its `retryAfter`. */
  readonly maxRetryAfterMs: number;
  /** [0, 1); `Math.random` unless a test pins it. */
  readonly random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
});

/** What a failed attempt came to, as far as retrying is concerned. */
export type AttemptFailure =
  | { kind: 'response'; status: number; code: string; retryAfterMs?: number }
  | { kind: 'connection' };

/** 5xx answers worth another try; 501 and 505 will not change. */
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

/**
 * Whether a failure may be retried. `repeatable` says the request can be sent twice without harm: a
 * GET, a DELETE, a step saved again (it replaces itself), a match or a token exchange, or a POST that
 * carries an `Idempotency-Key` (the service answers the second from the first).
 * - 429 and `IDEMPOTENCY_IN_PROGRESS`: the service did not act on this attempt; any request.
 * - 5xx and connection failures: the service may have acted; only repeatable requests.
 * - Never `IDEMPOTENCY_KEY_UNRESOLVED`: the first request's outcome is unknown and the key is spent;
 *   the caller must look at the application before trying again with a new key (spec section 7).
 */
export function isRetryable(failure: AttemptFailure, repeatable: boolean): boolean {
  if (failure.kind === 'connection') return repeatable;
  if (failure.status === 429) return true;
  if (failure.status === 409) return failure.code === 'IDEMPOTENCY_IN_PROGRESS';
  return repeatable && TRANSIENT_STATUSES.has(failure.status);
}

/**
 * The wait before retry number `retry` (1-based), or undefined when the request must not be retried.
 * Backoff is exponential with equal jitter (half fixed, half random), so retries of many clients
 * spread out but never collapse to zero. A `Retry-After` is waited for exactly, if within bounds.
 */
export function retryDelay(
  policy: RetryPolicy,
  failure: AttemptFailure,
  repeatable: boolean,
  retry: number,
): number | undefined {
  if (retry > policy.retries || !isRetryable(failure, repeatable)) return undefined;
  if (failure.kind === 'response' && failure.retryAfterMs !== undefined) {
    return failure.retryAfterMs <= policy.maxRetryAfterMs ? failure.retryAfterMs : undefined;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * policy.random());
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 section 10.2.3); undefined if absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
