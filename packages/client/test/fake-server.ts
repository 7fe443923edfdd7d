/**
 * A scripted LoanMatch stand-in on loopback: records every request and answers as the test says, or
 * drops the connection. For the client's own rules (retries, waits, token renewal) that the real
 * service cannot be made to show on demand.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An answer; `drop` closes the connection without one, `hang` never answers. */
export type Scripted = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop' | 'hang';

export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** `answer` gets each request and its 1-based number; a plain object body is sent as JSON. */
export async function startFakeServer(answer: (request: Recorded, n: number) => Scripted): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const scripted = answer(recorded, requests.length);
      if (scripted === 'drop') return req.socket.destroy();
      if (scripted === 'hang') return;
      const text =
        typeof scripted.body === 'string'
          ? scripted.body
          : scripted.body === undefined
            ? ''
            : JSON.stringify(scripted.body);
      res.writeHead(scripted.status, {
        'Content-Type': typeof scripted.body === 'string' ? 'text/html' : 'application/json',
        ...scripted.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const success = (data: unknown, status = 200): Scripted => ({
  status,
  body: { success: true, data },
  headers: { 'X-Request-Id': `req-${status}` },
});

export const failure = (
  status: number,
  error: string,
  message = `${error} happened`,
  headers: Record<string, string> = {},
): Scripted => ({
  status,
  body: { success: false, error, message },
  headers: { 'X-Request-Id': `req-${error}`, ...headers },
});

/** A `sleep` that waits for nothing and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}
