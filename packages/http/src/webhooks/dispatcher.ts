/**
 * The webhook dispatcher of each process. Every `pollMs`, shortly after an event is written here, and
 * after each attempt, it claims as many due deliveries as it has free slots, each under a lease; each
 * attempt checks the destination again, signs, sends, and records the outcome.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  DEFAULT_RETRY_POLICY,
  claimWebhookDeliveries,
  recordDeliveryAttempt,
  type AttemptOutcome,
  type AttemptResult,
  type DeliveryJob,
  type DomainContext,
  type RetryPolicy,
  type WebhookAttemptResult,
} from '@loanmatch/domain';
import { errorText, type Logger } from '../logger';
import { createDestinationPolicy, type DestinationPolicy } from './destination';

/** How long after a wake-up the dispatcher looks: enough for the writing transaction to commit. */
const WAKE_DELAY_MS = 20;
const USER_AGENT = 'LoanMatch-Webhooks/1.0';

/** An attempt's outcome as the metrics name it. */
function attemptResult(outcome: AttemptOutcome): WebhookAttemptResult {
  if (outcome.disabled) return 'disabled';
  if (outcome.state === 'succeeded') return 'delivered';
  return outcome.state === 'pending' ? 'retry_scheduled' : 'failed';
}

export type Dispatcher = ReturnType<typeof createDispatcher>;

export function createDispatcher(options: {
  ctx: DomainContext;
  /** Where sending is allowed; by default the rules of `ctx.env` with the system resolver. */
  destinations?: DestinationPolicy;
  pollMs?: number;
  /** Attempts in flight at once in this process. */
  concurrency?: number;
  /** Limit of one attempt, connection to last byte. */
  timeoutMs?: number;
  retry?: RetryPolicy;
  logger?: Logger;
  onAttempt?: (job: DeliveryJob, result: AttemptResult) => void;
}) {
  const { ctx, pollMs = 1000, concurrency = 8, timeoutMs = 10_000, retry = DEFAULT_RETRY_POLICY } = options;
  const destinations = options.destinations ?? createDestinationPolicy({ env: ctx.env });
  // Longer than an attempt can take (lookup, exchange, recording), so a live dispatcher never loses its claim.
  const leaseMs = timeoutMs + 60_000;

  const inFlight = new Set<Promise<void>>();
  let poller: NodeJS.Timeout | undefined;
  let wakeTimer: NodeJS.Timeout | undefined;
  let round: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  async function attempt(job: DeliveryJob): Promise<AttemptResult> {
    const started = performance.now();
    if (job.secrets.length === 0) return { ok: false, error: 'signing_secret_unavailable', durationMs: 0 };
    const destination = await destinations.resolve(job.url);
    if (!destination.ok) return { ok: false, error: destination.code, durationMs: performance.now() - started };
    const timestamp = Math.floor(ctx.clock().getTime() / 1000);
    const sent = await sendWebhook({
      ...destination,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': job.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(job.secrets, job.eventId, timestamp, job.body),
      },
      body: job.body,
      timeoutMs,
      now: () => ctx.clock().getTime(),
    });
    return { ...sent, durationMs: performance.now() - started };
  }

  async function deliver(job: DeliveryJob): Promise<void> {
    const result = await attempt(job);
    const { webhookId, eventId } = job;
    try {
      const outcome = await recordDeliveryAttempt(ctx, job, result, retry);
      // Ids, codes and times only: never the body or a secret.
      options.logger?.debug('webhook attempt', {
        webhookId,
        eventId,
        attempt: job.attempt,
        status: result.status,
        error: result.ok ? undefined : result.error,
        durationMs: Math.round(result.durationMs),
        nextAttemptAt: outcome.nextAttemptAt?.toISOString(),
      });
      if (outcome.disabled) options.logger?.warn('webhook disabled', { webhookId, reason: outcome.disabled });
      ctx.metrics?.webhookAttempt(attemptResult(outcome), result.durationMs);
    } catch (err) {
      ctx.metrics?.webhookAttempt('unrecorded', result.durationMs);
      // The lease runs out and the delivery is sent again: at least once, never lost.
      options.logger?.warn('webhook attempt not recorded', { webhookId, eventId, error: errorText(err) });
    }
    options.onAttempt?.(job, result);
  }

  function track(job: DeliveryJob): void {
    const p: Promise<void> = deliver(job).finally(() => {
      inFlight.delete(p);
      // A slot is free, and the next event of this application may now be due.
      if (!stopped) void look();
    });
    inFlight.add(p);
  }

  /** Claims what is due, as much as there is room for; answers how many deliveries this round claimed. */
  async function look(): Promise<number> {
    again = true;
    if (round) return round;
    let claimed = 0;
    round = (async () => {
      while (again && !stopped) {
        again = false;
        const free = concurrency - inFlight.size;
        if (free <= 0) break;
        const jobs = await claimWebhookDeliveries(ctx, { limit: free, leaseMs });
        claimed += jobs.length;
        for (const job of jobs) track(job);
        if (jobs.length === free) again = true; // there may be more waiting
      }
      return claimed;
    })()
      .catch((err) => {
        options.logger?.warn('webhook claim failed', { error: errorText(err) });
        return claimed;
      })
      .finally(() => {
        round = undefined;
      });
    return round;
  }

  return {
    start() {
      if (poller || stopped) return;
      poller = setInterval(() => void look(), pollMs);
      poller.unref();
      void look();
    },
    /** Look for due deliveries shortly, without waiting for the next poll. */
    wake() {
      if (stopped || wakeTimer) return;
      wakeTimer = setTimeout(() => {
        wakeTimer = undefined;
        void look();
      }, WAKE_DELAY_MS);
      wakeTimer.unref();
    },
    /** Stops claiming, and waits for the attempts in flight to be sent and recorded. */
    async stop() {
      stopped = true;
      clearInterval(poller);
      clearTimeout(wakeTimer);
      await round;
      await Promise.allSettled([...inFlight]);
    },
    /** One round of claiming and sending, awaited to the end (tests); answers how many it claimed. */
    async runOnce() {
      const claimed = await look();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      return claimed;
    },
  };
}

/** The most of an answer that is read. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Standard Webhooks' `webhook-signature`: per secret, newest first, `v1,` and the base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` keyed with the base64 part of the secret after `whsec_`.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * One `POST` of a webhook to the address checked (the connection's `lookup` pinned to it), within
 * `timeoutMs` for the whole exchange. Never follows a redirect, reads at most 64 KB of the
 * answer and drops it. Never throws; errors are fixed codes (`timeout`, `network_error`, `redirect_302`,
 * `http_500`), never text from the endpoint or the system.
 */
export function sendWebhook(options: {
  url: URL;
  /** The checked address to connect to, and its family. */
  address: string;
  family: number;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Milliseconds since the epoch, for `Retry-After` dates. */
  now?: () => number;
}): Promise<AttemptResult> {
  const { url, address, family } = options;
  const started = performance.now();
  // Node looks up no host that is an IP literal, and names the TLS server after the host by itself.
  const pinned: LookupFunction = (_hostname, lookup, callback) =>
    lookup.all ? callback(null, [{ address, family }]) : callback(null, address, family);
  const body = Buffer.from(options.body, 'utf8');

  return new Promise<AttemptResult>((resolve) => {
    // Only the first outcome counts: a promise resolves once.
    const finish = (
      result: { ok: true; status: number } | { ok: false; status?: number; error: string; retryAfterMs?: number },
    ) => resolve({ ...result, durationMs: performance.now() - started } as AttemptResult);

    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const signal = AbortSignal.timeout(options.timeoutMs);
    const req = request(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(body.length) },
      agent: false, // a fresh connection to the checked address; no pooled socket from an earlier lookup
      lookup: pinned,
      signal,
    });
    // One code for every failure to exchange (refused, reset, unreachable, TLS): the history a partner
    // reads must not tell a closed port from an open one that is not an HTTP server.
    req.on('error', () => finish({ ok: false, error: signal.aborted ? 'timeout' : 'network_error' }));
    req.on('response', (res: IncomingMessage) => {
      // The status decides; the body is read (up to the limit) only to end the exchange cleanly.
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) finish({ ok: true, status });
      else if (status >= 300 && status < 400) finish({ ok: false, status, error: `redirect_${status}` });
      else {
        const retryAfterMs = parseRetryAfter(res.headers['retry-after'], options.now ?? Date.now);
        finish({ ok: false, status, error: `http_${status}`, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
      }
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) req.destroy();
      });
      res.on('error', () => undefined);
    });
    req.end(body);
  });
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(text: string | undefined, now: () => number): number | undefined {
  if (text === undefined) return undefined;
  if (/^\s*\d{1,10}\s*$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now());
}
