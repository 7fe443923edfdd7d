/**
 * Requests Node's parser refuses before Express runs still get the contract's envelope and a request id
 * (server.ts `refuseMalformed`), over a raw socket since no well-behaved client can send them.
 */
import { connect } from 'node:net';
import express from 'express';
import { listen, type Listener } from '../src';

let listener: Listener;
let port: number;

beforeAll(async () => {
  const app = express();
  app.get('/', (_req, res) => res.json({ success: true, data: { ok: true } }));
  listener = await listen('test', app, 0, '127.0.0.1');
  port = Number(new URL(listener.url).port);
});
afterAll(() => new Promise<void>((resolve) => listener.server.close(() => resolve())));

/** Sends `raw` and answers the whole response once the server closes the connection. */
function exchange(raw: string): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) });
    });
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

it('when a header value holds a control character, then the answer is 400 VALIDATION_ERROR in the envelope with a new request id', async () => {
  const res = await exchange('GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: ab\x01cd\r\n\r\n');
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    success: false,
    error: 'VALIDATION_ERROR',
    message: expect.stringContaining('not valid HTTP'),
  });
  expect(res.headers['x-request-id']).toMatch(UUID);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
});

it('when the headers exceed 16 KB, then the answer is 431 HEADERS_TOO_LARGE in the envelope', async () => {
  const res = await exchange(`GET / HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`);
  expect(res.status).toBe(431);
  expect(res.body).toEqual({ success: false, error: 'HEADERS_TOO_LARGE', message: expect.any(String) });
  expect(res.headers['x-request-id']).toMatch(UUID);
});

it('when the headers are still arriving at Node’s headersTimeout, then the answer is 408 REQUEST_TIMEOUT, not 400', async () => {
  // Node emits this clientError once headersTimeout (60 s) passes; the test raises it at once on the connection.
  listener.server.once('connection', (socket) =>
    setImmediate(() =>
      listener.server.emit(
        'clientError',
        Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
        socket,
      ),
    ),
  );
  const res = await exchange('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  expect(res.status).toBe(408);
  expect(res.body).toEqual({ success: false, error: 'REQUEST_TIMEOUT', message: expect.stringContaining('60 s') });
  expect(res.headers['x-request-id']).toMatch(UUID);
});

it('when the bytes are not HTTP at all, then the answer is 400 in the envelope', async () => {
  const res = await exchange('HELLO THERE\r\n\r\n');
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR' });
});

it('when the request is well formed, then the app answers as usual', async () => {
  const res = await exchange('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expect(res.status).toBe(200);
});
