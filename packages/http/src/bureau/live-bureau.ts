/**
 * The live credit bureau client (`LOANMATCH_ENV=live`).
 *
 * Protocol (ours; also in README.md beside this file):
 *
 *   POST {BUREAU_URL}/v1/soft-enquiries
 *   Content-Type: application/json
 *   Accept: application/json
 *   { "reference": "<applicationId>", "firstName", "lastName", "dateOfBirth", "email",
 *     "mobileNumber", and when present: "unitNumber", "streetNumber", "streetName", "streetType",
 *     "suburb", "state", "postcode", "address", "homeAddress" }
 *
 *   200 { "score": <integer 0-1200> }     Equifax Australia scale; other fields are ignored
 *
 * Anything else is an outage and the check completes in degraded mode: `requestScore` never throws
 * for bureau trouble, it answers `{ available: false }`.
 *
 *   retried once (default)  network errors, timeouts (headers or body), 5xx, 429
 *   not retried             other 4xx, 3xx (redirects are never followed), other 2xx, a body that
 *                           is not JSON, has no score, or a score that is not a whole number
 *                           0-1200, a body over 64 KB
 *
 * Each attempt has its own timeout (`timeoutMs`, default 2000) covering the headers and the body.
 * Between attempts a jittered pause of 50-150 ms, taken from a 300 ms budget for the whole call, so
 * one call ends within `timeoutMs * (retries + 1) + 300` ms plus timer slack.
 *
 * A circuit breaker (see breaker.ts) counts failed calls, after their retries: after 5 in a row
 * (default) it answers `{ available: false, source: 'bureau-breaker-open' }` at once for 30 s, then
 * lets one trial call through, with a single attempt.
 *
 * Privacy: only the fields above leave, only in the request body. Reasons and events are fixed codes
 * (`timeout`, `http_503`, `network_error:ECONNREFUSED`, ...) and never carry applicant data or text
 * that came back from the bureau.
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BureauAnswer, BureauRequest, CreditBureau } from '@loanmatch/domain';
import { createCircuitBreaker, type Admission, type BreakerState } from './breaker';

export type BureauEventType = 'attempt_failed' | 'breaker_open' | 'breaker_closed' | 'unavailable';

export interface BureauEvent {
  type: BureauEventType;
  /** A fixed code or short sentence; never applicant data, never the bureau's own text. */
  reason: string;
}

export interface LiveBureauOptions {
  /** BUREAU_URL, e.g. http://127.0.0.1:4010 (a path prefix is kept). */
  url: string;
  /** Per attempt, headers and body together. Default 2000. */
  timeoutMs?: number;
  /** Further attempts after a retryable failure. Default 1 (at most 2 attempts). */
  retries?: number;
  /** Default: open after 5 consecutive failed calls, for 30 s; then one trial call. */
  breaker?: { failureThreshold?: number; openMs?: number };
  /** Milliseconds, for the breaker only. Default Date.now. */
  clock?: () => number;
  /** For logs and metrics. A listener that throws is ignored. */
  onEvent?: (event: BureauEvent) => void;
}

export type LiveBureau = CreditBureau & { breakerState(): BreakerState };

export const DEFAULT_TIMEOUT_MS = 2000;
export const DEFAULT_RETRIES = 1;
export const DEFAULT_FAILURE_THRESHOLD = 5;
export const DEFAULT_OPEN_MS = 30_000;
/** The most of a response body that is read. */
export const MAX_BODY_BYTES = 64 * 1024;
export const SOFT_ENQUIRY_PATH = '/v1/soft-enquiries';

const PAUSE_MIN_MS = 50;
const PAUSE_MAX_MS = 150;
/** All the pauses of one call together; keeps the total within the documented bound. */
const PAUSE_BUDGET_MS = 300;
const MAX_SCORE = 1200;

const SOURCE_OK = 'bureau';
const SOURCE_UNAVAILABLE = 'bureau-unavailable';
const SOURCE_BREAKER_OPEN = 'bureau-breaker-open';

/** The applicant fields the bureau receives; everything else (consents, gender, ...) stays home. */
const IDENTITY_FIELDS = ['firstName', 'lastName', 'dateOfBirth', 'email', 'mobileNumber'] as const;
const ADDRESS_FIELDS = [
  'unitNumber',
  'streetNumber',
  'streetName',
  'streetType',
  'suburb',
  'state',
  'postcode',
  'address',
  'homeAddress',
] as const;

type Attempt = { ok: true; score: number } | { ok: false; reason: string; retryable: boolean };

export function createLiveBureau(options: LiveBureauOptions): LiveBureau {
  const endpoint = endpointOf(options.url);
  const timeoutMs = positiveNumber(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const retries = wholeNumber(options.retries ?? DEFAULT_RETRIES, 'retries', 0);
  const failureThreshold = wholeNumber(
    options.breaker?.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD,
    'breaker.failureThreshold',
    1,
  );
  const openMs = wholeNumber(options.breaker?.openMs ?? DEFAULT_OPEN_MS, 'breaker.openMs', 0);
  const clock = options.clock ?? Date.now;

  const emit = (type: BureauEventType, reason: string) => {
    try {
      options.onEvent?.({ type, reason });
    } catch {
      // A faulty listener must not turn an outage into an exception.
    }
  };

  const breaker = createCircuitBreaker({
    failureThreshold,
    openMs,
    clock,
    events: { opened: (reason) => emit('breaker_open', reason), closed: (reason) => emit('breaker_closed', reason) },
  });

  /** One call: up to `attempts` attempts within a deadline; the last failure's reason if none worked. */
  async function call(body: string, attempts: number): Promise<Attempt> {
    const started = performance.now();
    const deadline = started + timeoutMs * attempts + PAUSE_BUDGET_MS;
    let pauseBudget = PAUSE_BUDGET_MS;
    let outcome: Attempt = { ok: false, reason: 'no_attempt', retryable: false };
    for (let n = 1; n <= attempts; n++) {
      const budget = Math.min(timeoutMs, Math.floor(deadline - performance.now()));
      if (budget <= 0) break;
      outcome = await attempt(endpoint, body, budget);
      if (outcome.ok) return outcome;
      emit('attempt_failed', outcome.reason);
      if (!outcome.retryable || n === attempts) break;
      const pause = Math.min(randomInt(PAUSE_MIN_MS, PAUSE_MAX_MS + 1), pauseBudget);
      pauseBudget -= pause;
      if (pause > 0) await sleep(pause);
    }
    return outcome;
  }

  return {
    sandbox: false,
    breakerState: () => breaker.state(),
    async requestScore(request: BureauRequest): Promise<BureauAnswer> {
      const admission: Admission = breaker.admit();
      if (admission === 'refuse') {
        emit('unavailable', 'breaker_open');
        return { available: false, source: SOURCE_BREAKER_OPEN };
      }
      let outcome: Attempt;
      try {
        const body = enquiryBody(request);
        // The half-open trial is one request, not one request and its retries.
        outcome =
          body === null
            ? { ok: false, reason: 'request_not_serialisable', retryable: false }
            : await call(body, admission === 'trial' ? 1 : retries + 1);
      } catch {
        // Not expected (attempt() catches its own); kept so no bureau trouble ever escapes.
        outcome = { ok: false, reason: 'unexpected_error', retryable: false };
      }
      breaker.record(admission, outcome.ok);
      if (outcome.ok) return { available: true, score: outcome.score, source: SOURCE_OK };
      emit('unavailable', outcome.reason);
      return { available: false, source: SOURCE_UNAVAILABLE };
    },
  };
}

/** The JSON body of a soft enquiry, or null if the applicant cannot be written as JSON. */
function enquiryBody({ applicationId, applicant }: BureauRequest): string | null {
  const body: Record<string, unknown> = { reference: applicationId };
  for (const field of [...IDENTITY_FIELDS, ...ADDRESS_FIELDS]) {
    const value = applicant[field];
    if (value !== undefined && value !== null) body[field] = value;
  }
  try {
    return JSON.stringify(body);
  } catch {
    return null;
  }
}

/** One HTTP request, with its own timeout over the headers and the body. Never throws. */
async function attempt(endpoint: string, body: string, timeoutMs: number): Promise<Attempt> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    return transportFailure(err);
  }

  const status = response.status;
  if (status !== 200) {
    discard(response);
    if (response.type === 'opaqueredirect' || (status >= 300 && status < 400))
      return failure(status ? `redirect_${status}` : 'redirect', false);
    return failure(`http_${status}`, status >= 500 || status === 429);
  }

  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    discard(response);
    return failure('body_too_large', false);
  }

  let bytes: Uint8Array | null;
  try {
    bytes = await readAtMost(response, MAX_BODY_BYTES);
  } catch (err) {
    return transportFailure(err);
  }
  if (bytes === null) return failure('body_too_large', false);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return failure('malformed_json', false);
  }
  return scoreOf(text);
}

function scoreOf(text: string): Attempt {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return failure('malformed_json', false);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.hasOwn(parsed, 'score')) {
    return failure('missing_score', false);
  }
  const score = (parsed as { score: unknown }).score;
  if (typeof score !== 'number' || !Number.isInteger(score) || score < 0 || score > MAX_SCORE) {
    return failure('invalid_score', false);
  }
  return { ok: true, score };
}

/** The body's bytes, or null as soon as it passes `limit` (the rest is not read). */
async function readAtMost(response: Response, limit: number): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function discard(response: Response) {
  response.body?.cancel().catch(() => undefined);
}

/** A failure before or while the response arrived: timeouts and network errors, both retryable. */
function transportFailure(err: unknown): Attempt {
  const name = err instanceof Error || err instanceof DOMException ? err.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return failure('timeout', true);
  return failure(`network_error${systemCode(err)}`, true);
}

/** `:ECONNREFUSED` and the like, from the error or its cause; only a code-shaped string is kept. */
function systemCode(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,39}$/.test(code)) return `:${code}`;
  }
  return '';
}

function failure(reason: string, retryable: boolean): Attempt {
  return { ok: false, reason, retryable };
}

/** Configuration errors are thrown at creation (fail fast); they name the option, not a value. */
function endpointOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('BUREAU_URL: must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError('BUREAU_URL: must be an absolute http or https URL');
  }
  parsed.pathname = parsed.pathname.replace(/\/+$/, '') + SOFT_ENQUIRY_PATH;
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}

function positiveNumber(value: number, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new RangeError(`${name}: must be a positive number`);
  return value;
}

function wholeNumber(value: number, name: string, min: number): number {
  if (!Number.isInteger(value) || value < min)
    throw new RangeError(`${name}: must be a whole number of at least ${min}`);
  return value;
}
