import request from 'supertest';
import { createPartner, issueLenderKey, registerWebhook, sendTestEvent, type DomainContext } from '@loanmatch/domain';
import { createMetrics, type ServiceMetrics, createDispatcher } from '@loanmatch/http';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { createPartnerBApp } from '@loanmatch/partner-b';
import {
  STORAGES,
  VALID_STEPS,
  createTestContext,
  flatApplication,
  silentLogger,
  startWebhookReceiver,
  validApplicant,
  type TestContext,
} from '../../../../tests/support';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const JWT_SECRET = 'test-jwt-secret-for-variant-b-0123456789abcdef';
const A = '/api/partner/v1';

/** The value of one series in Prometheus text, by its name and exact label set; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every label value in the text (`name="value"`), to check that none identifies anything. */
function labelValues(text: string): Map<string, Set<string>> {
  const values = new Map<string, Set<string>>();
  for (const m of text.matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)) {
    if (!values.has(m[1])) values.set(m[1], new Set());
    values.get(m[1])!.add(m[2]);
  }
  return values;
}

describe.each(STORAGES)('metrics on %s', (storage) => {
  let t: TestContext;
  let ctx: DomainContext;
  let metrics: ServiceMetrics;
  let apps: {
    a: ReturnType<typeof createPartnerAApp>;
    b: ReturnType<typeof createPartnerBApp>;
    admin: ReturnType<typeof createAdminApp>;
  };

  beforeAll(async () => {
    t = await createTestContext(storage);
    metrics = createMetrics({ database: { kind: t.db.kind, pool: t.db.poolStats }, processMetrics: true });
    ctx = { ...t.ctx, metrics };
    const ping = async () => true;
    apps = {
      a: createPartnerAApp({ ctx, logger: silentLogger, ping, rateLimitPerMinute: 1000, metrics }),
      b: createPartnerBApp({
        ctx,
        logger: silentLogger,
        ping,
        jwt: { secret: JWT_SECRET },
        tierLimits: { perHour: async () => 2 },
        metrics,
      }),
      admin: createAdminApp({ ctx, logger: silentLogger, ping, adminToken: TOKEN, metrics }),
    };
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await request(apps.admin).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text;
  };

  async function partner(tier = 'standard') {
    const created = await createPartner(ctx, { body: { name: 'Metrics partner', tier, environment: 'sandbox' } });
    if (!created.ok) throw created.error;
    return created.value;
  }

  /** An excellent applicant's application through Variant A, matched: the match's `data`, with an accepted offer. */
  async function matched(apiKey: string): Promise<{
    acceptedOffers: Array<{ lender: { id: string }; trackingUrl: string }>;
    nearMissOffers: unknown[];
  }> {
    const id = await checked(apiKey, 'excellent');
    const match = await request(apps.a)
      .post(`${A}/applications/${id}/match`)
      .set({ Authorization: `Bearer ${apiKey}` });
    expect(match.status).toBe(200);
    expect(match.body.data.acceptedOffers.length).toBeGreaterThan(0);
    return match.body.data;
  }

  /** Builds an application through Variant A to a completed credit check; answers its id. */
  async function checked(apiKey: string, score: string): Promise<string> {
    const auth = { Authorization: `Bearer ${apiKey}` };
    const created = await request(apps.a)
      .post(`${A}/applications`)
      .set(auth)
      .send({ formType: 'personal', data: VALID_STEPS.personal[1] });
    expect(created.status).toBe(201);
    const id: string = created.body.data.applicationId;
    for (const step of [2, 3, 4] as const) {
      expect(
        (
          await request(apps.a)
            .patch(`${A}/applications/${id}`)
            .set(auth)
            .send({ step, data: VALID_STEPS.personal[step] })
        ).status,
      ).toBe(200);
    }
    const check = await request(apps.a)
      .post(`${A}/applications/${id}/credit-check`)
      .set(auth)
      .set({ 'Idempotency-Key': `check-${id}`, 'X-Sandbox-Score': score })
      .send({ data: validApplicant() });
    expect(check.status).toBe(200);
    return id;
  }

  it('when requests are made on A, B and admin, then the duration histogram counts them by contract, route template and status', async () => {
    const { apiKey } = await partner();
    const id = await checked(apiKey, 'good');
    await request(apps.a)
      .get(`${A}/applications/${id}`)
      .set({ Authorization: `Bearer ${apiKey}` });
    await request(apps.a)
      .get(`${A}/nowhere`)
      .set({ Authorization: `Bearer ${apiKey}` });
    await request(apps.admin)
      .get('/admin/v1/tiers')
      .set({ Authorization: `Bearer ${TOKEN}` });

    const text = await scrape();
    const count = (contract: string, route: string, status: number) =>
      sample(
        text,
        `loanmatch_http_request_duration_seconds_count{contract="${contract}",route="${route}",status="${status}"}`,
      );
    expect(count('A', `${A}/applications`, 201)).toBeGreaterThanOrEqual(1);
    expect(count('A', `${A}/applications/:applicationId`, 200)).toBeGreaterThanOrEqual(4); // three steps and the GET
    expect(count('A', `${A}/applications/:applicationId/credit-check`, 200)).toBeGreaterThanOrEqual(1);
    expect(count('A', 'unmatched', 404)).toBeGreaterThanOrEqual(1);
    expect(count('admin', '/admin/v1/tiers', 200)).toBe(1);
    expect(text).toMatch(
      /loanmatch_http_request_duration_seconds_bucket\{le="0\.005",contract="A",route="\/api\/partner\/v1\/applications",status="201"\} \d+/,
    );
    // prom-client's process metrics are there too.
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('when checks complete, with and without a bureau score, then credit checks count by outcome', async () => {
    const before = await scrape();
    const { apiKey } = await partner();
    await checked(apiKey, 'good');
    await checked(apiKey, 'unavailable');
    await checked(apiKey, '700');
    const after = await scrape();
    const delta = (outcome: string) =>
      sample(after, `loanmatch_credit_checks_total{outcome="${outcome}"}`)! -
      sample(before, `loanmatch_credit_checks_total{outcome="${outcome}"}`)!;
    expect(delta('completed')).toBe(2);
    expect(delta('degraded')).toBe(1);
    expect(delta('failed')).toBe(0);
  });

  it('when an application is matched and a tracking link followed twice, then matches, offers and one referral are counted', async () => {
    const before = await scrape();
    const { apiKey } = await partner();
    const match = await matched(apiKey);
    const accepted = match.acceptedOffers;
    const link = new URL(accepted[0].trackingUrl).pathname;
    expect((await request(apps.a).get(link)).status).toBe(302);
    expect((await request(apps.a).get(link)).status).toBe(302); // the same click again: no second referral
    const after = await scrape();
    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('loanmatch_matches_total{result="offers"}')).toBe(1);
    expect(delta('loanmatch_offers_returned_total{kind="accepted"}')).toBe(accepted.length);
    expect(delta('loanmatch_offers_returned_total{kind="near_miss"}')).toBe(match.nearMissOffers.length);
    expect(delta('loanmatch_referrals_total')).toBe(1);
    expect(delta('loanmatch_http_request_duration_seconds_count{contract="A",route="/r/:token",status="302"}')).toBe(2);
  });

  it('when a lender reports outcomes of a referral, then each new event counts by type and a replay does not', async () => {
    const before = await scrape();
    const { apiKey } = await partner();
    const offer = (await matched(apiKey)).acceptedOffers[0];
    const redirect = await request(apps.a).get(new URL(offer.trackingUrl).pathname);
    const reference = new URL(redirect.headers.location).searchParams.get('lm_ref')!;
    const issued = await issueLenderKey(ctx, { lenderId: offer.lender.id, body: {} });
    if (!issued.ok) throw issued.error;
    const occurredAt = new Date(Date.now() - 60_000).toISOString();
    const post = (eventId: string, type: string) =>
      request(apps.a)
        .post('/api/lender/v1/outcomes')
        .set('Authorization', `Bearer ${issued.value.apiKey}`)
        .send({ reference, eventId, type, occurredAt });
    expect((await post('evt-1', 'application_started')).status).toBe(201);
    const replay = await post('evt-1', 'application_started');
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect((await post('evt-2', 'approved')).status).toBe(201);
    const after = await scrape();
    const delta = (type: string) =>
      (sample(after, `loanmatch_lender_outcomes_total{type="${type}"}`) ?? NaN) -
      (sample(before, `loanmatch_lender_outcomes_total{type="${type}"}`) ?? NaN);
    expect(delta('application_started')).toBe(1);
    expect(delta('approved')).toBe(1);
    expect(delta('funded')).toBe(0);
  });

  it('when Variant A and B refuse requests over their limits, then refusals count by limiter and tier', async () => {
    // Before any refusal, the limiters' fixed series are there at 0.
    const fresh = await scrape();
    for (const limiter of ['a', 'lender'])
      expect(sample(fresh, `loanmatch_rate_limit_refusals_total{limiter="${limiter}"}`)).toBe(0);
    for (const limiter of ['a', 'lender', 'b'])
      expect(sample(fresh, `loanmatch_rate_limit_local_counts_total{limiter="${limiter}"}`)).toBe(0);
    const strictA = createPartnerAApp({
      ctx,
      logger: silentLogger,
      ping: async () => true,
      rateLimitPerMinute: 1,
      metrics,
    });
    const { apiKey } = await partner('free');
    const auth = { Authorization: `Bearer ${apiKey}` };
    expect((await request(strictA).get(`${A}/referrals`).set(auth)).status).toBe(200);
    expect((await request(strictA).get(`${A}/referrals`).set(auth)).status).toBe(429);
    // B allows 2 an hour here: the token exchange and one create, then 429.
    const token = (await request(apps.b).post('/v1/auth/token').set('X-API-Key', apiKey).send({ grantType: 'api_key' }))
      .body.data.accessToken;
    expect(
      (
        await request(apps.b)
          .post('/v1/applications')
          .set({ Authorization: `Bearer ${token}` })
          .send(flatApplication())
      ).status,
    ).toBe(201);
    expect(
      (
        await request(apps.b)
          .post('/v1/applications')
          .set({ Authorization: `Bearer ${token}` })
          .send(flatApplication())
      ).status,
    ).toBe(429);

    const text = await scrape();
    expect(sample(text, 'loanmatch_rate_limit_refusals_total{limiter="a"}')).toBe(1);
    expect(sample(text, 'loanmatch_rate_limit_refusals_total{limiter="b",tier="free"}')).toBe(1);
    expect(
      sample(text, 'loanmatch_http_request_duration_seconds_count{contract="B",route="unmatched",status="429"}'),
    ).toBe(1);
  });

  it('when a webhook is delivered, retried and given up, then attempts count by result', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { partnerId } = await partner();
      const hook = await registerWebhook(ctx, { partnerId, body: { url: `${receiver.origin}/hook` } });
      if (!hook.ok) throw hook.error;
      const dispatcher = createDispatcher({ ctx, retry: { retryDelaysMs: [0], disableAfterMs: 24 * 3600_000 } });
      const before = await scrape();
      receiver.reply((n) => (n === 1 ? { status: 204 } : { status: 500 }));
      const test = sendTestEvent;
      expect((await test(ctx, { partnerId, webhookId: hook.value.webhookId })).ok).toBe(true);
      await dispatcher.runOnce(); // delivered
      expect((await test(ctx, { partnerId, webhookId: hook.value.webhookId })).ok).toBe(true);
      await dispatcher.runOnce(); // 500: a retry is due at once
      await dispatcher.runOnce(); // 500 again: no retry left
      await dispatcher.stop();
      const after = await scrape();
      const delta = (result: string) =>
        sample(after, `loanmatch_webhook_attempts_total{result="${result}"}`)! -
        sample(before, `loanmatch_webhook_attempts_total{result="${result}"}`)!;
      expect(delta('delivered')).toBe(1);
      expect(delta('retry_scheduled')).toBe(1);
      expect(delta('failed')).toBe(1);
      expect(delta('disabled')).toBe(0);
      expect(
        sample(after, 'loanmatch_webhook_attempt_duration_seconds_count')! -
          (sample(before, 'loanmatch_webhook_attempt_duration_seconds_count') ?? 0),
      ).toBe(3);
    } finally {
      await receiver.close();
    }
  });

  it('when scraped, then the database is named and, on PostgreSQL, its pool is reported', async () => {
    const text = await scrape();
    expect(sample(text, `loanmatch_db_info{kind="${t.db.kind}"}`)).toBe(1);
    if (t.db.kind === 'postgresql') {
      expect(sample(text, 'loanmatch_db_pool_max_connections')).toBe(12);
      expect(sample(text, 'loanmatch_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'loanmatch_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'loanmatch_db_pool_waiting_requests')).toBe(0);
    } else {
      expect(text).not.toContain('loanmatch_db_pool_');
    }
  });

  it('when a partner has built, checked and matched an application, then /metrics holds no key, id, score or applicant detail', async () => {
    const { apiKey, partnerId, keyId } = await partner();
    const id = await checked(apiKey, '1093');
    await request(apps.a)
      .post(`${A}/applications/${id}/match`)
      .set({ Authorization: `Bearer ${apiKey}` });
    const text = await scrape();
    const applicant = validApplicant();
    for (const secret of [
      apiKey,
      apiKey.slice(11),
      partnerId,
      keyId,
      id,
      TOKEN,
      applicant.firstName,
      applicant.lastName,
      applicant.email,
      applicant.mobileNumber,
      applicant.dateOfBirth,
    ]) {
      expect(text).not.toContain(String(secret));
    }
    expect(text).not.toMatch(/score|band|applicant|email/i);
    const labels = labelValues(text);
    expect([...labels.keys()].sort()).toEqual(
      expect.arrayContaining(['contract', 'kind', 'le', 'limiter', 'outcome', 'result', 'route', 'status', 'tier']),
    );
    for (const route of labels.get('route')!) expect(route).toMatch(/^(unmatched|\/[a-z0-9/:_-]*)$/i);
    for (const route of labels.get('route')!) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
    expect([...labels.get('contract')!].every((c) => ['A', 'B', 'admin'].includes(c))).toBe(true);
    expect([...labels.get('status')!].every((s) => /^\d{3}$/.test(s))).toBe(true);
    for (const values of labels.values()) for (const value of values) expect(value).not.toContain('1093');
  });

  it('when METRICS_TOKEN is set, then /metrics wants it as a bearer token, and the admin token is not it', async () => {
    const guarded = createAdminApp({
      ctx,
      logger: silentLogger,
      ping: async () => true,
      adminToken: TOKEN,
      metrics,
      metricsToken: METRICS_TOKEN,
    });
    expect((await request(guarded).get('/metrics')).status).toBe(401);
    expect(
      (
        await request(guarded)
          .get('/metrics')
          .set({ Authorization: `Bearer ${TOKEN}` })
      ).status,
    ).toBe(401);
    const ok = await request(guarded)
      .get('/metrics')
      .set({ Authorization: `Bearer ${METRICS_TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('loanmatch_http_request_duration_seconds');
  });
});
