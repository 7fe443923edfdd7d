/**
 * What a listener answers when its database is gone or does not answer: 503 SERVICE_UNAVAILABLE in the
 * envelope, promptly, from requests and from `/readyz`. (The processes themselves, with PostgreSQL cut
 * by a proxy: tests/e2e/faults.test.ts.)
 */
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { silentLogger } from '../../../tests/support';
import { createServiceApp } from '../src/service-app';

async function serve(ping: () => Promise<boolean>, failure?: () => Error) {
  const router = Router();
  router.get('/thing', async () => {
    throw failure?.();
  });
  const server = createServiceApp({ contract: 'test', logger: silentLogger, ping, routes: [{ router }] }).listen(
    0,
    '127.0.0.1',
  );
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async get(path: string) {
      const started = performance.now();
      const res = await fetch(`${origin}${path}`);
      return { status: res.status, headers: res.headers, body: await res.json(), ms: performance.now() - started };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('/readyz', () => {
  it.each([
    ['answers', 200, () => Promise.resolve(true)],
    ['fails', 503, () => Promise.resolve(false)],
    ['throws', 503, () => Promise.reject(new Error('connection refused'))],
  ])('when the ping %s, then %i', async (_, status, ping) => {
    const app = await serve(ping);
    try {
      expect((await app.get('/readyz')).status).toBe(status);
      expect((await app.get('/healthz')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('when the ping never answers, then 503 SERVICE_UNAVAILABLE within 2 s, and /healthz still 200', async () => {
    const app = await serve(() => new Promise<boolean>(() => undefined));
    try {
      const ready = await app.get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ success: false, error: 'SERVICE_UNAVAILABLE' });
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(ready.ms).toBeLessThan(2000);
      expect((await app.get('/healthz')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('a request whose database is unavailable', () => {
  const unanswered = () => new Error('Query read timeout'); // pg, past DB_QUERY_TIMEOUT_MS
  const noConnection = () => new Error('timeout exceeded when trying to connect'); // pg-pool, past DB_CONNECT_TIMEOUT_MS
  const cut = () => new Error('Connection terminated unexpectedly'); // pg, the server or the network ended it
  const shuttingDown = () =>
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  it.each([
    ['a statement was not answered in time', unanswered],
    ['no connection, for a statement or a transaction, came in time', noConnection],
    ['the connection was cut', cut],
    ['the server is shutting down', shuttingDown],
    ['the connection was refused', refused],
  ])('when %s, then 503 SERVICE_UNAVAILABLE with Retry-After, never the driver text', async (_, failure) => {
    const app = await serve(async () => true, failure);
    try {
      const res = await app.get('/thing');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, error: 'SERVICE_UNAVAILABLE' });
      expect(JSON.stringify(res.body)).not.toContain(failure().message);
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await app.close();
    }
  });
});
