import request from 'supertest';
import { issueLenderKey } from '@loanmatch/domain';
import { EXAMPLES_A, EXAMPLES_LENDER, variantADocument } from '@loanmatch/http';
import { createConformance, documentedRoutes, expressRoutes } from '../../../tests/support/openapi';
import {
  ONE_STORAGE,
  TEST_PUBLIC_BASE_URL,
  createTestContext,
  silentLogger,
  validApplicant,
  type TestContext,
} from '../../../tests/support';
import { BASE_PATH_A, createPartnerAApp } from '../src/app';
import { BASE, newPartnerKey } from './helpers';

describe("Variant A's OpenAPI document against the app", () => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let key: string;
  const document = variantADocument({ basePath: BASE_PATH_A, publicUrl: TEST_PUBLIC_BASE_URL, environment: 'sandbox' });
  /** Every answer of this suite is checked against the document; problems are collected and asserted last. */
  const conformance = createConformance(document);
  const conform = <R extends request.Response>(res: R): R => conformance.conform(res);

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    key = (await newPartnerKey(t.ctx, 'Documented')).apiKey;
  });
  afterAll(() => t.close());

  it("when GET /openapi.json is asked at the listener's root, then it answers the document built from the domain's schemas, unauthenticated", async () => {
    const res = conform(await request(app).get('/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(document);
    // Absolute, from PUBLIC_BASE_URL (the address tracking links carry) and the base path.
    expect(res.body.servers).toEqual([
      {
        url: `${TEST_PUBLIC_BASE_URL}${BASE_PATH_A}`,
        description: expect.stringMatching(/sandbox/),
        'x-internal': false,
      },
    ]);
  });

  it('when the document or its page is asked under the base path, then 404 naming its real address, before any key is asked for', async () => {
    for (const path of ['/openapi.json', '/docs']) {
      const res = await request(app).get(`${BASE_PATH_A}${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        error: 'NOT_FOUND',
        message: `Not under ${BASE_PATH_A}: this listener serves it at ${path} (its root)`,
      });
    }
  });

  it("when the app's router stack is walked, then every route is in the document and every documented operation is a route", () => {
    const served = expressRoutes(app);
    const documented = documentedRoutes(document);
    expect([...served].filter((route) => !documented.has(route)).sort()).toEqual([]);
    expect([...documented].filter((route) => !served.has(route)).sort()).toEqual([]);
    expect(served).toContain('POST /api/partner/v1/applications/{applicationId}/credit-check');
    expect(served).toContain('GET /r/{token}');
    expect(served.size).toBeGreaterThan(15);
  });

  it('when a route is added to the app but not to the document, then the comparison finds it', () => {
    const extra = createPartnerAApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      rateLimitPerMinute: 1,
    });
    extra.get('/undocumented/:id', (_req, res) => res.end());
    expect([...expressRoutes(extra)].filter((route) => !documentedRoutes(document).has(route))).toEqual([
      'GET /undocumented/{id}',
    ]);
  });

  it('when a partner goes through the whole flow, the errors and the service routes, then every answer matches its documented response', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const api = request(app);

    // Create, with the document's own examples as bodies; a replay; invalid, non-JSON and unauthenticated requests.
    const created = conform(
      await api
        .post(`${BASE}/applications`)
        .set(auth)
        .set('Idempotency-Key', 'docs-create')
        .send(EXAMPLES_A.create.personal),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.applicationId as string;
    expect(
      conform(
        await api
          .post(`${BASE}/applications`)
          .set(auth)
          .set('Idempotency-Key', 'docs-create')
          .send(EXAMPLES_A.create.personal),
      ).headers['idempotency-replayed'],
    ).toBe('true');
    for (const body of [EXAMPLES_A.create.car, EXAMPLES_A.create.home])
      expect(conform(await api.post(`${BASE}/applications`).set(auth).send(body)).status).toBe(201);
    expect(
      conform(
        await api
          .post(`${BASE}/applications`)
          .set(auth)
          .send({ formType: 'personal', data: { loanAmount: 999 } }),
      ).status,
    ).toBe(400);
    expect(
      conform(
        await api.post(`${BASE}/applications`).set(auth).set('Content-Type', 'application/json').send('{"formType":'),
      ).status,
    ).toBe(400);
    expect(
      conform(
        await api
          .post(`${BASE}/applications`)
          .set(auth)
          .set('Idempotency-Key', 'docs-create')
          .send(EXAMPLES_A.create.car),
      ).status,
    ).toBe(422);
    expect(conform(await api.post(`${BASE}/applications`).send(EXAMPLES_A.create.personal)).status).toBe(401);

    // Steps, in and out of order; reads.
    const other = conform(await api.post(`${BASE}/applications`).set(auth).send(EXAMPLES_A.create.personal)).body.data
      .applicationId as string;
    expect(
      conform(await api.patch(`${BASE}/applications/${other}`).set(auth).send(EXAMPLES_A.steps.personalStep3)).status,
    ).toBe(409);
    expect(conform(await api.post(`${BASE}/applications/${other}/match`).set(auth)).status).toBe(409);
    expect(
      conform(
        await api
          .post(`${BASE}/applications/${other}/credit-check`)
          .set(auth)
          .set('Idempotency-Key', 'docs-early')
          .send(EXAMPLES_A.creditCheck.default),
      ).status,
    ).toBe(409);
    for (const body of Object.values(EXAMPLES_A.steps))
      expect(conform(await api.patch(`${BASE}/applications/${id}`).set(auth).send(body)).status).toBe(200);
    expect(conform(await api.get(`${BASE}/applications/${id}`).set(auth)).status).toBe(200);
    expect(conform(await api.get(`${BASE}/applications/00000000-0000-4000-8000-000000000000`).set(auth)).status).toBe(
      404,
    );

    // The consent wording the check names; like every partner route, behind the key.
    const consents = conform(await api.get(`${BASE}/consents`).set(auth));
    expect(consents.status).toBe(200);
    expect(consents.body.data.versions.length).toBeGreaterThan(0);
    expect(conform(await api.get(`${BASE}/consents`)).status).toBe(401);

    // The credit check: no key, the example, a second one; then match and the tracking link.
    expect(
      conform(await api.post(`${BASE}/applications/${id}/credit-check`).set(auth).send(EXAMPLES_A.creditCheck.default))
        .status,
    ).toBe(400);
    expect(
      conform(
        await api
          .post(`${BASE}/applications/${id}/credit-check`)
          .set(auth)
          .set('Idempotency-Key', 'docs-check')
          .set('X-Sandbox-Score', 'excellent')
          .send(EXAMPLES_A.creditCheck.default),
      ).status,
    ).toBe(200);
    expect(
      conform(
        await api
          .post(`${BASE}/applications/${id}/credit-check`)
          .set(auth)
          .set('Idempotency-Key', 'docs-check-2')
          .send({ data: validApplicant() }),
      ).status,
    ).toBe(409);
    const matched = conform(await api.post(`${BASE}/applications/${id}/match`).set(auth));
    expect(matched.status).toBe(200);
    expect(matched.body.data.acceptedOffers.length + matched.body.data.nearMissOffers.length).toBeGreaterThan(0);
    const offer = matched.body.data.acceptedOffers[0];
    expect(offer).toBeDefined();
    const followed = conform(await api.get(new URL(offer.trackingUrl).pathname));
    expect(followed.status).toBe(302);
    expect(conform(await api.get('/r/forged-token')).status).toBe(404);
    expect(conform(await api.get(`${BASE}/referrals?limit=10`).set(auth)).status).toBe(200);
    expect(conform(await api.get(`${BASE}/referrals?limit=0`).set(auth)).status).toBe(400);

    // The lender route, with the document's own examples as bodies: recorded, replayed, refused.
    const lenderKey = await issueLenderKey(t.ctx, { lenderId: offer.lender.id, body: {} });
    if (!lenderKey.ok) throw lenderKey.error;
    const reference = new URL(followed.headers.location).searchParams.get('lm_ref');
    const report = (body: unknown, key = lenderKey.value.apiKey) =>
      api
        .post('/api/lender/v1/outcomes')
        .set('Authorization', `Bearer ${key}`)
        .send(body as object);
    const started = { ...EXAMPLES_LENDER.started, reference, occurredAt: new Date(Date.now() - 60_000).toISOString() };
    expect(conform(await report(started)).status).toBe(201);
    expect(conform(await report(started)).headers['idempotency-replayed']).toBe('true');
    expect(conform(await report({ ...started, type: 'approved' })).status).toBe(422);
    const funded = {
      ...EXAMPLES_LENDER.funded,
      reference,
      occurredAt: started.occurredAt,
      fundedAt: started.occurredAt,
    };
    expect(conform(await report({ ...funded, eventId: 'docs-funded' })).status).toBe(201);
    const declined = { ...EXAMPLES_LENDER.declined, reference, occurredAt: new Date().toISOString() };
    expect(conform(await report(declined)).status).toBe(409); // a funded loan is not declined
    expect(conform(await report({ ...EXAMPLES_LENDER.started, eventId: 'docs-unknown' })).status).toBe(404);
    expect(conform(await report({ ...started, type: 'paid' })).status).toBe(400);
    expect(conform(await report(started, key)).status).toBe(401);

    // The referral report: JSON, CSV, refused.
    expect(conform(await api.get(`${BASE}/reports/referrals?groupBy=lender`).set(auth)).status).toBe(200);
    const csv = conform(await api.get(`${BASE}/reports/referrals`).set(auth).set('Accept', 'text/csv'));
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(conform(await api.get(`${BASE}/reports/referrals?groupBy=week`).set(auth)).status).toBe(400);

    // Webhooks.
    const hook = conform(await api.post(`${BASE}/webhooks`).set(auth).send({ url: 'http://127.0.0.1:9/hook' }));
    expect(hook.status).toBe(201);
    const hookId = hook.body.data.webhookId as string;
    expect(conform(await api.post(`${BASE}/webhooks`).set(auth).send({ url: 'not a url' })).status).toBe(400);
    expect(conform(await api.get(`${BASE}/webhooks`).set(auth)).status).toBe(200);
    expect(conform(await api.post(`${BASE}/webhooks/${hookId}/test`).set(auth)).status).toBe(200);
    expect(conform(await api.get(`${BASE}/webhooks/${hookId}/deliveries?limit=5`).set(auth)).status).toBe(200);
    expect(conform(await api.post(`${BASE}/webhooks/${hookId}/rotate-secret`).set(auth)).status).toBe(200);
    expect(conform(await api.delete(`${BASE}/webhooks/${hookId}`).set(auth)).status).toBe(200);
    expect(conform(await api.delete(`${BASE}/webhooks/${hookId}`).set(auth)).status).toBe(404);

    // The service routes.
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs'])
      expect(conform(await api.get(path)).status).toBe(200);

    // Over the limit: 429 with Retry-After and the RateLimit headers.
    const limited = createPartnerAApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => false,
      rateLimitPerMinute: 1,
    });
    conform(await request(limited).get(`${BASE}/webhooks`).set(auth));
    expect(conform(await request(limited).get(`${BASE}/webhooks`).set(auth)).status).toBe(429);
    expect(conform(await request(limited).get('/readyz')).status).toBe(503);

    expect(conformance.answers).toBeGreaterThan(35);
    expect(conformance.problems).toEqual([]);
  });
});
