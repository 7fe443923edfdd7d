import type { Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { ONE_STORAGE, createTestContext, silentLogger, type TestContext } from '../../../../tests/support';
import { createAdminApp, isLoopbackAddress } from '../../src/admin/app';

const TOKEN = 'lm_admin_loopback-test-token-0123456789';
const auth = { Authorization: `Bearer ${TOKEN}` };

/** The first IPv4 address of this machine that is not loopback: connecting to it makes a non-loopback peer. */
const REMOTE_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

describe('admin listener: loopback callers only', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.45.3.9', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::FFFF:127.1.2.3', true],
    ['192.0.2.2', false],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['fd00::2', false],
    ['::', false],
    ['0.0.0.0', false],
    ['128.0.0.1', false],
    ['::ffff:1.127.0.1', false],
    [undefined, false],
  ])('when the peer is %s, then loopback is %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });

  describe('on 0.0.0.0, called through this machine’s own addresses', () => {
    let t: TestContext;
    const servers: Server[] = [];

    beforeAll(async () => {
      t = await createTestContext(ONE_STORAGE);
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      await t.close();
    });

    async function listen(allowRemote: boolean | undefined): Promise<number> {
      const app = createAdminApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: () => t.db.ping(),
        adminToken: TOKEN,
        allowRemote,
      });
      const server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '0.0.0.0', () => resolve(s));
      });
      servers.push(server);
      return (server.address() as { port: number }).port;
    }

    const call = async (host: string, port: number, path: string, headers: Record<string, string> = auth) => {
      const res = await fetch(`http://${host}:${port}${path}`, { headers });
      return {
        status: res.status,
        body: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined,
      };
    };

    it('when a loopback caller has no token or a wrong one, then 401; with the token, 200', async () => {
      const port = await listen(undefined);
      expect((await call('127.0.0.1', port, '/admin/v1/partners', {})).status).toBe(401);
      expect(
        (await call('127.0.0.1', port, '/admin/v1/partners', { Authorization: 'Bearer not-the-token-0123456789abc' }))
          .status,
      ).toBe(401);
      expect((await call('127.0.0.1', port, '/admin/v1/partners')).status).toBe(200);
    });

    (REMOTE_ADDRESS ? it : it.skip)(
      `when a caller comes through ${REMOTE_ADDRESS ?? 'a non-loopback address (none on this machine: skipped)'}, then 403 FORBIDDEN by default, token or not, whatever X-Forwarded-For says`,
      async () => {
        const port = await listen(undefined);
        for (const headers of [auth, {}, { ...auth, 'X-Forwarded-For': '127.0.0.1', 'X-Real-IP': '127.0.0.1' }]) {
          for (const path of [
            '/admin/v1/partners',
            '/admin/v1/applications/00000000-0000-4000-8000-000000000000/personal-data',
            '/admin/v1/nowhere',
          ]) {
            const res = await call(REMOTE_ADDRESS!, port, path, headers);
            expect(res.status).toBe(403);
            expect(res.body).toEqual({
              success: false,
              error: 'FORBIDDEN',
              message: expect.stringContaining('ADMIN_ALLOW_REMOTE=on'),
            });
          }
        }
        // The health checks say only up or down, and answer any caller (load balancers, orchestrators).
        expect((await call(REMOTE_ADDRESS!, port, '/healthz', {})).status).toBe(200);
        expect((await call('127.0.0.1', port, '/admin/v1/partners')).status).toBe(200);
      },
    );

    (REMOTE_ADDRESS ? it : it.skip)(
      'when ADMIN_ALLOW_REMOTE is on, then a remote caller with the token is answered, and without it still gets 401',
      async () => {
        const port = await listen(true);
        expect((await call(REMOTE_ADDRESS!, port, '/admin/v1/partners')).status).toBe(200);
        expect((await call(REMOTE_ADDRESS!, port, '/admin/v1/partners', {})).status).toBe(401);
      },
    );
  });
});
