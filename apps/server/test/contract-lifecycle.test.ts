/**
 * Retiring a contract as partners see it, on both front-ends: the Deprecation, Link and Sunset headers,
 * 410 CONTRACT_RETIRED in a brownout and after the sunset (never on the health checks, documents,
 * tracking redirect or lender routes), the deprecated document, and carrying an application from A to B.
 */
import request from 'supertest';
import { createContractLifecycles, createPartner, type DomainContext } from '@loanmatch/domain';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { createContractUsage } from '@loanmatch/http';
import {
  ONE_STORAGE,
  VALID_STEPS,
  countRows,
  createTestContext,
  silentLogger,
  type TestContext,
} from '../../../tests/support';
import { createAnswerChecker } from '../../../tests/support/openapi';
import { lenderKey } from '../../partner-a/test/lifecycle-helpers';
import { createAdminApp } from '../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';
const GUIDE = 'https://partners.example.com/migrating-to-variant-b';
const A = '/api/partner/v1';
const B = '/v1';

async function newPartner(ctx: DomainContext, name: string) {
  const created = await createPartner(ctx, { body: { name, tier: 'enterprise' } });
  if (!created.ok) throw created.error;
  return created.value;
}

describe(`retiring a contract, as partners see it, on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let lifecycles: ReturnType<typeof createContractLifecycles>;
  let appA: ReturnType<typeof createPartnerAApp>;
  let appB: ReturnType<typeof createPartnerBApp>;
  let admin: ReturnType<typeof createAdminApp>;
  let mine: Awaited<ReturnType<typeof newPartner>>;
  let other: Awaited<ReturnType<typeof newPartner>>;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    const deps = { ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping() };
    lifecycles = createContractLifecycles(t.db);
    appA = createPartnerAApp({ ...deps, rateLimitPerMinute: 10_000, lifecycles });
    appB = createPartnerBApp({
      ...deps,
      jwt: { secret: 'test-jwt-secret-for-variant-b-0123456789abcdef' },
      tierLimits: { perHour: async () => 1_000_000 },
      lifecycles,
    });
    admin = createAdminApp({ ...deps, adminToken: TOKEN });
    [mine, other] = [await newPartner(t.ctx, 'Mine'), await newPartner(t.ctx, 'Other')];
  });
  afterAll(() => t.close());

  /** An admin call, then this process's copy read again (other processes read theirs within two seconds). */
  async function operator(method: 'put' | 'post' | 'delete', path: string, body?: object) {
    const res = await request(admin)[method](`/admin/v1${path}`).set('Authorization', `Bearer ${TOKEN}`).send(body);
    expect(res.status).toBeLessThan(300);
    await lifecycles.refresh();
    return res.body.data;
  }
  const onA = (apiKey: string, path: string) =>
    request(appA).get(`${A}${path}`).set('Authorization', `Bearer ${apiKey}`);
  async function onB(apiKey: string) {
    const token = await request(appB).post(`${B}/auth/token`).set('X-API-Key', apiKey).send({ grantType: 'api_key' });
    const auth = { Authorization: `Bearer ${token.body.data?.accessToken}` };
    return {
      token,
      get: (path: string) => request(appB).get(`${B}${path}`).set(auth),
      post: (path: string, body: object) => request(appB).post(`${B}${path}`).set(auth).send(body),
    };
  }
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

  it('when a schedule changes while a process is idle, then its first request after two seconds is told the change', async () => {
    let now = Date.now();
    const copy = createContractLifecycles(t.db, { now: () => now });
    expect((await copy.statusOf('A', other.partnerId, now)).headers).toEqual([]);
    await operator('put', `/partners/${other.partnerId}/contracts/A/lifecycle`, { deprecatedAt: ago(1000) });
    now += 1999;
    expect((await copy.statusOf('A', other.partnerId, now)).headers).toEqual([]);
    now += 1;
    expect((await copy.statusOf('A', other.partnerId, now)).headers.map(([name]) => name)).toEqual(['Deprecation']);
    await operator('delete', `/partners/${other.partnerId}/contracts/A/lifecycle`);
  });

  it('when nothing is scheduled, then no answer carries Deprecation, Link or Sunset', async () => {
    const res = await onA(mine.apiKey, '/consents');
    expect(res.status).toBe(200);
    for (const name of ['deprecation', 'link', 'sunset']) expect(res.headers[name]).toBeUndefined();
  });

  it('when A is deprecated for one partner, then its every A answer, errors included, carries the headers; B and other partners not', async () => {
    const deprecatedAt = '2026-11-01T00:00:00.000Z';
    await operator('put', `/partners/${mine.partnerId}/contracts/A/lifecycle`, {
      deprecatedAt,
      sunsetAt: '2099-06-30T00:00:00Z',
      link: GUIDE,
    });
    const answers = [
      await onA(mine.apiKey, '/consents'),
      await onA(mine.apiKey, '/applications/6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d'),
      await request(appA)
        .post(`${A}/applications`)
        .set({ Authorization: `Bearer ${mine.apiKey}`, 'Content-Type': 'application/json' })
        .send('{'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 400]);
    for (const res of answers) {
      expect(res.headers.deprecation).toBe(`@${Date.parse(deprecatedAt) / 1000}`);
      expect(res.headers.link).toBe(`<${GUIDE}>; rel="deprecation"`);
      expect(res.headers.sunset).toBe('Tue, 30 Jun 2099 00:00:00 GMT');
    }
    expect((await onA(other.apiKey, '/consents')).headers.deprecation).toBeUndefined();
    const b = await onB(mine.apiKey);
    expect(b.token.headers.deprecation).toBeUndefined();
    expect((await b.get('/consents')).headers.deprecation).toBeUndefined();
    // A schedule set for a later day says nothing until then, but its sunset is announced.
    await operator('put', `/partners/${mine.partnerId}/contracts/A/lifecycle`, {
      deprecatedAt: '2099-01-01T00:00:00Z',
    });
    expect((await onA(mine.apiKey, '/consents')).headers.deprecation).toBeUndefined();
    await operator('delete', `/partners/${mine.partnerId}/contracts/A/lifecycle`);
  });

  it('when B is deprecated for every partner, then the token exchange and every B answer carry it, and its document says so', async () => {
    await operator('put', '/contracts/B/lifecycle', { deprecatedAt: ago(60_000), link: GUIDE });
    for (const partner of [mine, other]) {
      const b = await onB(partner.apiKey);
      expect(b.token.headers.link).toBe(`<${GUIDE}>; rel="deprecation"`);
      expect((await b.get('/referrals')).headers.deprecation).toMatch(/^@\d+$/);
      expect((await b.get('/applications/nope')).headers.deprecation).toMatch(/^@\d+$/);
    }
    const document = (await request(appB).get('/openapi.json')).body;
    expect(document.info.description).toMatch(/^\*\*Deprecated\*\* since .*The migration guide: https:/);
    expect(document.paths['/applications'].post.deprecated).toBe(true);
    expect(document.paths['/healthz'].get.deprecated).toBeUndefined();
    expect((await request(appA).get('/openapi.json')).body.paths['/applications'].post.deprecated).toBeUndefined();
    await operator('delete', '/contracts/B/lifecycle');
    expect((await request(appB).get('/openapi.json')).body.paths['/applications'].post.deprecated).toBeUndefined();
  });

  it('when an application made on A is carried over to B, then it goes on to offers and a referral there, and the previous token stops working', async () => {
    const auth = { Authorization: `Bearer ${mine.apiKey}` };
    const created = await request(appA)
      .post(`${A}/applications`)
      .set(auth)
      .send({ formType: 'personal', data: VALID_STEPS.personal[1] });
    const id = created.body.data.applicationId;
    for (const step of [2, 3, 4] as const)
      await request(appA).patch(`${A}/applications/${id}`).set(auth).send({ step, data: VALID_STEPS.personal[step] });

    const b = await onB(mine.apiKey);
    const first = await b.post(`/applications/${id}/security-token`, {});
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ securityToken: expect.stringMatching(/^st_[A-Za-z0-9_-]{43}$/) });
    const { securityToken } = (await b.post(`/applications/${id}/security-token`, {})).body.data;
    const stale = await b.post(`/applications/${id}/match`, { securityToken: first.body.data.securityToken });
    expect(stale.status).toBe(403);
    expect(stale.body.error).toBe('INVALID_SECURITY_TOKEN');
    // Another partner's application, or none: 404.
    expect((await (await onB(other.apiKey)).post(`/applications/${id}/security-token`, {})).status).toBe(404);

    // Variant A took the applicant's identity with the check; on B it is a PATCH of its own, before the check.
    const identity = { firstName: 'Jordan', lastName: 'Citizen', email: 'jordan@example.com', phone: '0412345678' };
    const patched = await request(appB)
      .patch(`${B}/applications/${id}`)
      .set('Authorization', `Bearer ${b.token.body.data.accessToken}`)
      .send({ securityToken, ...identity });
    expect(patched.status).toBe(200);
    const checked = await request(appB)
      .post(`${B}/applications/${id}/credit-check`)
      .set('Authorization', `Bearer ${b.token.body.data.accessToken}`)
      .set({ 'Idempotency-Key': `carry-${id}`, 'X-Sandbox-Score': 'excellent' })
      .send({ securityToken, dateOfBirth: '1988-07-14', consentCreditCheck: true });
    expect([checked.status, checked.body.message]).toEqual([200, undefined]);
    const matched = await b.post(`/applications/${id}/match`, { securityToken });
    expect(matched.status).toBe(200);
    const offer = matched.body.data.acceptedOffers[0];
    const followed = await request(appA).get(new URL(offer.trackingUrl).pathname);
    expect(followed.status).toBe(302);
    const referrals = await b.get('/referrals');
    expect(referrals.body.data.referrals).toEqual([expect.objectContaining({ applicationId: id })]);

    // In a brownout of both contracts, the applicant still reaches the lender and the lender still reports.
    const window = { from: ago(1000), to: new Date(Date.now() + 3_600_000).toISOString() };
    const brownouts = [
      await operator('post', '/contracts/A/brownouts', window),
      await operator('post', '/contracts/B/brownouts', window),
    ];
    expect((await request(appA).get(new URL(offer.trackingUrl).pathname)).status).toBe(302);
    const reference = new URL(followed.headers.location).searchParams.get('lm_ref');
    const outcome = await request(appA)
      .post('/api/lender/v1/outcomes')
      .set('Authorization', `Bearer ${await lenderKey(t.ctx, offer.lender.id)}`)
      .send({
        reference,
        eventId: 'evt-carried-over',
        type: 'application_started',
        occurredAt: new Date().toISOString(),
      });
    expect(outcome.status).toBe(201);
    expect(outcome.headers.deprecation).toBeUndefined();
    for (const b of brownouts) await operator('delete', `/contracts/${b.contract}/brownouts/${b.brownoutId}`);
  });

  it('when a car application made on A is carried over, then B takes its identity, checks and matches it', async () => {
    const auth = { Authorization: `Bearer ${other.apiKey}` };
    const created = await request(appA)
      .post(`${A}/applications`)
      .set(auth)
      .send({ formType: 'car', data: VALID_STEPS.car[1] });
    const id = created.body.data.applicationId;
    for (const step of [2, 3, 4] as const)
      await request(appA).patch(`${A}/applications/${id}`).set(auth).send({ step, data: VALID_STEPS.car[step] });
    const b = await onB(other.apiKey);
    const { securityToken } = (await b.post(`/applications/${id}/security-token`, {})).body.data;
    const identity = { firstName: 'Sam', lastName: 'Driver', email: 'sam@example.com', phone: '0412345678' };
    const patched = await request(appB)
      .patch(`${B}/applications/${id}`)
      .set('Authorization', `Bearer ${b.token.body.data.accessToken}`)
      .send({ securityToken, ...identity });
    expect(patched.status).toBe(200);
    const checked = await b.post(`/applications/${id}/credit-check`, { securityToken, consentCreditCheck: true });
    expect(checked.status).toBe(200);
    const matched = await b.post(`/applications/${id}/match`, { securityToken });
    expect(matched.status).toBe(200);
    expect((await onA(other.apiKey, `/applications/${id}`)).body.data).toMatchObject({
      formType: 'car',
      status: 'matched',
    });
  });

  it('when a brownout covers now, then the partner’s calls answer 410 CONTRACT_RETIRED naming the other contract and the guide, until it is cancelled', async () => {
    await operator('put', '/contracts/A/lifecycle', { deprecatedAt: ago(60_000), link: GUIDE });
    const window = { from: ago(1000), to: new Date(Date.now() + 600_000).toISOString(), partnerId: mine.partnerId };
    const brownout = await operator('post', '/contracts/A/brownouts', window);

    const refused = await onA(mine.apiKey, '/consents');
    expect(refused.status).toBe(410);
    expect(refused.body).toMatchObject({ success: false, error: 'CONTRACT_RETIRED' });
    expect(refused.body.message).toBe(
      `Variant A is in a scheduled brownout until ${window.to} as it is being retired: move to Variant B; see ${GUIDE}`,
    );
    expect(refused.headers.deprecation).toMatch(/^@\d+$/);
    // The deprecated document lists the 410 on every operation: the answer is what it says.
    const document = (await request(appA).get('/openapi.json')).body;
    const answer = { method: 'GET', path: `${A}/consents`, status: 410, headers: refused.headers, body: refused.body };
    expect(createAnswerChecker(document)(answer)).toEqual([]);
    expect((await onA(other.apiKey, '/consents')).status).toBe(200);
    expect((await (await onB(mine.apiKey)).get('/consents')).status).toBe(200);
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs']) {
      const res = await request(appA).get(path).set('Authorization', `Bearer ${mine.apiKey}`);
      expect([path, res.status]).toEqual([path, 200]);
    }
    await operator('delete', `/contracts/A/brownouts/${brownout.brownoutId}`);
    expect((await onA(mine.apiKey, '/consents')).status).toBe(200);
    await operator('delete', '/contracts/A/lifecycle');
  });

  it('when the sunset has passed for a partner, then every call on that contract is 410 and the other contract answers', async () => {
    await operator('put', `/partners/${other.partnerId}/contracts/B/lifecycle`, {
      deprecatedAt: '2026-01-01T00:00:00Z',
      sunsetAt: ago(1000),
      link: GUIDE,
    });
    const b = await onB(other.apiKey);
    expect(b.token.status).toBe(410);
    expect(b.token.body.message).toMatch(/^Variant B was retired on .*: move to Variant A; see https:/);
    expect(b.token.headers.sunset).toBeDefined();
    expect((await onB(mine.apiKey)).token.status).toBe(200);
    expect((await onA(other.apiKey, '/referrals')).status).toBe(200);
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs'])
      expect([path, (await request(appB).get(path)).status]).toEqual([path, 200]);
    await operator('delete', `/partners/${other.partnerId}/contracts/B/lifecycle`);
  });

  it('when A is retired for every partner but one partner has its own schedule, then that partner’s calls still answer', async () => {
    await operator('put', '/contracts/A/lifecycle', { sunsetAt: ago(1000), link: GUIDE });
    await operator('put', `/partners/${mine.partnerId}/contracts/A/lifecycle`, { deprecatedAt: ago(60_000) });
    const kept = await onA(mine.apiKey, '/consents');
    expect(kept.status).toBe(200);
    expect(kept.headers.deprecation).toMatch(/^@\d+$/);
    expect(kept.headers.sunset).toBeUndefined();
    expect((await onA(other.apiKey, '/consents')).status).toBe(410);
    // Cleared, the partner follows the every-partner schedule again.
    await operator('delete', `/partners/${mine.partnerId}/contracts/A/lifecycle`);
    expect((await onA(mine.apiKey, '/consents')).status).toBe(410);
    await operator('delete', '/contracts/A/lifecycle');
    expect((await onA(mine.apiKey, '/consents')).status).toBe(200);
  });

  it('when partners call, then each call is counted in memory and written only when the counts are flushed', async () => {
    const contractUsage = createContractUsage(t.db, { flushMs: 60_000 });
    const counted = createPartnerAApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: () => t.db.ping(),
      rateLimitPerMinute: 10_000,
      lifecycles,
      contractUsage,
    });
    const window = { from: ago(1000), to: new Date(Date.now() + 600_000).toISOString(), partnerId: other.partnerId };
    const brownout = await operator('post', '/contracts/A/brownouts', window);
    const statuses = [];
    for (const apiKey of [mine.apiKey, mine.apiKey, other.apiKey])
      statuses.push((await request(counted).get(`${A}/consents`).set('Authorization', `Bearer ${apiKey}`)).status);
    expect(statuses).toEqual([200, 200, 410]);
    expect(await countRows(t.db, 'contract_usage')).toBe(0);
    await contractUsage.close();
    const rows = await t.db.query<{ partnerId: string; requests: string }>(
      'SELECT partner_id AS "partnerId", requests FROM contract_usage WHERE contract = $1 ORDER BY requests',
      ['A'],
    );
    expect(rows.map((r) => [r.partnerId, Number(r.requests)])).toEqual([
      [other.partnerId, 1],
      [mine.partnerId, 2],
    ]);
    await operator('delete', `/contracts/A/brownouts/${brownout.brownoutId}`);
  });

  it('when the schedules cannot be read, then the document is still served as built', async () => {
    const unreadable = { ...lifecycles, scheduleOf: () => Promise.reject(new Error('connection terminated')) };
    const app = createPartnerBApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: () => t.db.ping(),
      jwt: { secret: 'test-jwt-secret-for-variant-b-0123456789abcdef' },
      tierLimits: { perHour: async () => 1_000_000 },
      lifecycles: unreadable,
    });
    const res = await request(app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.paths['/applications'].post.deprecated).toBeUndefined();
  });
});
