import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../tests/support';
import { parseRetryAfter, sendWebhook, signWebhook, signatureHeader } from '../../src';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('signatures', () => {
  it('when a message is signed, then it matches the Standard Webhooks example', () => {
    // The example of the Standard Webhooks specification (its test vector).
    const body = '{"test": 2432232314}';
    expect(signWebhook(SECRET, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('when two secrets sign, then the header holds both signatures, space-separated, newest first', () => {
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const header = signatureHeader([other, SECRET], 'evt_1', 1700000000, '{}');
    expect(header.split(' ')).toEqual([
      signWebhook(other, 'evt_1', 1700000000, '{}'),
      signWebhook(SECRET, 'evt_1', 1700000000, '{}'),
    ]);
  });
});

describe('one attempt over HTTP', () => {
  let receiver: WebhookReceiver;
  let elsewhere: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    elsewhere = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await elsewhere.close();
  });

  const send = (path = '/hook', timeoutMs = 2000, url = `${receiver.origin}${path}`) =>
    sendWebhook({
      url: new URL(url),
      address: '127.0.0.1',
      family: 4,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      timeoutMs,
    });

  it('when the endpoint answers 2xx, then the attempt succeeds with its status and duration', async () => {
    receiver.reply(() => ({ status: 202 }));
    expect(await send()).toMatchObject({ ok: true, status: 202, durationMs: expect.any(Number) });
    expect(receiver.received.at(-1)).toMatchObject({ path: '/hook', body: '{"a":1}' });
  });

  it('when the endpoint redirects, then the redirect is not followed and the attempt fails', async () => {
    receiver.reply(() => ({ status: 302, headers: { Location: `${elsewhere.origin}/stolen` } }));
    expect(await send()).toMatchObject({ ok: false, status: 302, error: 'redirect_302' });
    expect(elsewhere.received).toHaveLength(0);
  });

  it('when the endpoint answers with a huge body, then at most the limit is read and the status still counts', async () => {
    const server: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const more = () => {
        while (sent < 200 && res.write(chunk)) sent++; // up to 12.8 MB, unless the client stops reading
        if (sent < 200) res.once('drain', more);
        else res.end();
      };
      more();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const result = await send('/', 2000, `http://127.0.0.1:${port}/`);
      expect(result).toMatchObject({ ok: true, status: 200 });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('when the endpoint does not answer in time, then the attempt fails with timeout', async () => {
    receiver.reply(() => 'hang');
    const result = await send('/slow', 200);
    expect(result).toMatchObject({ ok: false, error: 'timeout' });
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('when nothing listens, the connection is reset, or the port speaks no HTTP, then every attempt fails with the same network_error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const sockets = new Set<Socket>();
    const reset = createNetServer((socket) => socket.resetAndDestroy());
    const garbage = createNetServer((socket) => sockets.add(socket).add(socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    for (const s of [reset, garbage]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    try {
      const results = await Promise.all(
        [closedPort, ...[reset, garbage].map((s) => (s.address() as { port: number }).port)].map((port) =>
          send('/', 2000, `http://127.0.0.1:${port}/`),
        ),
      );
      for (const result of results)
        expect(result).toEqual({ ok: false, error: 'network_error', durationMs: expect.any(Number) });
    } finally {
      for (const socket of sockets) socket.destroy();
      for (const s of [reset, garbage]) await new Promise((r) => s.close(r));
    }
  });

  it('when a host name is sent to, then the connection goes to the checked address and the Host header keeps the name', async () => {
    receiver.reply(() => ({ status: 204 }));
    const port = new URL(receiver.origin).port;
    const result = await sendWebhook({
      url: new URL(`http://partner-hooks.invalid:${port}/named`),
      address: '127.0.0.1',
      family: 4,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(receiver.received.at(-1)?.headers.host).toBe(`partner-hooks.invalid:${port}`);
  });

  it('when the endpoint answers 5xx or 429 with Retry-After, then the wait is read from seconds or a date', async () => {
    receiver.reply(() => ({ status: 503, headers: { 'Retry-After': '120' } }));
    expect(await send()).toMatchObject({ ok: false, status: 503, error: 'http_503', retryAfterMs: 120_000 });
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:30 GMT', () => now)).toBe(90_000);
    expect(parseRetryAfter('soon', () => now)).toBeUndefined();
    expect(parseRetryAfter(undefined, () => now)).toBeUndefined();
  });
});
