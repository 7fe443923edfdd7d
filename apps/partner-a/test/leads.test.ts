/**
 * The lender's leads on the Variant A listener: the referral's application as its lender reads it, to that
 * lender only, with every lead answered recorded, and nothing disclosed or recorded for a refused request.
 */
import request from 'supertest';
import { erasePersonalData, getApplicationDisclosures } from '@loanmatch/domain';
import { variantADocument } from '@loanmatch/http';
import {
  ONE_STORAGE,
  TEST_PUBLIC_BASE_URL,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  type TestContext,
} from '../../../tests/support';
import { createConformance } from '../../../tests/support/openapi';
import { BASE_PATH_A, createPartnerAApp } from '../src/app';
import { newPartnerKey } from './helpers';
import { LENDER_BASE, lenderKey, makeReferral, type MadeReferral } from './lifecycle-helpers';

describe('lenders read their leads', () => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let partnerKey: string;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    partnerKey = (await newPartnerKey(t.ctx, 'Referrer')).apiKey;
  });
  afterAll(() => t.close());

  async function referral(): Promise<MadeReferral & { key: string }> {
    const made = await makeReferral(app, partnerKey);
    return { ...made, key: await lenderKey(t.ctx, made.lenderId) };
  }
  // Every answer of the lead routes is checked against Variant A's document.
  const document = variantADocument({ basePath: BASE_PATH_A, publicUrl: TEST_PUBLIC_BASE_URL, environment: 'sandbox' });
  const conformance = createConformance(document);
  const get = async (path: string, key: string) =>
    conformance.conform(await request(app).get(`${LENDER_BASE}${path}`).set('Authorization', `Bearer ${key}`));
  afterAll(() => expect(conformance.problems).toEqual([]));
  const disclosures = async (applicationId: string) => {
    const answer = await getApplicationDisclosures(t.ctx, { applicationId });
    if (!answer.ok) throw answer.error;
    return answer.value.disclosures;
  };

  it('when the offer’s lender asks for its lead, then it answers the referral, the offer as matched, steps 1-4, the applicant and the consent, and records the disclosure', async () => {
    const r = await referral();
    const answer = await get(`/leads/${r.reference}`, r.key);
    expect(answer.status).toBe(200);
    const lead = answer.body.data;
    expect(Object.keys(lead).sort()).toEqual(
      [
        'reference',
        'referralId',
        'referredAt',
        'attribution',
        'duplicateOf',
        'product',
        'offer',
        'application',
        'applicant',
        'consent',
      ].sort(),
    );
    expect(lead).toMatchObject({
      reference: r.reference,
      attribution: 'owner',
      duplicateOf: null,
      product: { id: r.productId, name: expect.any(String) },
      application: {
        applicationId: r.applicationId,
        formType: 'personal',
        steps: { 1: VALID_STEPS.personal[1], 2: VALID_STEPS.personal[2] },
      },
      applicant: {
        firstName: 'Jordan',
        lastName: 'Citizen',
        email: 'jordan.citizen@example.com',
        mobileNumber: '0412345678',
        dateOfBirth: '1988-07-14',
      },
      consent: { consentVersion: expect.any(String), givenAt: expect.any(String), consentMarketing: false },
    });
    expect(Object.keys(lead.offer).sort()).toEqual(
      [
        'interestRate',
        'comparisonRate',
        'loanAmount',
        'loanTermMonths',
        'monthlyRepayment',
        'establishmentFee',
        'monthlyFee',
        'certainty',
        'conditions',
      ].sort(),
    );
    expect(Object.keys(lead.application.steps)).toEqual(['1', '2', '3', '4']);
    expect(await disclosures(r.applicationId)).toEqual([
      { lenderId: r.lenderId, reference: r.reference, channel: 'pull', at: expect.any(String) },
    ]);
  });

  it('when a lead is answered, then nothing in it names a score, a band or the sandbox score', async () => {
    const r = await referral();
    const text = JSON.stringify((await get(`/leads/${r.reference}`, r.key)).body);
    const band = (
      await t.db.query<{ band: string }>('SELECT band FROM credit_checks WHERE application_id = $1', [r.applicationId])
    )[0].band;
    // Steps 1-4 carry the applicant's own estimate (`creditScoreEstimate`); nothing of the bureau's answer.
    expect(text).not.toMatch(/"(score|band|scoreBand|creditScore|sandbox\w*)"\s*:/i);
    expect(text).not.toMatch(/sandbox/i);
    expect(text).not.toContain(`"${band}"`);
    expect(text).not.toContain('excellent');
  });

  it('when another lender or an unknown reference asks, then both answer the same 404 and nothing is recorded', async () => {
    const r = await referral();
    const other = await lenderKey(t.ctx, r.lenderId === 'harbour-bank' ? 'greenfield-bank' : 'harbour-bank');
    const foreign = await get(`/leads/${r.reference}`, other);
    const unknown = await get('/leads/00000000-0000-4000-8000-000000000000', r.key);
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect(await disclosures(r.applicationId)).toEqual([]);
  });

  it('when the referral’s partner is of the other environment, then the lender’s key reads no lead', async () => {
    const r = await referral();
    await t.db.query(
      `UPDATE partners SET environment = 'live' WHERE id = (SELECT partner_id FROM referrals WHERE offer_id = $1)`,
      [r.reference],
    );
    try {
      expect((await get(`/leads/${r.reference}`, r.key)).status).toBe(404);
      expect((await get('/leads', r.key)).body.data.leads.map((l: { reference: string }) => l.reference)).not.toContain(
        r.reference,
      );
    } finally {
      await t.db.query(
        `UPDATE partners SET environment = 'sandbox' WHERE id = (SELECT partner_id FROM referrals WHERE offer_id = $1)`,
        [r.reference],
      );
    }
  });

  it('when a partner key, an admin token or no key is sent, then the lender route answers 401', async () => {
    const r = await referral();
    for (const key of [partnerKey, 'lm_admin_test-token-0123456789abcdef']) {
      const answer = await get(`/leads/${r.reference}`, key);
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('UNAUTHORIZED');
    }
    expect((await request(app).get(`${LENDER_BASE}/leads`)).status).toBe(401);
    expect(await disclosures(r.applicationId)).toEqual([]);
  });

  it.each([
    ['/leads/not-a-reference', 'reference'],
    ['/leads?since=yesterday', 'since'],
    ['/leads?since=2026-13-01T00:00:00Z', 'since'],
    ['/leads?since=2026-02-30T00:00:00Z', 'since'],
    ['/leads?cursor=%24%24', 'cursor'],
    ['/leads?cursor=bm90LWEtY3Vyc29y', 'cursor'],
    [`/leads?cursor=${Buffer.from(`1|${'-'.repeat(36)}`).toString('base64url')}`, 'cursor'],
    ['/leads?limit=0', 'limit'],
  ])('when %s is asked, then it answers 400 naming %s', async (path, field) => {
    const r = await referral();
    const answer = await get(path, r.key);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field }] });
  });

  it('when the applicant’s data was erased, then the lead answers 410 LEAD_ERASED and the disclosures stay', async () => {
    const r = await referral();
    expect((await get(`/leads/${r.reference}`, r.key)).status).toBe(200);
    expect((await erasePersonalData(t.ctx, { applicationId: r.applicationId })).ok).toBe(true);
    const answer = await get(`/leads/${r.reference}`, r.key);
    expect(answer.status).toBe(410);
    expect(answer.body.error).toBe('LEAD_ERASED');
    expect(JSON.stringify(answer.body)).not.toContain('Jordan');
    expect(await disclosures(r.applicationId)).toHaveLength(1);
  });

  it('when the lead is older than the retention, then it answers 410 LEAD_EXPIRED and is listed no more', async () => {
    const r = await referral();
    await t.db.query(`UPDATE referrals SET created_at = now() - interval '31 days' WHERE offer_id = $1`, [r.reference]);
    const answer = await get(`/leads/${r.reference}`, r.key);
    expect(answer.status).toBe(410);
    expect(answer.body.error).toBe('LEAD_EXPIRED');
    const listed = (await get('/leads?limit=100', r.key)).body.data.leads;
    expect(listed.map((l: { reference: string }) => l.reference)).not.toContain(r.reference);
    expect(await disclosures(r.applicationId)).toEqual([]);
  });

  it('when LEAD_RETENTION_DAYS is set, then a lead older than it answers 410 LEAD_EXPIRED and a younger one is read', async () => {
    const ctx = { ...t.ctx, leadRetentionDays: 2 };
    const shortApp = createPartnerAApp({
      ctx,
      logger: silentLogger,
      ping: async () => true,
      rateLimitPerMinute: 10_000,
    });
    const [old, young] = [await referral(), await referral()];
    const age = (r: MadeReferral, days: number) =>
      t.db.query(`UPDATE referrals SET created_at = now() - make_interval(days => $2) WHERE offer_id = $1`, [
        r.reference,
        days,
      ]);
    await age(old, 3);
    await age(young, 1);
    const read = (path: string, key: string) =>
      request(shortApp).get(`${LENDER_BASE}${path}`).set('Authorization', `Bearer ${key}`);
    const expired = await read(`/leads/${old.reference}`, old.key);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ error: 'LEAD_EXPIRED', message: expect.stringContaining('2 days') });
    expect((await read(`/leads/${young.reference}`, young.key)).status).toBe(200);
    const listed = (await read('/leads?limit=100', old.key)).body.data.leads.map(
      (l: { reference: string }) => l.reference,
    );
    expect(listed).not.toContain(old.reference);
  });

  it('when the lender lists its leads since a time, then it answers them newest first in pages, summaries only', async () => {
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const first = await referral();
    const made = [first, await makeReferral(app, partnerKey), await makeReferral(app, partnerKey)];
    const mine = made.filter((m) => m.lenderId === first.lenderId).map((m) => m.reference);
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/leads?since=${encodeURIComponent(since)}&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await get(query, first.key);
      expect(page.status).toBe(200);
      expect(page.body.data.leads.length).toBeLessThanOrEqual(1);
      for (const lead of page.body.data.leads) {
        expect(Object.keys(lead).sort()).toEqual(
          ['reference', 'referralId', 'referredAt', 'attribution', 'duplicateOf', 'product'].sort(),
        );
        pages.push(lead.reference);
      }
      cursor = page.body.data.nextCursor;
    } while (cursor);
    expect(pages).toEqual([...mine].reverse());
    expect(await disclosures(first.applicationId)).toEqual([]);
  });

  it('when a lender registers, lists and deletes endpoints, then only its own are listed and deleted, and bad addresses or events are refused', async () => {
    const r = await referral();
    const other = await lenderKey(t.ctx, r.lenderId === 'harbour-bank' ? 'greenfield-bank' : 'harbour-bank');
    const post = (key: string, body: object) =>
      request(app).post(`${LENDER_BASE}/webhooks`).set('Authorization', `Bearer ${key}`).send(body);
    const made = await post(r.key, { url: 'http://127.0.0.1:9/leads' });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ events: ['lead.created'], secret: expect.stringMatching(/^whsec_/) });
    const refused = await post(r.key, { url: 'http://10.0.0.1/leads' });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].field).toBe('url');
    const wrongEvent = await post(r.key, { url: 'http://127.0.0.1:9/leads', events: ['application.status_changed'] });
    expect(wrongEvent.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'events[0]' }] });
    expect((await post(partnerKey, { url: 'http://127.0.0.1:9/leads' })).status).toBe(401);
    expect((await get('/webhooks', other)).body.data.webhooks).toEqual([]);
    const id = made.body.data.webhookId;
    const del = (key: string) =>
      request(app).delete(`${LENDER_BASE}/webhooks/${id}`).set('Authorization', `Bearer ${key}`);
    expect((await del(other)).status).toBe(404);
    expect((await get('/webhooks', r.key)).body.data.webhooks.map((w: { webhookId: string }) => w.webhookId)).toEqual([
      id,
    ]);
    expect((await del(r.key)).body.data).toEqual({ webhookId: id, deleted: true });
    expect((await get('/webhooks', r.key)).body.data.webhooks).toEqual([]);
  });

  it('when a lender has ten endpoints, then an eleventh is refused with 409 naming the lender’s limit', async () => {
    const r = await referral();
    const post = () =>
      request(app)
        .post(`${LENDER_BASE}/webhooks`)
        .set('Authorization', `Bearer ${r.key}`)
        .send({ url: 'http://127.0.0.1:9/leads' });
    for (let i = 0; i < 10; i++) expect((await post()).status).toBe(201);
    const refused = await post();
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'WEBHOOK_LIMIT_REACHED',
      message: 'A lender may have 10 webhooks; delete one before registering another',
    });
  });
});
