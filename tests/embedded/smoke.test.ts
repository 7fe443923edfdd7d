/**
 * The embedded database's smoke suite. Every other database suite runs on PostgreSQL (TEST_STORAGES
 * names others); PGlite is the same engine compiled to WebAssembly, but it holds one connection, so
 * statements and transactions queue behind one another, and `db.jobs` is the same connection. Here each
 * family of writes runs once through the front-ends on a PGlite copy (tests/support/pglite-copies.ts): a
 * statement that waited on itself, or SQL PGlite does not take, fails here. The started process on the
 * embedded database is in tests/e2e (embedded, compiled, data-dir-lock).
 */
import request from 'supertest';
import { issueLenderKey } from '@loanmatch/domain';
import { createDispatcher, createMetrics } from '@loanmatch/http';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { createAdminApp } from '../../apps/server/src/admin/app';
import {
  VALID_STEPS,
  countRows,
  createTestContext,
  flatApplication,
  silentLogger,
  startWebhookReceiver,
  storedRow,
  validApplicant,
  type TestContext,
  type WebhookReceiver,
} from '../support';

const A = '/api/partner/v1';
const B = '/v1';
const ADMIN_TOKEN = 'lm_admin_smoke-0123456789abcdef';
const JWT_SECRET = 'smoke-jwt-secret-0123456789abcdef0123456789';

describe('the embedded database (PGlite), each family of writes once', () => {
  let t: TestContext;
  let apps: {
    a: ReturnType<typeof createPartnerAApp>;
    b: ReturnType<typeof createPartnerBApp>;
    admin: ReturnType<typeof createAdminApp>;
  };
  let receiver: WebhookReceiver;
  let partner: { partnerId: string; apiKey: string };
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  const key = () => ({ Authorization: `Bearer ${partner.apiKey}` });

  // The run's first PGlite database makes the migrated folder the others copy: initdb and every
  // migration in WebAssembly, half a minute on a loaded machine.
  beforeAll(async () => {
    [t, receiver] = await Promise.all([createTestContext('pglite'), startWebhookReceiver()]);
    const metrics = createMetrics({ database: { kind: t.db.kind, pool: t.db.poolStats } });
    const ctx = { ...t.ctx, metrics };
    const ping = () => t.db.ping();
    apps = {
      a: createPartnerAApp({ ctx, logger: silentLogger, ping, rateLimitPerMinute: 10_000, metrics }),
      b: createPartnerBApp({ ctx, logger: silentLogger, ping, jwt: { secret: JWT_SECRET }, metrics }),
      admin: createAdminApp({ ctx, logger: silentLogger, ping, adminToken: ADMIN_TOKEN, metrics }),
    };
    const created = await request(apps.admin)
      .post('/admin/v1/partners')
      .set(admin)
      .send({ name: 'Embedded', tier: 'enterprise' });
    expect(created.status).toBe(201);
    partner = created.body.data;
  }, 120_000);
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  /** A personal application through steps 1-4 and an excellent check; answers its id. */
  async function checkedApplication(): Promise<string> {
    const created = await request(apps.a)
      .post(`${A}/applications`)
      .set(key())
      .send({ formType: 'personal', data: VALID_STEPS.personal[1] });
    expect(created.status).toBe(201);
    const id = created.body.data.applicationId;
    for (const step of [2, 3, 4] as const) {
      const saved = await request(apps.a)
        .patch(`${A}/applications/${id}`)
        .set(key())
        .send({ step, data: VALID_STEPS.personal[step] });
      expect(saved.status).toBe(200);
    }
    const checked = await request(apps.a)
      .post(`${A}/applications/${id}/credit-check`)
      .set({ ...key(), 'Idempotency-Key': `check-${id}`, 'X-Sandbox-Score': 'excellent' })
      .send({ data: validApplicant() });
    expect(checked.status).toBe(200);
    return id;
  }

  it('when Variant A takes an application to a followed offer and the lender reports it funded, then the partner’s report counts the loan', async () => {
    const id = await checkedApplication();
    const matched = await request(apps.a).post(`${A}/applications/${id}/match`).set(key());
    expect(matched.status).toBe(200);
    const offer = matched.body.data.acceptedOffers[0];
    const followed = await request(apps.a).get(new URL(offer.trackingUrl).pathname);
    expect(followed.status).toBe(302);
    const reference = new URL(followed.headers.location).searchParams.get('lm_ref');

    const issued = await issueLenderKey(t.ctx, { lenderId: offer.lender.id, body: {} });
    if (!issued.ok) throw issued.error;
    const at = new Date(Date.now() - 60_000).toISOString();
    const funded = await request(apps.a)
      .post('/api/lender/v1/outcomes')
      .set({ Authorization: `Bearer ${issued.value.apiKey}` })
      .send({ reference, eventId: 'smoke-1', type: 'funded', occurredAt: at, fundedAmount: 18_000, fundedAt: at });
    expect(funded.status).toBe(201);

    const report = await request(apps.a).get(`${A}/reports/referrals?groupBy=lender`).set(key());
    expect(report.status).toBe(200);
    expect(report.body.data.rows).toEqual([
      expect.objectContaining({ group: offer.lender.id, referrals: 1, funded: 1, fundedAmount: 18_000 }),
    ]);
    expect((await request(apps.a).get(`${A}/applications/${id}`).set(key())).body.data.status).toBe('referred');
  });

  it('when creates with one Idempotency-Key arrive at once, then one application is made, and a replay answers it again', async () => {
    const before = await countRows(t.db, 'applications', { partnerId: partner.partnerId });
    const create = () =>
      request(apps.a)
        .post(`${A}/applications`)
        .set({ ...key(), 'Idempotency-Key': 'smoke-at-once' })
        .send({ formType: 'car', data: VALID_STEPS.car[1] });
    const answers = await Promise.all(Array.from({ length: 6 }, create));
    expect(await countRows(t.db, 'applications', { partnerId: partner.partnerId })).toBe(before + 1);
    for (const res of answers) expect([201, 409]).toContain(res.status);
    const replay = await create();
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
  });

  it('when Variant B creates, checks and matches, then offers come with tracking links', async () => {
    const token = await request(apps.b)
      .post(`${B}/auth/token`)
      .set('X-API-Key', partner.apiKey)
      .send({ grantType: 'api_key' });
    expect(token.status).toBe(200);
    const auth = { Authorization: `Bearer ${token.body.data.accessToken}` };
    const created = await request(apps.b).post(`${B}/applications`).set(auth).send(flatApplication());
    expect(created.status).toBe(201);
    const { applicationId, securityToken } = created.body.data;
    const checked = await request(apps.b)
      .post(`${B}/applications/${applicationId}/credit-check`)
      .set({ ...auth, 'X-Sandbox-Score': 'excellent' })
      .send({ securityToken, dateOfBirth: '14/07/1988' });
    expect(checked.status).toBe(200);
    const matched = await request(apps.b)
      .post(`${B}/applications/${applicationId}/match`)
      .set(auth)
      .send({ securityToken });
    expect(matched.status).toBe(200);
    expect(matched.body.data.acceptedOffers[0].trackingUrl).toContain('/r/');
  });

  it('when a webhook is registered, then the dispatcher sends each status change, in order', async () => {
    const registered = await request(apps.a)
      .post(`${A}/webhooks`)
      .set(key())
      .send({ url: `${receiver.origin}/smoke` });
    expect(registered.status).toBe(201);
    const id = await checkedApplication();
    const dispatcher = createDispatcher({ ctx: t.ctx, pollMs: 50 });
    dispatcher.start();
    const got = await receiver.waitFor(3, { filter: (r) => r.path === '/smoke' }).finally(() => dispatcher.stop());
    expect(got.map((r) => JSON.parse(r.body).data)).toEqual([
      { applicationId: id, status: 'draft', previousStatus: null, lastStep: 1 },
      { applicationId: id, status: 'in_progress', previousStatus: 'draft', lastStep: 2 },
      { applicationId: id, status: 'credit_checked', previousStatus: 'in_progress', lastStep: 5 },
    ]);
  });

  it('when an operator erases an application’s personal data, then its row holds none, and the application still reads', async () => {
    const id = await checkedApplication();
    const erased = await request(apps.admin).delete(`/admin/v1/applications/${id}/personal-data`).set(admin);
    expect(erased.status).toBe(200);
    expect(await storedRow(t.db, 'applicants', { applicationId: id })).toMatchObject({
      detailsSealed: null,
      keyId: null,
    });
    expect((await request(apps.a).get(`${A}/applications/${id}`).set(key())).status).toBe(200);
  });

  it('when scraped, then the metrics name the embedded database and report no pool', async () => {
    const scraped = await request(apps.admin).get('/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.text).toMatch(/^loanmatch_db_info\{kind="pglite"\} 1$/m);
    expect(scraped.text).not.toContain('loanmatch_db_pool_');
  });
});
