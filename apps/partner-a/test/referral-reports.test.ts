/**
 * What a partner sees of its referrals' lives: `GET /referrals` with tags, outcome and commission, and
 * `GET /reports/referrals` as JSON and CSV.
 */
import request from 'supertest';
import {
  STORAGES,
  createTestContext,
  silentLogger,
  storedRow,
  storedRows,
  type TestContext,
} from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { BASE, newPartnerKey } from './helpers';
import { lenderKey, makeReferral, postOutcome, referrals, type MadeReferral } from './lifecycle-helpers';

/** Events of a referral made a moment ago: seconds before now, after the referral within the clocks' tolerance, and today. */
const secondsAgo = (seconds: number): string => new Date(Date.now() - seconds * 1000).toISOString();
import { webhookBody } from '@loanmatch/domain';

const PRODUCT = 'harbour-personal-fixed'; // $150 + 1.5%, at most $750
const today = () => new Date().toISOString().slice(0, 10);

describe.each(STORAGES)('referrals and reports through Variant A on %s', (storage) => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let apiKey: string;
  let key: string;
  const made: MadeReferral[] = [];

  const report = (query: string, accept?: string) => {
    const req = request(app).get(`${BASE}/reports/referrals${query}`).set('Authorization', `Bearer ${apiKey}`);
    return accept ? req.set('Accept', accept) : req;
  };
  let n = 0;
  const outcome = (r: MadeReferral, body: Record<string, unknown>) =>
    postOutcome(app, key, { reference: r.reference, eventId: `r-${++n}`, occurredAt: secondsAgo(30 - n), ...body });

  beforeAll(async () => {
    t = await createTestContext(storage);
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    apiKey = (await newPartnerKey(t.ctx, 'Reporter')).apiKey;
    key = await lenderKey(t.ctx, 'harbour-bank');
    const pick = {
      offer: (offers: Array<{ product: { id: string } }>) => offers.findIndex((o) => o.product.id === PRODUCT),
    };
    // Three referrals: funded ($20,000, tag spring), declined (tag spring), and one with no news and no tags.
    made.push(
      await makeReferral(app, apiKey, { ...pick, create: { clientTags: { campaign: 'spring', channel: 'email' } } }),
    );
    made.push(await makeReferral(app, apiKey, { ...pick, create: { clientTags: { campaign: 'spring' } } }));
    made.push(await makeReferral(app, apiKey, pick));
    await outcome(made[0], { type: 'application_started' });
    await outcome(made[0], { type: 'approved' });
    await outcome(made[0], {
      type: 'funded',
      fundedAmount: 20_000,
      fundedAt: secondsAgo(5),
      occurredAt: secondsAgo(5),
    });
    await outcome(made[1], { type: 'application_started' });
    await outcome(made[1], { type: 'declined', declineReason: 'credit_history' });
  });
  afterAll(() => t.close());

  it('when a partner lists its referrals, then each carries its clientTags, the outcome the lender reported, and the commission', async () => {
    const res = await referrals(app, apiKey);
    expect(res.status).toBe(200);
    const byOffer = new Map(res.body.data.referrals.map((r: { offerId: string }) => [r.offerId, r]));
    const funded = (await storedRow(t.db, 'referral_outcomes', { type: 'funded' }))!;
    expect(byOffer.get(made[0].offerId)).toMatchObject({
      clientTags: { campaign: 'spring', channel: 'email' },
      outcome: { status: 'funded', updatedAt: funded.occurredAt.toISOString(), fundedAmount: 20000 },
      commission: { amount: 450, currency: 'AUD' },
    });
    expect(byOffer.get(made[1].offerId)).toMatchObject({
      clientTags: { campaign: 'spring' },
      outcome: { status: 'declined', fundedAmount: null },
      commission: null,
    });
    expect(byOffer.get(made[2].offerId)).toMatchObject({ clientTags: {}, outcome: null, commission: null });
  });

  it('when the report is asked by day, then every day of the window has a row, and today counts what became of the referrals', async () => {
    const res = await report('');
    expect(res.status).toBe(200);
    const rows = res.body.data.rows;
    expect(Object.keys(res.body.data)).toEqual(['rows']);
    expect(rows).toHaveLength(30);
    expect(rows[29]).toEqual({
      group: today(),
      referrals: 3,
      started: 2,
      approved: 1,
      declined: 1,
      funded: 1,
      fundedAmount: 20000,
      commission: 450,
      duplicates: 0,
    });
    expect(rows[0]).toMatchObject({ referrals: 0, fundedAmount: 0, commission: 0 });
  });

  it('when grouped by lender, product or a tag, then one row per group; referrals without the tag come last, as null', async () => {
    expect((await report('?groupBy=lender')).body.data.rows).toEqual([
      expect.objectContaining({ group: 'harbour-bank', referrals: 3, funded: 1, commission: 450 }),
    ]);
    expect((await report('?groupBy=product')).body.data.rows).toEqual([
      expect.objectContaining({ group: PRODUCT, referrals: 3 }),
    ]);
    expect((await report('?groupBy=tag:campaign')).body.data.rows).toEqual([
      {
        group: 'spring',
        referrals: 2,
        started: 2,
        approved: 1,
        declined: 1,
        funded: 1,
        fundedAmount: 20000,
        commission: 450,
        duplicates: 0,
      },
      {
        group: null,
        referrals: 1,
        started: 0,
        approved: 0,
        declined: 0,
        funded: 0,
        fundedAmount: 0,
        commission: 0,
        duplicates: 0,
      },
    ]);
    expect((await report('?groupBy=tag:channel')).body.data.rows.map((r: { group: string }) => r.group)).toEqual([
      'email',
      null,
    ]);
  });

  it('when the report is asked with Accept: text/csv, then CSV with the same columns, amounts to the cent', async () => {
    const res = await report(`?groupBy=tag:campaign&from=${today()}&to=${today()}`, 'text/csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="referrals_${today()}_${today()}.csv"`);
    expect(res.text).toBe(
      'group,referrals,started,approved,declined,funded,fundedAmount,commission,duplicates\r\n' +
        'spring,2,2,1,1,1,20000.00,450.00,0\r\n' +
        ',1,0,0,0,0,0.00,0.00,0\r\n',
    );
    expect((await report('', 'application/json')).headers['content-type']).toMatch(/^application\/json/);
  });

  it('when another partner asks, then it sees none of these referrals', async () => {
    const other = (await newPartnerKey(t.ctx, 'Stranger')).apiKey;
    const res = await request(app)
      .get(`${BASE}/reports/referrals?groupBy=lender`)
      .set('Authorization', `Bearer ${other}`);
    expect(res.body.data.rows).toEqual([]);
    expect((await referrals(app, other)).body.data.referrals).toEqual([]);
  });

  it.each([
    ['?from=2026-02-30', 'from: must be a real date written YYYY-MM-DD'],
    ['?to=25/11/2026', 'to: must be a real date written YYYY-MM-DD'],
    ['?from=2026-11-02&to=2026-11-01', 'from: must not be after to'],
    ['?from=2025-01-01&to=2026-01-02', 'from: must be at most 366 days before to, both included'],
    ['?groupBy=month', "groupBy: must be one of day, lender, product or tag:<key> (a client tag's key)"],
    ['?groupBy=tag:not%20a%20key', "groupBy: must be one of day, lender, product or tag:<key> (a client tag's key)"],
    ['?from=2026-01-01&from=2026-01-02', 'from: must be a real date written YYYY-MM-DD'],
  ])(
    'when the report is asked with %s, then 400 naming the field, in JSON even when CSV was asked',
    async (query, message) => {
      const res = await report(query, 'text/csv');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
    },
  );

  it('when the window is a whole year, then it is taken', async () => {
    const res = await report('?from=2025-01-01&to=2026-01-01');
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toHaveLength(366);
  });

  it('when the outcome changes, then only endpoints subscribed to referral.outcome_changed get it', async () => {
    const all = await request(app)
      .post(`${BASE}/webhooks`)
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ url: 'http://127.0.0.1:9/all' });
    const statusOnly = await request(app)
      .post(`${BASE}/webhooks`)
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ url: 'http://127.0.0.1:9/status', events: ['application.status_changed'] });
    expect(all.body.data.events).toEqual(['application.status_changed', 'referral.outcome_changed']);
    await outcome(made[2], { type: 'withdrawn' });
    const event = (await storedRow(t.db, 'webhook_events', {
      applicationId: made[2].applicationId,
      type: 'referral.outcome_changed',
    }))!;
    const deliveries = await storedRows(t.db, 'webhook_deliveries', { eventId: event.id });
    expect(deliveries.map((d) => d.webhookId)).toEqual([all.body.data.webhookId]);
    expect(deliveries.map((d) => d.webhookId)).not.toContain(statusOnly.body.data.webhookId);
    expect(webhookBody(event)).not.toMatch(/Jordan|Citizen|example\.com|04\d{8}|score/i);
  });
});
