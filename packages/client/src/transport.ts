/**
 * One HTTP call to LoanMatch with the contract's envelope: sends, reads `{success, data}` or the error
 * body, and retries by the rules of `retry.ts`. Both clients sit on it; it knows nothing of either's
 * authentication beyond the headers it is handed for each attempt.
 */
import { LoanMatchApiError, LoanMatchConnectionError, type FieldViolation } from './errors';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay, type AttemptFailure, type RetryPolicy } from './retry';

/** Options both clients take besides their address and key. */
export interface TransportOptions {
  /** A fetch of your own (a proxy agent, a test double); the global fetch by default. */
  fetch?: typeof fetch;
  /** Retries after the first attempt (default 3); 0 turns retries off. */
  retries?: number;
  /** First backoff in ms (default 500), doubled per retry up to `maxDelayMs` (default 8000). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** The longest `Retry-After` waited for (default 60000 ms); a longer one is thrown at once with its `retryAfter`. */
  maxRetryAfterMs?: number;
  /** Limit of one attempt in ms (default 30000). */
  timeoutMs?: number;
  /** How to wait between attempts (tests pass one that records and returns at once). */
  sleep?: (ms: number) => Promise<void>;
  /** [0, 1) for the jitter; Math.random by default. */
  random?: () => number;
  /** Makes the `Idempotency-Key` of a call that was given none; `crypto.randomUUID` by default. */
  newIdempotencyKey?: () => string;
  /** Told of every answer, retried ones included: for logs (`X-Request-Id`), metrics, `Idempotency-Replayed`. */
  onResponse?: (response: ResponseInfo) => void;
}

/** One HTTP answer, as `onResponse` sees it. */
export interface ResponseInfo {
  method: RequestSpec['method'];
  path: string;
  status: number;
  headers: Headers;
  /** 1 for the first attempt of a request. */
  attempt: number;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Below the base URL, path parameters already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  /** Sent as `Idempotency-Key`; the same on every attempt of this request. */
  idempotencyKey?: string;
  /** Safe to send twice after a 5xx or a lost connection (see `retry.ts`). */
  repeatable: boolean;
  /** `text/csv`: ask for CSV, and answer the body as text (errors still come in the JSON envelope). */
  accept?: 'text/csv';
}

/** Headers that prove who calls, asked for before each attempt (an access token may be renewed between two). */
export type Authorize = () => Promise<Record<string, string>>;

const DEFAULT_TIMEOUT_MS = 30_000;

export class Transport {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly policy: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly onResponse?: (response: ResponseInfo) => void;
  readonly newIdempotencyKey: () => string;

  constructor(baseUrl: string, options: TransportOptions = {}) {
    this.baseUrl = normaliseBaseUrl(baseUrl);
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.policy = {
      retries: atLeast(0, 'retries', options.retries ?? DEFAULT_RETRY_POLICY.retries),
      baseDelayMs: atLeast(0, 'baseDelayMs', options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs),
      maxDelayMs: atLeast(0, 'maxDelayMs', options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs),
      maxRetryAfterMs: atLeast(0, 'maxRetryAfterMs', options.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs),
      random: options.random ?? DEFAULT_RETRY_POLICY.random,
    };
    this.timeoutMs = atLeast(1, 'timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.newIdempotencyKey = options.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID());
    this.onResponse = options.onResponse;
  }

  /** Sends `spec` until it succeeds or may not be retried; answers the envelope's `data`. */
  async send<T>(spec: RequestSpec, authorize: Authorize): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(spec, await authorize(), attempt);
      if (outcome.ok) return outcome.data as T;
      const wait = retryDelay(this.policy, outcome.failure, spec.repeatable, attempt);
      if (wait === undefined) throw outcome.error;
      await this.sleep(wait);
    }
  }

  private async attempt(spec: RequestSpec, auth: Record<string, string>, attempt: number): Promise<Outcome> {
    const headers: Record<string, string> = { Accept: spec.accept ?? 'application/json', ...auth };
    if (spec.body !== undefined) headers['Content-Type'] = 'application/json';
    if (spec.idempotencyKey !== undefined) headers['Idempotency-Key'] = spec.idempotencyKey;
    for (const [name, value] of Object.entries(spec.headers ?? {})) if (value !== undefined) headers[name] = value;

    let response: Response;
    let text: string;
    try {
      response = await this.fetch(this.urlOf(spec), {
        method: spec.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (cause) {
      const timedOut = (cause as { name?: string })?.name === 'TimeoutError';
      const reason = timedOut ? `no answer within ${this.timeoutMs} ms` : describe(cause);
      return {
        ok: false,
        failure: { kind: 'connection' },
        error: new LoanMatchConnectionError({
          message: `${spec.method} ${spec.path}: ${reason}`,
          cause,
          timedOut,
          idempotencyKey: spec.idempotencyKey,
          attempts: attempt,
        }),
      };
    }

    this.onResponse?.({
      method: spec.method,
      path: spec.path,
      status: response.status,
      headers: response.headers,
      attempt,
    });
    if (response.ok && spec.accept && response.headers.get('content-type')?.startsWith(spec.accept))
      return { ok: true, data: text };
    const body = parseJson(text);
    if (response.ok && isObject(body) && body.success === true && 'data' in body) return { ok: true, data: body.data };

    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    const envelope = errorEnvelope(body);
    const code = envelope?.code ?? 'UNEXPECTED_RESPONSE';
    const message =
      typeof envelope?.message === 'string'
        ? envelope.message
        : `${spec.method} ${spec.path} answered ${response.status} without the LoanMatch envelope`;
    return {
      ok: false,
      failure: { kind: 'response', status: response.status, code, retryAfterMs },
      error: new LoanMatchApiError({
        status: response.status,
        code,
        message,
        details: Array.isArray(envelope?.details) ? (envelope.details as FieldViolation[]) : undefined,
        requestId: response.headers.get('x-request-id') ?? undefined,
        retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
        idempotencyKey: spec.idempotencyKey,
        attempts: attempt,
      }),
    };
  }

  private urlOf(spec: RequestSpec): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {}))
      if (value !== undefined) query.set(name, String(value));
    const search = query.toString();
    return `${this.baseUrl}${spec.path}${search ? `?${search}` : ''}`;
  }
}

type Outcome =
  | { ok: true; data: unknown }
  | { ok: false; failure: AttemptFailure; error: LoanMatchApiError | LoanMatchConnectionError };

/** `encodeURIComponent` for a path parameter: an id can never reach another route. */
export const segment = (value: string): string => encodeURIComponent(value);

function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError('baseUrl must be an absolute http or https URL, such as http://127.0.0.1:3000/api/partner/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError('baseUrl must be an absolute http or https URL');
  return url.toString().replace(/\/+$/, '');
}

function atLeast(min: number, name: string, value: number): number {
  if (!Number.isFinite(value) || value < min) throw new TypeError(`${name} must be a number of at least ${min}`);
  return value;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The contract's error body: `{success: false, error: "<CODE>", message, details?}`. */
function errorEnvelope(body: unknown): { code: string; message?: unknown; details?: unknown } | undefined {
  if (!isObject(body) || body.success !== false) return undefined;
  if (typeof body.error === 'string') return { code: body.error, message: body.message, details: body.details };
  return undefined;
}

/** The cause of a failed fetch in a few words (Node puts the system error, e.g. ECONNREFUSED, in `cause`). */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause;
  if (cause?.code) return `connection failed (${cause.code})`;
  return `connection failed (${error instanceof Error ? error.message : String(error)})`;
}
