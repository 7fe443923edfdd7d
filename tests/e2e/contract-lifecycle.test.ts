/**
 * Retiring a contract across processes: two Variant A processes and an admin process on one PostgreSQL
 * database. A brownout scheduled on the admin process starts and ends within 5 s of its window on both,
 * and the requests each process counted reach the usage report once they stop.
 */
import { createTestContext, type TestContext } from '../support';
import { api, clusterSecrets, startServer, tempDataDir, type Started } from './process';

jest.setTimeout(90_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a brownout on two Variant A processes and an admin process on one PostgreSQL', () => {
  let test: TestContext & { url?: string };
  const started: Started[] = [];
  const secrets = clusterSecrets();

  beforeAll(async () => {
    test = await createTestContext('postgresql');
    const env = { DATABASE_URL: test.url!, ...secrets, DB_POOL_SIZE: '4', WEBHOOK_DISPATCHER: 'off' };
    started.push(
      ...(await Promise.all(
        ['admin', 'a', 'a'].map((mode) => startServer({ mode, env: { ...env, DATA_DIR: tempDataDir() } })),
      )),
    );
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
    await test?.close();
  });

  it('when a brownout is scheduled, then both processes answer 410 within 5 s of its start and 200 within 5 s of its end', async () => {
    const [ADMIN, A1, A2] = [started[0].urls['Admin API'], started[1].urls['Variant A'], started[2].urls['Variant A']];
    const admin = (method: string, path: string, body?: unknown) =>
      api(ADMIN, method, path, { key: secrets.ADMIN_TOKEN, body });
    const partner = (await admin('POST', '/partners', { name: 'Legacy' })).body.data;
    let requests = 0;
    const consents = (base: string) => {
      requests++;
      return api(base, 'GET', '/consents', { key: partner.apiKey });
    };
    expect((await consents(A1)).status).toBe(200);
    expect((await consents(A2)).status).toBe(200);

    const from = Date.now() + 3000;
    const to = from + 6000;
    const window = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
    expect((await admin('POST', '/contracts/A/brownouts', window)).status).toBe(201);

    // Each process's answers every 100 ms, with when they came, until 5 s after the window.
    const timelines = await Promise.all(
      [A1, A2].map(async (base) => {
        const seen: Array<{ at: number; status: number }> = [];
        while (Date.now() < to + 5500) {
          const { status } = await consents(base);
          seen.push({ at: Date.now(), status });
          await sleep(100);
        }
        return seen;
      }),
    );
    for (const seen of timelines) {
      const refused = seen.filter((s) => s.status === 410);
      expect(seen.every((s) => s.status === 200 || s.status === 410)).toBe(true);
      // No 410 before the window; the first within 5 s of its start; none 5 s after its end.
      expect(refused[0].at).toBeGreaterThanOrEqual(from);
      expect(refused[0].at).toBeLessThanOrEqual(from + 5000);
      expect(refused[refused.length - 1].at).toBeLessThan(to + 5000);
      expect(seen[seen.length - 1].status).toBe(200);
    }

    // SIGTERM drains: each process writes the counts it holds before it exits.
    expect(await started[1].stop('SIGTERM')).toBe(0);
    expect(await started[2].stop('SIGTERM')).toBe(0);
    const report = await admin('GET', '/reports/contract-usage');
    expect(report.body.data.rows).toEqual([
      { partnerId: partner.partnerId, partnerName: 'Legacy', contract: 'A', requests, lastSeenAt: expect.any(String) },
    ]);
  });
});
