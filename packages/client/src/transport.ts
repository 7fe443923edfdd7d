/** The `fetch` under openapi-fetch: retries by the client's rules, throws anything but the success envelope. */
import { LoanMatchApiError, LoanMatchConnectionError, type FieldViolation } from './errors';

/** Options of every client, with their defaults in the README. */
export interface TransportOptions {
  fetch?: typeof fetch;
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  newIdempotencyKey?: () => string;
  onResponse?: (response: ResponseInfo) => void;
}

/** One HTTP answer: `path` below the base URL, `attempt` 1 for the first. */
export type ResponseInfo = { method: string; path: string; status: number; headers: Headers; attempt: number };
/** The credentials, asked for before each attempt: a token may be renewed between two. */
export type Authorize = () => Promise<Record<string, string>>;
export type Transport = ReturnType<typeof createTransport>;

const TRANSIENT = new Set([500, 502, 503, 504]); // the 5xx worth another try: 501 and 505 will not change

export function createTransport(baseUrl: string, options: TransportOptions) {
  const base = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!base || !/^https?:$/.test(base.protocol))
    throw new TypeError('baseUrl must be an absolute http or https URL, such as http://127.0.0.1:3000/api/partner/v1');
  const basePath = base.pathname.replace(/\/+$/, '');
  const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const retries = atLeast(0, 'retries', options.retries ?? 3);
  const baseDelayMs = atLeast(0, 'baseDelayMs', options.baseDelayMs ?? 500);
  const maxDelayMs = atLeast(0, 'maxDelayMs', options.maxDelayMs ?? 8000);
  const maxRetryAfterMs = atLeast(0, 'maxRetryAfterMs', options.maxRetryAfterMs ?? 60_000);
  const timeoutMs = atLeast(1, 'timeoutMs', options.timeoutMs ?? 30_000);
  const { sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)), random = Math.random } = options;

  /** Throws `error` unless it may be retried; else waits `Retry-After`, or backoff with equal jitter (half random). */
  async function retryOrThrow(error: Error, attempts: number, retry: boolean, retryAfterMs?: number) {
    if (attempts > retries || !retry || (retryAfterMs ?? 0) > maxRetryAfterMs) throw error;
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempts - 1));
    await sleep(retryAfterMs ?? Math.round(ceiling / 2 + (ceiling / 2) * random()));
  }

  return {
    baseUrl: base.toString().replace(/\/+$/, ''),
    newIdempotencyKey: options.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID()),

    /**
     * Sends `request`, its `Idempotency-Key` on every attempt; retries 429 and `IDEMPOTENCY_IN_PROGRESS` (the service
     * did not act), and 500, 502-504 and lost connections only when `repeatable` (docs/adr/0087). `sentBefore`
     * counts the sends of a resend's first call in the errors' `attempts`.
     */
    async send(request: Request, authorize: Authorize, repeatable: boolean, sentBefore = 0): Promise<Response> {
      const { method, url } = request;
      const path = new URL(url).pathname.slice(basePath.length);
      const idempotencyKey = request.headers.get('idempotency-key') ?? undefined;
      const body = (await request.text()) || undefined;
      let last: Error | undefined;
      for (let attempts = 1; ; attempts++) {
        const sent = sentBefore + attempts; // what the errors report; `attempts` counts against `retries`
        const headers = new Headers(request.headers);
        if (!headers.has('accept')) headers.set('accept', 'application/json');
        // Credentials that cannot be had for a retry end the call with its own last error, which carries the
        // `Idempotency-Key` the request was sent under: the service may have acted on it.
        const credentials = await authorize().catch((err) => Promise.reject(last ?? err));
        for (const [name, value] of Object.entries(credentials)) headers.set(name, value);
        let response: Response;
        let text: string;
        try {
          const signal = AbortSignal.timeout(timeoutMs);
          response = await fetch(url, { method, headers, body, redirect: 'manual', signal });
          text = await response.text();
        } catch (cause) {
          const timedOut = (cause as Error)?.name === 'TimeoutError';
          // Node puts the system error (ECONNREFUSED, ECONNRESET) in `cause`.
          const reason = (cause as { cause?: { code?: string } })?.cause?.code ?? (cause as Error)?.message;
          const what = timedOut ? `no answer within ${timeoutMs} ms` : `connection failed (${reason})`;
          const message = `${method} ${path}: ${what}`;
          last = new LoanMatchConnectionError({ message, cause, timedOut, idempotencyKey, attempts: sent });
          await retryOrThrow(last, attempts, repeatable);
          continue;
        }
        const { status, headers: answered } = response;
        options.onResponse?.({ method, path, status, headers: answered, attempt: sent });
        const accept = headers.get('accept') ?? '';
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(text); // `success` is undefined on anything but an object
        } catch {}
        const csv = accept !== 'application/json' && answered.get('content-type')?.startsWith(accept);
        if (response.ok && (csv || (json?.success === true && 'data' in json)))
          return new Response(text, { status, headers: answered });

        // The contract's error body: `{success: false, error: "<CODE>", message, details?}`.
        const envelope = json?.success === false && typeof json.error === 'string' ? json : undefined;
        const code = (envelope?.error as string | undefined) ?? 'UNEXPECTED_RESPONSE';
        const retryAfterMs = parseRetryAfter(answered.get('retry-after') ?? '');
        const fallback = `${method} ${path} answered ${status} without the LoanMatch envelope`;
        last = new LoanMatchApiError({
          status,
          code,
          message: typeof envelope?.message === 'string' ? envelope.message : fallback,
          details: Array.isArray(envelope?.details) ? (envelope.details as FieldViolation[]) : undefined,
          requestId: answered.get('x-request-id') ?? undefined,
          retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
          idempotencyKey,
          attempts: sent,
        });
        const retry =
          status === 429 || (status === 409 ? code === 'IDEMPOTENCY_IN_PROGRESS' : repeatable && TRANSIENT.has(status));
        await retryOrThrow(last, attempts, retry, retryAfterMs);
      }
    },
  };
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined if absent or unreadable. */
function parseRetryAfter(header: string): number | undefined {
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function atLeast(min: number, name: string, value: number): number {
  if (!Number.isFinite(value) || value < min) throw new TypeError(`${name} must be a number of at least ${min}`);
  return value;
}

/** The success envelope's `data` of an openapi-fetch call (the transport threw for anything else). */
export async function dataOf<T>(call: Promise<{ data?: { data: T } }>): Promise<T> {
  return ((await call).data as { data: T }).data;
}

const API_KEY = 'API key LoanMatch issued (lm_sandbox_… or lm_live_…)';
export function requireKey(apiKey: string, pattern = /^\S+$/, what = API_KEY) {
  if (typeof apiKey !== 'string' || !pattern.test(apiKey)) throw new TypeError(`apiKey must be the ${what}`);
  return apiKey;
}
