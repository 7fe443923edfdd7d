/**
 * The funnel operators see (`GET /admin/v1/reports/funnel`: applications, credit checks, matches, referrals
 * and funded loans in a window of days), and its per-partner and per-lender companions that the console draws.
 */
import request from 'supertest';
import { createPartner, issueLenderKey } from '@loanmatch/domain';
import { createPartnerAApp } from '@loanmatch/partner-a';
import {
  ONE_STORAGE,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  validApplicant,
  type TestContext,
} from '../../../../tests/support';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';
const A = '/api/partner/v1';

describe(`the operators' funnel on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let admin: ReturnType<typeof createAdminApp>;
  let a: ReturnType<typeof createPartnerAApp>;
  const partners: Record<string, { partnerId: string; apiKey: string }> = {};
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const get = (path: string) => request(admin).get(`/admin/v1${path}`).set(auth);

  /** Through Variant A: an application to step 4; then, as far as `stage` says, its check, match and first offer followed. */
  async function application(apiKey: string, stage: 'created' | 'checked' | 'matched' | 'referred') {
    const as = { Authorization: `Bearer ${apiKey}` };
    const id = (
      await request(a).post(`${A}/applications`).set(as).send({ formType: 'personal', data: VALID_STEPS.personal[1] })
    ).body.data.applicationId;
    for (const step of [2, 3, 4])
      await request(a)
        .patch(`${A}/applications/${id}`)
        .set(as)
        .send({ step, data: VALID_STEPS.personal[step as 2] });
    if (stage === 'created') return undefined;
    await request(a)
      .post(`${A}/applications/${id}/credit-check`)
      .set(as)
      .set({ 'Idempotency-Key': `c-${id}`, 'X-Sandbox-Score': 'excellent' })
      .send({ data: validApplicant() });
    if (stage === 'checked') return undefined;
    const offer = (await request(a).post(`${A}/applications/${id}/match`).set(as)).body.data.acceptedOffers[0];
    if (stage === 'matched') return undefined;
    const followed = await request(a).get(new URL(offer.trackingUrl).pathname);
    return {
      lenderId: offer.lender.id as string,
      reference: new URL(followed.headers.location).searchParams.get('lm_ref'),
    };
  }

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    admin = createAdminApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, adminToken: TOKEN });
    a = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    for (const name of ['North', 'South']) {
      const created = await createPartner(t.ctx, { body: { name } });
      if (!created.ok) throw created.error;
      partners[name] = created.value;
    }
    // North: one application at each stage; its referral is funded ($10,000).
    await application(partners.North.apiKey, 'created');
    await application(partners.North.apiKey, 'checked');
    await application(partners.North.apiKey, 'matched');
    const referral = await application(partners.North.apiKey, 'referred');
    const key = await issueLenderKey(t.ctx, { lenderId: referral!.lenderId, body: {} });
    if (!key.ok) throw key.error;
    const at = new Date(Date.now() - 60_000).toISOString();
    const funded = await request(a)
      .post('/api/lender/v1/outcomes')
      .set('Authorization', `Bearer ${key.value.apiKey}`)
      .send({
        reference: referral!.reference,
        eventId: 'f-1',
        type: 'funded',
        occurredAt: at,
        fundedAmount: 10_000,
        fundedAt: at,
      });
    expect(funded.status).toBe(201);
    // South: one application that was only created.
    await application(partners.South.apiKey, 'created');
  });
  afterAll(() => t.close());

  it('when the funnel of every partner is asked, then it counts each stage of the window and the funded amount and commission', async () => {
    const res = await get('/reports/funnel');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      applications: 5,
      creditChecks: 3,
      matches: 2,
      referrals: 1,
      funded: 1,
      fundedAmount: 10000,
      commission: expect.any(Number),
      duplicates: 0,
    });
    expect(res.body.data.commission).toBeGreaterThan(0);
  });

  it("when one partner's funnel is asked, then only its applications count", async () => {
    expect((await get(`/reports/funnel?partnerId=${partners.South.partnerId}`)).body.data).toEqual({
      applications: 1,
      creditChecks: 0,
      matches: 0,
      referrals: 0,
      funded: 0,
      fundedAmount: 0,
      commission: 0,
      duplicates: 0,
    });
  });

  it('when the window holds none of it, then every count is 0', async () => {
    expect((await get('/reports/funnel?from=2020-01-01&to=2020-01-31')).body.data).toMatchObject({
      applications: 0,
      referrals: 0,
      fundedAmount: 0,
    });
  });

  it('when the console asks per partner and per lender, then each partner has its funnel and each lender its referrals', async () => {
    const byPartner = (await get('/reports/funnel/partners')).body.data.partners;
    expect(byPartner.map((p: { name: string }) => p.name)).toEqual(['North', 'South']);
    expect(byPartner[0]).toMatchObject({
      partnerId: partners.North.partnerId,
      applications: 4,
      creditChecks: 3,
      matches: 2,
      referrals: 1,
      funded: 1,
    });
    expect(byPartner[1]).toMatchObject({ applications: 1, referrals: 0 });
    const byLender = (await get(`/reports/funnel/lenders?partnerId=${partners.North.partnerId}`)).body.data.lenders;
    expect(byLender).toEqual([
      expect.objectContaining({ referrals: 1, started: 1, approved: 1, funded: 1, fundedAmount: 10000 }),
    ]);
  });

  it.each([
    ['?partnerId=not-an-id', 400, 'partnerId: must be the id of a partner'],
    ['?partnerId=00000000-0000-4000-8000-000000000000', 404, 'Partner not found'],
    ['?from=2026-13-01', 400, 'from: must be a real date written YYYY-MM-DD'],
    ['?from=2026-02-01&to=2026-01-01', 400, 'from: must not be after to'],
  ])('when the funnel is asked with %s, then %s', async (query, status, message) => {
    const res = await get(`/reports/funnel${query}`);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message });
  });

  it('when no admin token is sent, then 401', async () => {
    expect((await request(admin).get('/admin/v1/reports/funnel')).status).toBe(401);
  });
});
