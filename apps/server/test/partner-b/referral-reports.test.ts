/**
 * Variant B's view of the referral's life: `GET /v1/referrals` and `GET /v1/reports/referrals` with the
 * access token, the same answers as Variant A's.
 */
import request from 'supertest';
import { issueLenderKey } from '@loanmatch/domain';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { ONE_STORAGE, createTestContext, silentLogger, type TestContext } from '../../../../tests/support';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { BASE, JWT_SECRET, accessTokenFor, clientB, flatApplication, newPartner } from './helpers';

describe(`referrals and reports through Variant B on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let b: ReturnType<typeof createPartnerBApp>;
  let token: string;
  let apiKey: string;
  let offerId: string;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    b = createPartnerBApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, jwt: { secret: JWT_SECRET } });
    const a = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 1000 });
    apiKey = (await newPartner(t.ctx)).apiKey;
    token = await accessTokenFor(b, apiKey);
    const c = clientB(b, token);

    // Variant B's four minimal calls (token, create, check, match), with tags; the applicant follows the first offer; its lender reports it funded.
    const created = await c.create({ ...flatApplication(), clientTags: { campaign: 'b-launch' } });
    const { applicationId, securityToken } = created.body.data;
    await c.check(applicationId, { securityToken }, { score: 'excellent' });
    const offer = (await c.match(applicationId, { securityToken })).body.data.acceptedOffers[0];
    offerId = offer.offerId;
    const followed = await request(a).get(new URL(offer.trackingUrl).pathname);
    const reference = new URL(followed.headers.location).searchParams.get('lm_ref');
    const key = await issueLenderKey(t.ctx, { lenderId: offer.lender.id, body: {} });
    if (!key.ok) throw key.error;
    const funded = await request(a)
      .post('/api/lender/v1/outcomes')
      .set('Authorization', `Bearer ${key.value.apiKey}`)
      .send({
        reference,
        eventId: 'b-funded',
        type: 'funded',
        occurredAt: new Date(Date.now() - 60_000).toISOString(),
        fundedAmount: 15000,
        fundedAt: new Date(Date.now() - 60_000).toISOString(),
      });
    if (funded.status !== 201) throw new Error(`funded: ${JSON.stringify(funded.body)}`);
  });
  afterAll(() => t.close());

  const get = (path: string, bearer = token) =>
    request(b).get(`${BASE}${path}`).set('Authorization', `Bearer ${bearer}`);

  it('when the partner lists its referrals with its access token, then the referral carries its tags, outcome and commission', async () => {
    const res = await get('/referrals');
    expect(res.status).toBe(200);
    expect(res.body.data.referrals).toEqual([
      expect.objectContaining({
        offerId,
        clientTags: { campaign: 'b-launch' },
        outcome: expect.objectContaining({ status: 'funded', fundedAmount: 15000 }),
        commission: { amount: expect.any(Number), currency: 'AUD' },
      }),
    ]);
    expect(res.body.data.referrals[0].commission.amount).toBeGreaterThan(0);
  });

  it('when the report is asked by tag, as JSON and as CSV, then both hold the funded loan', async () => {
    const json = await get('/reports/referrals?groupBy=tag:campaign');
    expect(json.status).toBe(200);
    const [row] = json.body.data.rows;
    expect(row).toMatchObject({
      group: 'b-launch',
      referrals: 1,
      started: 1,
      approved: 1,
      funded: 1,
      fundedAmount: 15000,
    });
    const csv = await get('/reports/referrals?groupBy=tag:campaign').set('Accept', 'text/csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n')[1]).toBe(`b-launch,1,1,1,0,1,15000.00,${row.commission.toFixed(2)},0`);
  });

  it('when the API key itself is sent instead of an access token, then 401', async () => {
    expect((await get('/reports/referrals', apiKey)).status).toBe(401);
    expect((await get('/referrals', apiKey)).status).toBe(401);
  });
});
