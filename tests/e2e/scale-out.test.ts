/**
 * Scale-out: `pnpm start:a` twice, `pnpm start:b` and `pnpm start:admin` as separate processes on one
 * PostgreSQL database and one Redis prefix. What a partner relies on must hold whichever process
 * serves a request. (Tier changes reaching two B processes within 5 s: tests/e2e/variant-b.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import {
  REDIS_URL,
  createTestContext,
  eventually,
  startWebhookReceiver,
  type TestContext,
  type WebhookReceiver,
} from '../support';
import { api, clusterSecrets, startServer, tempDataDir, tempRedisPrefix, type Started } from './process';

jest.setTimeout(90_000);

/** The error code of an error body, whichever envelope shape it has. */
const codeOf = (body: { error?: string | { code?: string } }) =>
  typeof body?.error === 'object' ? body.error?.code : body?.error;

describe('pnpm start:a (twice), start:b and start:admin on one PostgreSQL and one Redis', () => {
  let test: TestContext & { url?: string };
  let receiver: WebhookReceiver;
  const started: Started[] = [];
  const secrets = clusterSecrets();
  const adminToken = secrets.ADMIN_TOKEN;
  let A1: string;
  let A2: string;
  let B1: string;
  let ADMIN: string;

  /** A partner of its own for each test, made on the admin process. */
  async function newPartner(name: string): Promise<{ partnerId: string; apiKey: string }> {
    const res = await api(ADMIN, 'POST', '/partners', { key: adminToken, body: { name, tier: 'standard' } });
    expect(res.status).toBe(201);
    return res.body.data;
  }

  beforeAll(async () => {
    // Migrated and seeded here, as `pnpm db:migrate` and a first process leave a database: the processes
    // started together then neither load the schema engine nor queue behind one another to seed the catalogue.
    [test, receiver] = await Promise.all([createTestContext('postgresql'), startWebhookReceiver()]);
    const env = {
      DATABASE_URL: test.url!,
      REDIS_URL,
      REDIS_PREFIX: await tempRedisPrefix(),
      ...secrets,
      WEBHOOK_POLL_MS: '100',
      DB_POOL_SIZE: '4',
    };
    const modes = ['admin', 'a', 'a', 'b'];
    const starts = await Promise.allSettled(
      modes.map((mode) => startServer({ mode, env: { ...env, DATA_DIR: tempDataDir() } })),
    );
    for (const s of starts) if (s.status === 'fulfilled') started.push(s.value);
    const failed = starts.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const [admin, a1, a2, b1] = started;
    [ADMIN, A1, A2, B1] = [admin.urls['Admin API'], a1.urls['Variant A'], a2.urls['Variant A'], b1.urls['Variant B']];
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
    await receiver?.close();
    await test?.close();
  });

  it('when each is started alone, then it serves only its own listener', () => {
    expect(started.map((s) => Object.keys(s.urls))).toEqual([
      ['Admin API'],
      ['Variant A'],
      ['Variant A'],
      ['Variant B'],
    ]);
  });

  it('when twelve creates with one Idempotency-Key race over two A processes, then one application is made and every answer names it or says the first is in progress', async () => {
    const { partnerId, apiKey } = await newPartner('Racer');
    const body = { formType: 'personal', data: { loanAmount: 15000 } };
    for (const round of [1, 2, 3]) {
      const key = `race-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          api(i % 2 ? A2 : A1, 'POST', '/applications', { key: apiKey, body, headers: { 'Idempotency-Key': key } }),
        ),
      );
      const made = answers.filter((r) => r.status === 201);
      const waiting = answers.filter((r) => r.status === 409);
      expect(made.length + waiting.length).toBe(12);
      for (const r of waiting) expect(codeOf(r.body)).toBe('IDEMPOTENCY_IN_PROGRESS');
      expect(made.length).toBeGreaterThanOrEqual(1);
      expect(new Set(made.map((r) => r.body.data.applicationId)).size).toBe(1);
      expect(made.filter((r) => r.headers.get('idempotency-replayed') !== 'true')).toHaveLength(1);

      // Once settled, the key replays the same application on either process.
      const id = made[0].body.data.applicationId;
      for (const base of [A1, A2]) {
        const again = await api(base, 'POST', '/applications', {
          key: apiKey,
          body,
          headers: { 'Idempotency-Key': key },
        });
        expect([again.status, again.body.data.applicationId, again.headers.get('idempotency-replayed')]).toEqual([
          201,
          id,
          'true',
        ]);
      }
    }
    const rows = await test.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM applications WHERE partner_id = $1::uuid',
      [partnerId],
    );
    expect(rows[0].n).toBe(3);
  });

  it('when one key makes 120 requests in a minute spread over two A processes, then the 121st is refused whichever process serves it', async () => {
    const { apiKey } = await newPartner('Counter');
    const get = (base: string) => api(base, 'GET', `/applications/${randomUUID()}`, { key: apiKey });
    for (let sent = 0; sent < 120; sent += 12) {
      const batch = await Promise.all(Array.from({ length: 12 }, (_, i) => get(i % 2 ? A2 : A1)));
      expect(batch.map((r) => r.status)).toEqual(Array(12).fill(404));
    }
    for (const base of [A1, A2]) {
      const refused = await get(base);
      expect(refused.status).toBe(429);
      expect(codeOf(refused.body)).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('when a webhook is registered through B and applications are made on both A processes, then every event reaches the endpoint once, with a dispatcher in every process', async () => {
    const { apiKey } = await newPartner('Listener');
    const token = await api(B1, 'POST', '/auth/token', {
      headers: { 'X-API-Key': apiKey },
      body: { grantType: 'api_key' },
    });
    const registered = await api(B1, 'POST', '/webhooks', {
      key: token.body.data.accessToken,
      body: { url: `${receiver.origin}/spread` },
    });
    expect(registered.status).toBe(201);

    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await api(i % 2 ? A2 : A1, 'POST', '/applications', {
        key: apiKey,
        body: { formType: 'personal', data: { loanAmount: 5000 + i } },
      });
      expect(created.status).toBe(201);
      ids.push(created.body.data.applicationId);
    }
    const atSpread = (r: { path: string }) => r.path === '/spread';
    await receiver.waitFor(8, { filter: atSpread, timeoutMs: 15_000 });
    const log = await eventually(
      async () =>
        (await api(A2, 'GET', `/webhooks/${registered.body.data.webhookId}/deliveries`, { key: apiKey })).body.data,
      (l: { pending: number; deliveries: Array<{ status: string }> }) => l.pending === 0 && l.deliveries.length >= 8,
    );
    expect(log.pending).toBe(0);
    expect(log.deliveries.map((d: { status: string }) => d.status)).toEqual(Array(8).fill('succeeded'));

    // On SIGTERM each process stops claiming and finishes its attempts in flight: the endpoint then holds
    // every request there will be, so a duplicate would show. (The last test here: it stops the processes.)
    expect(await Promise.all(started.map((s) => s.stop('SIGTERM')))).toEqual([0, 0, 0, 0]);
    const got = receiver.received.filter(atSpread);
    expect(got).toHaveLength(8);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(8);
    expect(got.map((r) => JSON.parse(r.body).data.applicationId).sort()).toEqual([...ids].sort());
  });
});
