/**
 * `appServer` (server.ts): each request and response is made with the app's own prototypes, so Express's
 * `Object.setPrototypeOf` on every request has nothing left to change; and every answer is byte for byte
 * what `http.createServer(app)`, as `app.listen` makes it, gives.
 */
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { appServer } from '../src/server';

function exampleApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json());
  app.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id, query: req.query, host: req.hostname, protocol: req.protocol, path: req.path, accepts: req.accepts(['json', 'html']) });
  });
  app.post('/items', (req, res) => {
    res.status(201).set('X-Example', 'yes').location('/items/1').json({ body: req.body as unknown });
  });
  app.get('/text', (_req, res) => {
    res.type('text').send('plain');
  });
  app.get('/fail', () => {
    throw new Error('boom');
  });
  return app;
}

async function start(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Status, headers (but the date) and body of one answer. */
async function answer(url: string, init?: RequestInit): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const res = await fetch(url, init);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
  return { status: res.status, headers, body: await res.text() };
}

describe('appServer', () => {
  it('when a request arrives, then its request and response already have the prototypes Express gives them', async () => {
    const app = exampleApp();
    const seen: boolean[][] = [];
    const observe = (server: Server) =>
      server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
        seen.push([Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response, req instanceof IncomingMessage, res instanceof ServerResponse]);
      });
    for (const server of [appServer(app), createServer(app)]) {
      observe(server);
      const url = await start(server);
      try {
        expect((await fetch(`${url}/items/7`)).status).toBe(200);
      } finally {
        await stop(server);
      }
    }
    // Made by appServer: Express's prototypes from the start; by createServer: Node's, until Express swaps them.
    expect(seen).toEqual([
      [true, true, true, true],
      [false, false, true, true],
    ]);
  });

  it('when the same requests go to appServer and to http.createServer, then every answer is the same', async () => {
    const requests: Array<[string, RequestInit?]> = [
      ['/items/42?color=red&size=2', { headers: { accept: 'application/json' } }],
      ['/items/42', { method: 'HEAD' }],
      ['/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: [1, 'two'] }) }],
      ['/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"broken' }],
      ['/text'],
      ['/fail'],
      ['/nowhere'],
      ['/items/42', { method: 'OPTIONS' }],
    ];
    const results: Array<Array<Awaited<ReturnType<typeof answer>>>> = [];
    for (const server of [appServer(exampleApp()), createServer(exampleApp())]) {
      const url = await start(server);
      try {
        const answers = [];
        // One after another on the same keep-alive connection, as a partner's client sends them.
        for (const [path, init] of requests) answers.push(await answer(`${url}${path}`, init));
        results.push(answers);
      } finally {
        await stop(server);
      }
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0].map((a) => a.status)).toEqual([200, 200, 201, 400, 200, 500, 404, 200]);
  });
});
