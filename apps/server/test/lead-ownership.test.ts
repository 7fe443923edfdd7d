/**
 * Lead ownership through the routes: the first partner to refer an applicant to a lender owns the lead
 * for the lender's window; another partner's later referral is a duplicate, which partners see as
 * `attribution` only, which earns no commission, and which reports and the operators' funnel count.
 */
import { Writable } from 'node:stream';
import request from 'supertest';
import winston from 'winston';
import { createPartner, issueLenderKey } from '@loanmatch/domain';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { createPartnerBApp } from '@loanmatch/partner-b';
import {
  ONE_STORAGE,
  VALID_STEPS,
  createTestContext,
  defaultCatalogueDocument,
  flatApplication,
  validApplicant,
  type TestContext,
} from '../../../tests/support';
import { createAdminApp } from '../src/admin/app';
import { ConfigError, loadConfig } from '../src/config';

const TOKEN = 'lm_admin_ownership-test-token-0123456789';
const JWT_SECRET = 'test-jwt-secret-for-lead-ownership-0123456789';
const A = '/api/partner/v1';
const LENDER = 'harbour-bank';
const PRODUCT = 'harbour-personal-fixed';
type Partner = { partnerId: string; apiKey: string };

describe(`lead ownership through the routes on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let a: ReturnType<typeof createPartnerAApp>;
  let b: ReturnType<typeof createPartnerBApp>;
  let admin: ReturnType<typeof createAdminApp>;
  let lenderKey: string;
  const partners: Record<'North' | 'South' | 'West' | 'East', Partner> = {} as never;
  const made: Record<string, { applicationId: string; reference: string }> = {};
  const logged: string[] = [];

  const adminCall = (method: 'get' | 'put' | 'delete', path: string) =>
    request(admin)[method](`/admin/v1${path}`).set('Authorization', `Bearer ${TOKEN}`);
  const asPartner = (p: Partner, path: string) =>
    request(a).get(`${A}${path}`).set('Authorization', `Bearer ${p.apiKey}`);

  /** The applicant's click on the lender's offer: answers the reference the lender was given. */
  async function follow(offers: Array<{ product: { id: string }; trackingUrl: string }>) {
    const offer = offers.find((o) => o.product.id === PRODUCT);
    if (!offer) throw new Error(`no offer of ${PRODUCT}`);
    const followed = await request(a).get(new URL(offer.trackingUrl).pathname);
    expect(followed.status).toBe(302);
    return new URL(followed.headers.location).searchParams.get('lm_ref') as string;
  }

  /** Through Variant A: an application with these step-5 details, checked, matched, and the offer followed. */
  async function referA(p: Partner, applicant: Record<string, unknown> = {}) {
    const as = { Authorization: `Bearer ${p.apiKey}` };
    const created = await request(a)
      .post(`${A}/applications`)
      .set(as)
      .send({ formType: 'personal', data: VALID_STEPS.personal[1] });
    const applicationId = created.body.data.applicationId as string;
    for (const step of [2, 3, 4] as const)
      await request(a)
        .patch(`${A}/applications/${applicationId}`)
        .set(as)
        .send({ step, data: VALID_STEPS.personal[step] });
    const checked = await request(a)
      .post(`${A}/applications/${applicationId}/credit-check`)
      .set(as)
      .set({ 'Idempotency-Key': `c-${applicationId}`, 'X-Sandbox-Score': 'excellent' })
      .send({ data: validApplicant(applicant) });
    expect(checked.status).toBe(200);
    const offers = (await request(a).post(`${A}/applications/${applicationId}/match`).set(as)).body.data.acceptedOffers;
    return { applicationId, reference: await follow(offers) };
  }

  /** Through Variant B: a flat create with these fields, its check and match, and the offer followed. */
  async function referB(p: Partner, fields: Record<string, unknown>) {
    const token = (await request(b).post('/v1/auth/token').set('X-API-Key', p.apiKey).send({ grantType: 'api_key' }))
      .body.data.accessToken;
    const auth = { Authorization: `Bearer ${token}` };
    const created = await request(b).post('/v1/applications').set(auth).send(flatApplication(fields));
    expect(created.status).toBe(201);
    const { applicationId, securityToken } = created.body.data;
    await request(b)
      .post(`/v1/applications/${applicationId}/credit-check`)
      .set(auth)
      .set('X-Sandbox-Score', 'excellent')
      .send({ securityToken });
    const offers = (await request(b).post(`/v1/applications/${applicationId}/match`).set(auth).send({ securityToken }))
      .body.data.acceptedOffers;
    return { applicationId, reference: await follow(offers) };
  }

  const stored = async (reference: string) =>
    (
      await t.db.query<{ attribution: string; duplicateOf: string | null }>(
        'SELECT attribution, duplicate_of::text AS "duplicateOf" FROM referrals WHERE offer_id = $1',
        [reference],
      )
    )[0];

  const outcome = (reference: string, eventId: string, type: string, extra: Record<string, unknown> = {}) =>
    request(a)
      .post('/api/lender/v1/outcomes')
      .set('Authorization', `Bearer ${lenderKey}`)
      .send({ reference, eventId, type, occurredAt: new Date(Date.now() - 30_000).toISOString(), ...extra });

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    const ping = async () => true;
    // Every line any route logs, at every level, to check no applicant's e-mail, number or hash is in one.
    const stream = new Writable({
      write: (chunk, _encoding, done) => {
        logged.push(String(chunk));
        done();
      },
    });
    const logger = winston.createLogger({ level: 'debug', transports: [new winston.transports.Stream({ stream })] });
    a = createPartnerAApp({ ctx: t.ctx, logger, ping, rateLimitPerMinute: 10_000 });
    b = createPartnerBApp({ ctx: t.ctx, logger, ping, jwt: { secret: JWT_SECRET } });
    admin = createAdminApp({ ctx: t.ctx, logger, ping, adminToken: TOKEN });
    for (const name of ['North', 'South', 'West', 'East'] as const) {
      const created = await createPartner(t.ctx, { body: { name, tier: 'enterprise' } });
      if (!created.ok) throw created.error;
      partners[name] = created.value;
    }
    const key = await issueLenderKey(t.ctx, { lenderId: LENDER, body: {} });
    if (!key.ok) throw key.error;
    lenderKey = key.value.apiKey;

    // North introduces Jordan first; South the same Jordan, the e-mail in capitals and the number in E.164;
    // North again (its own repeat); West, through Variant B, with another e-mail but the same number.
    made.north = await referA(partners.North);
    made.south = await referA(partners.South, { email: 'Jordan.Citizen@EXAMPLE.com', mobileNumber: '+61 412 345 678' });
    made.northAgain = await referA(partners.North);
    made.west = await referB(partners.West, { email: 'jc@example.net', phone: '0412 345 678' });
  });
  afterAll(() => t.close());

  it('when another partner refers the same applicant to the same lender, then it is a duplicate of the first referral; the owner’s own repeat is not', async () => {
    expect(await stored(made.north.reference)).toEqual({ attribution: 'owner', duplicateOf: null });
    expect(await stored(made.northAgain.reference)).toEqual({ attribution: 'owner', duplicateOf: null });
    expect(await stored(made.south.reference)).toEqual({ attribution: 'duplicate', duplicateOf: made.north.reference });
    expect(await stored(made.west.reference)).toEqual({ attribution: 'duplicate', duplicateOf: made.north.reference });
  });

  it('when the lender reads a duplicate’s lead, then it names the lender’s own earlier reference', async () => {
    const lead = async (reference: string) =>
      (await request(a).get(`/api/lender/v1/leads/${reference}`).set('Authorization', `Bearer ${lenderKey}`)).body.data;
    expect(await lead(made.north.reference)).toMatchObject({ attribution: 'owner', duplicateOf: null });
    expect(await lead(made.west.reference)).toMatchObject({
      reference: made.west.reference,
      attribution: 'duplicate',
      duplicateOf: made.north.reference,
    });
  });

  it('when each partner lists its referrals, then each carries its attribution and nothing of the other partner', async () => {
    const north = (await asPartner(partners.North, '/referrals')).body.data.referrals;
    expect(north.map((r: { attribution: string }) => r.attribution)).toEqual(['owner', 'owner']);
    const south = await asPartner(partners.South, '/referrals');
    expect(south.status).toBe(200);
    expect(south.body.data.referrals).toEqual([
      expect.objectContaining({ offerId: made.south.reference, attribution: 'duplicate' }),
    ]);
    const text = JSON.stringify(south.body);
    expect(text).not.toMatch(/duplicateOf|duplicate_of/);
    for (const secret of [made.north.reference, made.north.applicationId, partners.North.partnerId, 'North'])
      expect(text).not.toContain(secret);
    const west = (
      await request(b)
        .get('/v1/referrals')
        .set('Authorization', `Bearer ${await tokenOf(partners.West)}`)
    ).body.data.referrals;
    expect(west).toEqual([expect.objectContaining({ attribution: 'duplicate' })]);
    expect(JSON.stringify(west)).not.toContain(made.north.reference);
  });

  async function tokenOf(p: Partner) {
    return (await request(b).post('/v1/auth/token').set('X-API-Key', p.apiKey).send({ grantType: 'api_key' })).body.data
      .accessToken as string;
  }

  it('when a Variant B create gives a phone such as `call me`, then it is refused at the create, as before', async () => {
    const auth = { Authorization: `Bearer ${await tokenOf(partners.West)}` };
    const refused = await request(b)
      .post('/v1/applications')
      .set(auth)
      .send(flatApplication({ phone: 'call me' }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.stringContaining('phone') });
  });

  it('when the lender funds both the owner’s and a duplicate’s loan, then both outcomes are kept, and only the owner earns commission', async () => {
    const at = new Date(Date.now() - 30_000).toISOString();
    const funded = { fundedAmount: 20_000, fundedAt: at, occurredAt: at };
    expect((await outcome(made.north.reference, 'n-1', 'funded', funded)).status).toBe(201);
    const dup = await outcome(made.south.reference, 's-1', 'funded', funded);
    expect(dup.status).toBe(201);
    expect(dup.body.data.status).toBe('funded');

    const [north] = (await asPartner(partners.North, '/referrals?limit=1')).body.data.referrals;
    expect(north).toMatchObject({ offerId: made.northAgain.reference });
    const owner = (await asPartner(partners.North, '/referrals')).body.data.referrals.find(
      (r: { offerId: string }) => r.offerId === made.north.reference,
    );
    expect(owner.commission).toEqual({ amount: 450, currency: 'AUD' }); // $150 + 1.5% of $20,000
    const [south] = (await asPartner(partners.South, '/referrals')).body.data.referrals;
    expect(south).toMatchObject({
      attribution: 'duplicate',
      outcome: { status: 'funded', fundedAmount: 20000 },
      commission: null,
    });
  });

  it('when partners ask their report, as JSON and as CSV, then the duplicates column counts theirs and the commission leaves them out', async () => {
    const report = await asPartner(partners.South, '/reports/referrals?groupBy=lender');
    expect(report.body.data.rows).toEqual([
      expect.objectContaining({
        group: LENDER,
        referrals: 1,
        funded: 1,
        fundedAmount: 20000,
        commission: 0,
        duplicates: 1,
      }),
    ]);
    const csv = await asPartner(partners.South, '/reports/referrals?groupBy=lender').set('Accept', 'text/csv');
    expect(csv.text).toBe(
      'group,referrals,started,approved,declined,funded,fundedAmount,commission,duplicates\r\n' +
        `${LENDER},1,1,1,0,1,20000.00,0.00,1\r\n`,
    );
    const north = (await asPartner(partners.North, '/reports/referrals?groupBy=lender')).body.data.rows;
    expect(north).toEqual([expect.objectContaining({ referrals: 2, commission: 450, duplicates: 0 })]);
    const west = await request(b)
      .get('/v1/reports/referrals?groupBy=lender')
      .set('Authorization', `Bearer ${await tokenOf(partners.West)}`);
    expect(west.body.data.rows).toEqual([expect.objectContaining({ referrals: 1, duplicates: 1 })]);
  });

  it('when operators read the funnel, then it counts the duplicates, of all and of each partner', async () => {
    expect((await adminCall('get', '/reports/funnel')).body.data).toMatchObject({
      referrals: 4,
      duplicates: 2,
      commission: 450,
    });
    expect((await adminCall('get', `/reports/funnel?partnerId=${partners.South.partnerId}`)).body.data).toMatchObject({
      referrals: 1,
      duplicates: 1,
      funded: 1,
      commission: 0,
    });
    const byPartner = (await adminCall('get', '/reports/funnel/partners')).body.data.partners;
    const duplicates = Object.fromEntries(
      byPartner.map((p: { name: string; duplicates: number }) => [p.name, p.duplicates]),
    );
    expect(duplicates).toMatchObject({ North: 0, South: 1, West: 1, East: 0 });
    const byLender = (await adminCall('get', '/reports/funnel/lenders')).body.data.lenders;
    expect(byLender).toEqual([expect.objectContaining({ lenderId: LENDER, referrals: 4, duplicates: 2 })]);
  });

  it('when the owner’s personal data is erased, then its hashes go, and another partner’s referral of the applicant owns the lead', async () => {
    const sam = { email: 'sam.erased@example.com', mobileNumber: '0499 111 222' };
    const first = await referA(partners.North, sam);
    expect((await adminCall('delete', `/applications/${first.applicationId}/personal-data`)).status).toBe(200);
    const [row] = await t.db.query('SELECT email_hash, mobile_hash FROM applicants WHERE application_id = $1', [
      first.applicationId,
    ]);
    expect(row).toEqual({ email_hash: null, mobile_hash: null });
    expect(await stored((await referA(partners.East, sam)).reference)).toEqual({
      attribution: 'owner',
      duplicateOf: null,
    });
  });

  it('when the owner’s window has passed, then another partner’s referral owns the lead again', async () => {
    const alex = { email: 'alex.window@example.com', mobileNumber: '0499 333 444' };
    const first = await referA(partners.North, alex);
    await t.db.query(`UPDATE referrals SET created_at = now() - interval '89 days' WHERE offer_id = $1`, [
      first.reference,
    ]);
    expect((await stored((await referA(partners.South, alex)).reference)).attribution).toBe('duplicate');
    await t.db.query(`UPDATE referrals SET created_at = now() - interval '91 days' WHERE offer_id = $1`, [
      first.reference,
    ]);
    expect((await stored((await referA(partners.East, alex)).reference)).attribution).toBe('owner');
  });

  it('when a duplicate’s loan is funded and cancelled after the clawback period, then its funding stands as the owner’s does, and it earns nothing', async () => {
    const casey = { email: 'casey.clawback@example.com', mobileNumber: '0499 777 888' };
    const owner = await referA(partners.North, casey);
    const duplicate = await referA(partners.South, casey);
    await t.db.query(`UPDATE referrals SET created_at = now() - interval '200 days' WHERE offer_id = ANY($1)`, [
      [owner.reference, duplicate.reference],
    ]);
    const fundedAt = new Date(Date.now() - 150 * 24 * 60 * 60 * 1000).toISOString();
    const funded = { fundedAmount: 20_000, fundedAt, occurredAt: fundedAt };
    for (const [reference, id] of [
      [owner.reference, 'c-owner'],
      [duplicate.reference, 'c-duplicate'],
    ]) {
      expect((await outcome(reference, `${id}-funded`, 'funded', funded)).status).toBe(201);
      expect((await outcome(reference, `${id}-cancelled`, 'cancelled')).status).toBe(201);
    }
    const kept = await t.db.query<{ reference: string; stands: boolean; commission: number | null }>(
      `SELECT offer_id::text AS reference, funding_stands AS stands, commission_cents::int AS commission
         FROM referrals WHERE offer_id = ANY($1)`,
      [[owner.reference, duplicate.reference]],
    );
    expect(Object.fromEntries(kept.map((r) => [r.reference, { stands: r.stands, commission: r.commission }]))).toEqual({
      [owner.reference]: { stands: true, commission: 45_000 },
      [duplicate.reference]: { stands: true, commission: null },
    });
  });

  it.each([
    [-1, 'must be >= 0'],
    [1.5, 'must be integer'],
  ])(
    'when a catalogue states ownershipDays %p for a lender, then it is refused naming the lender, and the old one stays',
    async (days, rule) => {
      const before = (await adminCall('get', '/catalogue')).body.data;
      const doc = defaultCatalogueDocument() as { lenders: Array<Record<string, unknown>>; effectiveFrom: string };
      doc.lenders[1].ownershipDays = days;
      const res = await adminCall('put', '/catalogue').send({ ...doc, effectiveFrom: '2099-02-01' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_ERROR');
      expect(res.body.message).toContain(`lender ${doc.lenders[1].id}: ownershipDays: ${rule}`);
      expect((await adminCall('get', '/catalogue')).body.data).toEqual(before);
    },
  );

  it('when a catalogue states a lender’s ownershipDays, then that lender’s window is put in force; a lender without one has 90', async () => {
    const doc = defaultCatalogueDocument() as { lenders: Array<Record<string, unknown>>; effectiveFrom: string };
    doc.lenders[0].ownershipDays = 0;
    expect((await adminCall('put', '/catalogue').send({ ...doc, effectiveFrom: '2099-03-01' })).status).toBe(200);
    const windows = await t.db.query<{ id: string; days: number }>(
      'SELECT id, ownership_days AS days FROM lenders WHERE id = ANY($1)',
      [[doc.lenders[0].id, doc.lenders[1].id]],
    );
    expect(Object.fromEntries(windows.map((w) => [w.id, w.days]))).toEqual({
      [LENDER]: 0,
      [String(doc.lenders[1].id)]: 90,
    });
    // A window of 0 days: no referral to the lender is a duplicate.
    const kim = { email: 'kim.zero@example.com', mobileNumber: '0499 555 666' };
    await referA(partners.North, kim);
    expect((await stored((await referA(partners.South, kim)).reference)).attribution).toBe('owner');
  });
  it('when all of the above was logged, then no line holds an applicant’s e-mail, number or hash', async () => {
    expect(logged.length).toBeGreaterThan(50);
    const hashes = await t.db.query<{ h: string }>(
      'SELECT unnest(ARRAY[email_hash, mobile_hash]) AS h FROM applicants WHERE email_hash IS NOT NULL',
    );
    expect(hashes.length).toBeGreaterThan(10);
    const text = logged.join('\n');
    for (const secret of ['example.com', 'example.net', '412 345 678', '412345678', ...hashes.map((r) => r.h)])
      expect(text).not.toContain(secret);
  });

  it('when APPLICANT_HASH_SECRET is shorter than 32 characters, then it is refused, naming the variable and not its value', () => {
    const short = 'an-applicant-hash-secret';
    expect(() => loadConfig({ APPLICANT_HASH_SECRET: short })).toThrow(
      new ConfigError('APPLICANT_HASH_SECRET must be at least 32 characters'),
    );
    const configured = 'an-applicant-hash-secret-of-enough-length';
    expect(loadConfig({ APPLICANT_HASH_SECRET: configured }).applicantHashSecret).toBe(configured);
    expect(loadConfig({}).applicantHashSecret).toBeUndefined();
  });
});
