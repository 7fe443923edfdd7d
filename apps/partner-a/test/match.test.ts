import request from 'supertest';
import {
  STORAGES,
  TEST_PUBLIC_BASE_URL,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  countRows,
  type TestContext,
} from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { BASE, applicantBody, applicationThroughStep4, client, newPartnerKey, type Client } from './helpers';

const TWO_HOURS = 2 * 60 * 60 * 1000;

describe.each(STORAGES)('matching, tracking and referrals through Variant A on %s', (storage) => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let c: Client;
  let other: Client;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestContext(storage);
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    apiKey = (await newPartnerKey(t.ctx)).apiKey;
    c = client(app, apiKey);
    other = client(app, (await newPartnerKey(t.ctx, 'Other')).apiKey);
  });
  afterAll(() => t.close());

  const match = (cl: Client | string, id: string) =>
    request(app)
      .post(`${BASE}/applications/${id}/match`)
      .set('Authorization', `Bearer ${typeof cl === 'string' ? cl : apiKey}`);

  async function checkedApplication(type: 'personal' | 'car' | 'home', score: string): Promise<string> {
    const id = await applicationThroughStep4(c, type);
    const checked = await c.check(id, applicantBody(), `check-${id}`, score);
    expect(checked.status).toBe(200);
    return id;
  }

  it('when matching comes before the credit check, then 409 CREDIT_CHECK_REQUIRED', async () => {
    const id = await applicationThroughStep4(c, 'personal');
    const res = await match(c, id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('CREDIT_CHECK_REQUIRED');
  });

  it('when another partner matches the application, then 404 NOT_FOUND', async () => {
    const id = await checkedApplication('personal', 'good');
    const res = await request(app)
      .post(`${BASE}/applications/${id}/match`)
      .set('Authorization', `Bearer ${(await newPartnerKey(t.ctx)).apiKey}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NOT_FOUND');
    expect((await other.get(id)).status).toBe(404);
  });

  it.each(['personal', 'car', 'home'] as const)(
    'when a %s applicant with an excellent score matches, then offers carry the contract fields, ranked by comparison rate',
    async (type) => {
      const id = await checkedApplication(type, 'excellent');
      const res = await match(c, id);
      expect(res.status).toBe(200);
      const { acceptedOffers, nearMissOffers } = res.body.data;
      expect(Array.isArray(nearMissOffers)).toBe(true);
      expect(acceptedOffers.length).toBeGreaterThan(0);
      for (const offer of acceptedOffers) {
        expect(offer).toMatchObject({
          offerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          lender: { id: expect.any(String), name: expect.any(String) },
          product: { id: expect.any(String), name: expect.any(String) },
          headline: expect.any(String),
          // Variant A's application gave steps 1-4 before its check: every rule was assessed.
          certainty: 'pre_qualified',
          offerDetails: {
            interestRate: expect.any(Number),
            comparisonRate: expect.any(Number),
            loanAmount: expect.any(Number),
            loanTermMonths: expect.any(Number),
            monthlyRepayment: expect.any(Number),
            establishmentFee: expect.any(Number),
            monthlyFee: expect.any(Number),
          },
          conditions: [],
          trackingUrl: expect.stringMatching(new RegExp(`^${TEST_PUBLIC_BASE_URL}/r/[A-Za-z0-9_-]+$`)),
        });
        expect(offer).not.toHaveProperty('assumedLoanTermMonths');
        expect(offer.offerDetails.comparisonRate).toBeLessThanOrEqual(48);
        const expires = Date.parse(offer.expiresAt) - Date.now();
        expect(expires).toBeGreaterThan(TWO_HOURS - 60_000);
        expect(expires).toBeLessThanOrEqual(TWO_HOURS);
      }
      const ranks = acceptedOffers.map((o: { offerDetails: { comparisonRate: number; monthlyRepayment: number } }) => [
        o.offerDetails.comparisonRate,
        o.offerDetails.monthlyRepayment,
      ]);
      for (let i = 1; i < ranks.length; i++)
        expect(
          ranks[i][0] > ranks[i - 1][0] || (ranks[i][0] === ranks[i - 1][0] && ranks[i][1] >= ranks[i - 1][1]),
        ).toBe(true);
      expect((await c.get(id)).body.data.status).toBe('matched');
      expect(res.text).not.toMatch(/"(score|band)"/);
    },
  );

  it('when an excellent and a poor applicant match the same loan, then the excellent one gets more and cheaper offers and the poor one near-misses', async () => {
    const good = (await match(c, await checkedApplication('personal', 'excellent'))).body.data;
    const poor = (await match(c, await checkedApplication('personal', 'poor'))).body.data;
    expect(good.acceptedOffers.length).toBeGreaterThan(poor.acceptedOffers.length);
    if (poor.acceptedOffers.length)
      expect(good.acceptedOffers[0].offerDetails.comparisonRate).toBeLessThan(
        poor.acceptedOffers[0].offerDetails.comparisonRate,
      );
    expect(poor.nearMissOffers.length).toBeGreaterThan(0);
    for (const miss of poor.nearMissOffers) {
      expect(miss).toMatchObject({
        lender: expect.any(Object),
        product: expect.any(Object),
        headline: expect.any(String),
      });
      expect(miss.trackingUrl).toBeUndefined();
      expect(miss.reasons.length).toBeGreaterThan(0);
      const bandName = /\b(excellent|very[\s_-]?good|good|average|below[\s_-]?average|poor)\b/i;
      for (const r of miss.reasons) {
        expect(r).toEqual({ field: expect.any(String), rule: expect.any(String), actual: expect.any(String) });
        expect(`${r.rule} ${r.actual}`).not.toMatch(bandName);
        if (r.field === 'creditScore')
          expect(r).toEqual({ field: 'creditScore', rule: "the lender's credit criteria", actual: 'not met' });
      }
      for (const w of miss.wouldQualifyIf) {
        expect(w).toEqual({ field: expect.any(String), requirement: expect.any(String) });
        expect(w.requirement).not.toMatch(bandName);
      }
    }
  });

  it('when the bureau was unavailable, then matching says it used the applicant’s own estimate', async () => {
    const id = await checkedApplication('personal', 'unavailable');
    const res = await match(c, id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      degraded_mode: true,
      assessment: { basis: 'self_estimate', notice: expect.any(String) },
    });
  });

  it('when matching is repeated after a step changed, then the new data is used and the links are fresh', async () => {
    const id = await checkedApplication('personal', 'excellent');
    const first = (await match(c, id)).body.data;
    await c.patch(id, { step: 2, data: { ...VALID_STEPS.personal[2], loanTerm: 3 } });
    const second = (await match(c, id)).body.data;
    expect(second.matchId).not.toBe(first.matchId);
    expect(
      second.acceptedOffers.every(
        (o: { offerDetails: { loanTermMonths: number } }) => o.offerDetails.loanTermMonths === 36,
      ),
    ).toBe(true);
    const firstIds = new Set(first.acceptedOffers.map((o: { offerId: string }) => o.offerId));
    expect(second.acceptedOffers.some((o: { offerId: string }) => firstIds.has(o.offerId))).toBe(false);
    expect(await countRows(t.db, 'match_runs', { applicationId: id })).toBe(2);
  });

  it('when a tracking link is checked with HEAD and then followed twice, then one referral is recorded, the application is referred, and every request reaches the lender', async () => {
    const id = await checkedApplication('car', 'excellent');
    const offer = (await match(c, id)).body.data.acceptedOffers[0];
    const path = new URL(offer.trackingUrl).pathname;
    // A link checker's HEAD is forwarded too, and records nothing.
    const checked = await request(app).head(path);
    expect(checked.status).toBe(302);
    expect(new URL(checked.headers.location).searchParams.get('lm_ref')).toBe(offer.offerId);
    expect(await countRows(t.db, 'referrals', { offerId: offer.offerId })).toBe(0);
    expect((await c.get(id)).body.data.status).not.toBe('referred');
    const first = await request(app).get(path);
    expect(first.status).toBe(302);
    expect(first.headers.location).toMatch(/^https:\/\//);
    expect(new URL(first.headers.location).searchParams.get('lm_ref')).toBe(offer.offerId);
    const second = await request(app).get(path);
    expect(second.status).toBe(302);
    expect(await countRows(t.db, 'referrals', { offerId: offer.offerId })).toBe(1);
    expect((await c.get(id)).body.data.status).toBe('referred');
  });

  it('when a link is forged, altered or unknown, then 404; when it is over two hours old, then 410 LINK_EXPIRED', async () => {
    const id = await checkedApplication('personal', 'excellent');
    const offer = (await match(c, id)).body.data.acceptedOffers[0];
    const token = new URL(offer.trackingUrl).pathname.slice(3);
    const altered = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
    for (const bad of [altered, 'nonsense', 'A'.repeat(70)]) {
      const res = await request(app).get(`/r/${bad}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    const later = createPartnerAApp({
      ctx: { ...t.ctx, clock: () => new Date(Date.now() + TWO_HOURS + 1000) },
      logger: silentLogger,
      ping: async () => true,
      rateLimitPerMinute: 100,
    });
    const expired = await request(later).get(`/r/${token}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toBe('LINK_EXPIRED');
    expect(await countRows(t.db, 'referrals', { offerId: offer.offerId })).toBe(0);
  });

  it('when a partner lists its referrals, then newest first, paged by cursor, with lender, product, application and time', async () => {
    const partnerKey = (await newPartnerKey(t.ctx, 'Lister')).apiKey;
    const lister = client(app, partnerKey);
    const clicked: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await applicationThroughStep4(lister, 'personal');
      await lister.check(id, applicantBody(), `ref-${id}`, 'excellent');
      const offer = (await match(partnerKey, id)).body.data.acceptedOffers[0];
      await request(app).get(new URL(offer.trackingUrl).pathname);
      clicked.push(offer.offerId);
    }
    const list = (q: string) => request(app).get(`${BASE}/referrals${q}`).set('Authorization', `Bearer ${partnerKey}`);
    const page1 = await list('?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.data.referrals.map((r: { offerId: string }) => r.offerId)).toEqual([clicked[2], clicked[1]]);
    expect(page1.body.data.referrals[0]).toMatchObject({
      referralId: expect.any(String),
      applicationId: expect.any(String),
      lender: { id: expect.any(String), name: expect.any(String) },
      product: { id: expect.any(String), name: expect.any(String) },
      referredAt: expect.any(String),
    });
    const page2 = await list(`?limit=2&cursor=${page1.body.data.nextCursor}`);
    expect(page2.body.data.referrals.map((r: { offerId: string }) => r.offerId)).toEqual([clicked[0]]);
    expect(page2.body.data.nextCursor).toBeNull();
    expect((await list('?limit=0')).status).toBe(400);
    expect((await list('?cursor=bogus')).status).toBe(400);
    const others = await request(app).get(`${BASE}/referrals`).set('Authorization', `Bearer ${apiKey}`);
    expect(others.body.data.referrals.map((r: { offerId: string }) => r.offerId)).not.toContain(clicked[0]);
  });
});
