/**
 * A partner's webhook endpoint for tests: a real HTTP server on loopback that records every request
 * (headers and the raw body) and answers as the test scripts it.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (what the signature covers). */
  body: string;
  receivedAt: number;
}

/** How to answer the n-th request (1-based): a status, headers, a body, or nothing at all (`hang`). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly received: ReceivedWebhook[];
  /** Sets how requests are answered from now on; 204 by default. */
  reply(fn: (n: number, request: ReceivedWebhook) => Reply): void;
  /** Waits until at least `count` requests (matching `filter`) arrived; answers them. */
  waitFor(
    count: number,
    options?: { timeoutMs?: number; filter?: (r: ReceivedWebhook) => boolean },
  ): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  let answer: (n: number, request: ReceivedWebhook) => Reply = () => ({ status: 204 });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ReceivedWebhook = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      received.push(request);
      const reply = answer(received.length, request);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      const send = () => res.writeHead(reply.status, reply.headers).end(reply.body ?? '');
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    reply(fn) {
      answer = fn;
    },
    async waitFor(count, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      const matching = () => received.filter(options.filter ?? (() => true));
      while (matching().length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook request(s), got ${matching().length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return matching();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
