/**
 * One HTTP attempt of a webhook: `POST` the body to the address that was checked, over node:http or
 * node:https with the connection's `lookup` pinned to that address. Never follows a redirect (a 3xx is
 * a failure), reads at most `maxResponseBytes` of the answer and discards it, and gives up after
 * `timeoutMs` for the whole exchange. Never throws: every outcome is an `AttemptResult` with a fixed
 * error code (`timeout`, `network_error`, `redirect_302`, `http_500`), never text that came from the
 * endpoint nor the system's reason a connection failed.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptResult } from '@loanmatch/domain';
import { bareHost, isIpLiteral } from './addresses';

export interface SendOptions {
  url: URL;
  /** The checked address to connect to, and its family. */
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Milliseconds since the epoch, for `Retry-After` dates. */
  now?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export function sendWebhook(options: SendOptions): Promise<AttemptResult> {
  const { url, address, family } = options;
  const started = performance.now();
  const host = bareHost(url.hostname);
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    // Node asks for every address when it may try several families; either way it gets the checked one.
    if ((lookupOptions as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const body = Buffer.from(options.body, 'utf8');

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (
      result: { ok: true; status: number } | { ok: false; status?: number; error: string; retryAfterMs?: number },
    ) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: performance.now() - started } as AttemptResult);
    };

    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request({
      protocol: url.protocol,
      host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(body.length) },
      agent: false, // a fresh connection to the checked address; no pooled socket from an earlier lookup
      lookup: isIpLiteral(host) ? undefined : pinned,
      ...(url.protocol === 'https:' && !isIpLiteral(host) ? { servername: host } : {}),
    });
    // One limit for the whole exchange, the answer's body included; whatever is still open then is closed.
    const timer = setTimeout(() => {
      finish({ ok: false, error: 'timeout' });
      req.destroy();
    }, options.timeoutMs);
    req.on('close', () => clearTimeout(timer));

    // One code for every failure to exchange (refused, reset, unreachable, TLS): the history a partner
    // reads must not tell a closed port from an open one that is not an HTTP server.
    req.on('error', () => finish({ ok: false, error: 'network_error' }));
    req.on('response', (res: IncomingMessage) => {
      // The status decides; the body is read (up to the limit) only to end the exchange cleanly, then dropped.
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
        if (read > options.maxResponseBytes) req.destroy();
      });
      res.on('error', () => undefined);
    });
    req.end(body);
  });
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: () => number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  if (/^\s*\d{1,10}\s*$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now());
}
