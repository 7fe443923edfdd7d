/**
 * A fake credit bureau: a real node:http server on 127.0.0.1, port 0. Each test sets how it behaves;
 * it records every request it receives (method, path, content type, parsed JSON body).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: unknown;
}

/** Answers one request; `n` counts requests since the last `behave` (1 for the first). */
export type Behaviour = (res: ServerResponse, n: number) => void;

export interface FakeBureau {
  url: string;
  requests: SeenRequest[];
  behave(behaviour: Behaviour): void;
  close(): Promise<void>;
}

export async function startFakeBureau(): Promise<FakeBureau> {
  let behaviour: Behaviour = answers.score(700);
  let count = 0;
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], body });
      count += 1;
      res.on('error', () => undefined); // a client that hung up early is not the fake's problem
      behaviour(res, count);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    behave(next) {
      behaviour = next;
      count = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL where nothing listens: a server is opened on port 0 and closed again. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function json(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export const answers = {
  score:
    (score: number): Behaviour =>
    (res) =>
      json(res, 200, JSON.stringify({ score })),
  raw:
    (body: string, status = 200): Behaviour =>
    (res) =>
      json(res, status, body),
  status:
    (status: number): Behaviour =>
    (res) =>
      json(res, status, JSON.stringify({ error: 'fake bureau says no' })),
  /** Answers a score only after `ms`; gives up quietly if the client hangs up first. */
  slow:
    (ms: number, score = 700): Behaviour =>
    (res) => {
      const timer = setTimeout(() => json(res, 200, JSON.stringify({ score })), ms);
      res.on('close', () => clearTimeout(timer));
    },
  /** Sends 200 and the start of a body at once, then stalls. */
  stalledBody: (): Behaviour => (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"score":');
  },
  failOnceThen:
    (first: Behaviour, then: Behaviour): Behaviour =>
    (res, n) =>
      (n === 1 ? first : then)(res, n),
  redirect:
    (location: string): Behaviour =>
    (res) => {
      res.writeHead(302, { location, 'content-length': 0 });
      res.end();
    },
  /** A valid JSON score padded to `bytes`, with a content-length or (declared false) chunked. */
  huge:
    (bytes: number, declared: boolean): Behaviour =>
    (res) => {
      const head = '{"score":700,"padding":"';
      const body = `${head + 'x'.repeat(bytes - head.length - 2)}"}`;
      res.writeHead(
        200,
        declared
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
          : { 'content-type': 'application/json' },
      );
      // In pieces, so an undeclared body really arrives chunked.
      for (let i = 0; i < body.length; i += 16 * 1024) res.write(body.slice(i, i + 16 * 1024));
      res.end();
    },
};
