/**
 * The live credit bureau client (`LOANMATCH_ENV=live`); its protocol, retries and circuit breaker are in
 * README.md beside this file. `requestScore` never throws for bureau trouble: it answers `{ available: false }`.
 * Reasons and events are fixed codes (`timeout`, `http_503`), never applicant data or the bureau's text.
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BureauAnswer, BureauRequest, CreditBureau } from '@loanmatch/domain';
import { systemCode } from '../errors';

export interface BureauEvent {
  type: 'attempt_failed' | 'breaker_open' | 'breaker_closed' | 'unavailable';
  reason: string;
}

export interface LiveBureauOptions {
  /** BUREAU_URL, e.g. http://127.0.0.1:4010 (a path prefix is kept). */
  url: string;
  /** Per attempt, headers and body together. Default 2000. */
  timeoutMs?: number;
  /** Further attempts after a retryable failure. Default 1. */
  retries?: number;
  /** Default: open after 5 consecutive failed calls, for 30 s. */
  breaker?: { failureThreshold?: number; openMs?: number };
  /** Milliseconds, for the breaker only. Default Date.now. */
  clock?: () => number;
  /** For logs and metrics. A listener that throws is ignored. */
  onEvent?: (event: BureauEvent) => void;
}

type BreakerState = 'closed' | 'open' | 'half_open';

const MAX_BODY_BYTES = 64 * 1024;
const PAUSE_BUDGET_MS = 300;
const MAX_SCORE = 1200;
/** What the bureau receives of the applicant; everything else (consents, gender, ...) stays home. */
const SENT_FIELDS = (
  'firstName lastName dateOfBirth email mobileNumber ' +
  'unitNumber streetNumber streetName streetType suburb state postcode address homeAddress'
).split(' ');

type Attempt = { ok: true; score: number } | { ok: false; reason: string; retryable: boolean };

const failure = (reason: string, retryable = false): Attempt => ({ ok: false, reason, retryable });

/** `options.url` is BUREAU_URL as the configuration checked it: an absolute http or https URL. */
export function createLiveBureau(options: LiveBureauOptions): CreditBureau & { breakerState(): BreakerState } {
  const url = new URL(options.url);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/soft-enquiries`;
  url.search = '';
  url.hash = '';
  const endpoint = url.toString();
  const { timeoutMs = 2000, retries = 1, clock = Date.now } = options;
  const { failureThreshold: threshold = 5, openMs = 30_000 } = options.breaker ?? {};

  const emit = (type: BureauEvent['type'], reason: string) => {
    try {
      options.onEvent?.({ type, reason });
    } catch {}
  };

  // The breaker: closed while `openedAt` is null; open for `openMs` after it; half-open after that.
  let failures = 0;
  let openedAt: number | null = null;
  let trialInFlight = false;
  const state = (): BreakerState => {
    if (openedAt === null) return 'closed';
    return trialInFlight || clock() - openedAt >= openMs ? 'half_open' : 'open';
  };
  const open = (reason: string) => {
    openedAt = clock();
    emit('breaker_open', reason);
  };
  const record = (trial: boolean, success: boolean) => {
    if (trial) {
      trialInFlight = false;
      failures = 0;
      if (!success) return open('trial request failed');
      openedAt = null;
      return emit('breaker_closed', 'trial request succeeded');
    }
    // A call that ends after concurrent calls opened the breaker: only the trial closes it.
    if (openedAt !== null) return;
    failures = success ? 0 : failures + 1;
    if (failures < threshold) return;
    failures = 0;
    open(`${threshold} consecutive failed requests`);
  };

  /** Up to `attempts` attempts within a deadline; the last failure if none worked. */
  async function call(body: string, attempts: number): Promise<Attempt> {
    const deadline = performance.now() + timeoutMs * attempts + PAUSE_BUDGET_MS;
    let pauses = PAUSE_BUDGET_MS;
    let outcome = failure('no_attempt');
    for (let n = 1; n <= attempts; n++) {
      const budget = Math.min(timeoutMs, Math.floor(deadline - performance.now()));
      if (budget <= 0) break;
      outcome = await attempt(endpoint, body, budget);
      if (outcome.ok) return outcome;
      emit('attempt_failed', outcome.reason);
      if (!outcome.retryable || n === attempts) break;
      const pause = Math.min(randomInt(50, 151), pauses);
      pauses -= pause;
      if (pause > 0) await sleep(pause);
    }
    return outcome;
  }

  return {
    sandbox: false,
    breakerState: state,
    async requestScore({ applicationId, applicant }: BureauRequest): Promise<BureauAnswer> {
      const now = state();
      if (now === 'open' || (now === 'half_open' && trialInFlight)) {
        emit('unavailable', 'breaker_open');
        return { available: false, source: 'bureau-breaker-open' };
      }
      const trial = now === 'half_open';
      if (trial) trialInFlight = true;
      const body: Record<string, unknown> = { reference: applicationId };
      for (const field of SENT_FIELDS) if (applicant[field] != null) body[field] = applicant[field];
      // The half-open trial is one request, not one request and its retries.
      const outcome = await call(JSON.stringify(body), trial ? 1 : retries + 1);
      record(trial, outcome.ok);
      if (outcome.ok) return { available: true, score: outcome.score, source: 'bureau' };
      emit('unavailable', outcome.reason);
      return { available: false, source: 'bureau-unavailable' };
    },
  };
}

/** One request, with its own timeout over headers and body. Never throws. */
async function attempt(endpoint: string, body: string, timeoutMs: number): Promise<Attempt> {
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const { status } = response;
    if (status !== 200 || Number(response.headers.get('content-length')) > MAX_BODY_BYTES) {
      response.body?.cancel().catch(() => undefined);
      if (status === 200) return failure('body_too_large');
      if (status >= 300 && status < 400) return failure(`redirect_${status}`);
      return failure(`http_${status}`, status >= 500 || status === 429);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    // Leaving the loop early cancels the rest of the body.
    for await (const chunk of response.body ?? []) {
      total += chunk.byteLength;
      if (total > MAX_BODY_BYTES) return failure('body_too_large');
      chunks.push(chunk);
    }
    return scoreOf(Buffer.concat(chunks, total));
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') return failure('timeout', true);
    const code = systemCode(err);
    return failure(code ? `network_error:${code}` : 'network_error', true);
  }
}

function scoreOf(bytes: Uint8Array): Attempt {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return failure('malformed_json');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.hasOwn(parsed, 'score'))
    return failure('missing_score');
  const { score } = parsed as { score: unknown };
  if (typeof score !== 'number' || !Number.isInteger(score) || score < 0 || score > MAX_SCORE)
    return failure('invalid_score');
  return { ok: true, score };
}
