import { createHmac } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptResult } from '@loanmatch/domain';

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
  family: 4 | 6;
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
