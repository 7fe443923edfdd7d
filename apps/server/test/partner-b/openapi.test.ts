import request from 'supertest';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { EXAMPLES_B, variantBDocument } from '@loanmatch/http';
import { createConformance, documentedRoutes, expressRoutes } from '../../../../tests/support/openapi';
import { ONE_STORAGE, VALID_STEPS, createTestContext, silentLogger, type TestContext } from '../../../../tests/support';
import { BASE_PATH_B, createPartnerBApp } from '@loanmatch/partner-b';
import { BASE, JWT_SECRET, newPartner } from './helpers';

describe("Variant B's OpenAPI document against the app", () => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerBApp>;
  let appA: ReturnType<typeof createPartnerAApp>;
  let apiKey: string;
  const PUBLIC_URL_B = 'https://partner-b.example.test';
  const document = variantBDocument({ basePath: BASE_PATH_B, publicUrl: PUBLIC_URL_B, environment: 'sandbox' });
  /** Every answer of B in this suite is checked against the document; problems are collected and asserted last. */
  const conformance = createConformance(document);
  const conform = <R extends request.Response>(res: R): R => conformance.conform(res);

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    app = createPartnerBApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      jwt: { secret: JWT_SECRET },
      publicBaseUrl: PUBLIC_URL_B,
    });
    appA = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    apiKey = (await newPartner(t.ctx, { name: 'Documented', tier: 'enterprise' })).apiKey;
  });
  afterAll(() => t.close());

  it("when GET /openapi.json is asked at the listener's root, then it answers the document built from the domain's schemas, unauthenticated", async () => {
    const res = conform(await request(app).get('/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(document);
    // Absolute, from the listener's public address: a proxy or a generator needs nothing else.
    expect(res.body.servers).toEqual([
      { url: `${PUBLIC_URL_B}/v1`, description: expect.stringMatching(/sandbox/), 'x-internal': false },
    ]);
    expect(res.body.paths['/healthz'].servers).toEqual([
      { url: PUBLIC_URL_B, description: expect.any(String), 'x-internal': false },
    ]);
  });

  it('when the document or its page is asked under the base path, then 404 naming its real address, before any key is asked for', async () => {
    for (const path of ['/openapi.json', '/docs']) {
      const res = await request(app).get(`${BASE_PATH_B}${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        error: 'NOT_FOUND',
        message: `Not under ${BASE_PATH_B}: this listener serves it at ${path} (its root)`,
      });
    }
  });

  it("when the app's router stack is walked, then every route is in the document and every documented operation is a route", () => {
    const served = expressRoutes(app);
    const documented = documentedRoutes(document);
    expect([...served].filter((route) => !documented.has(route)).sort()).toEqual([]);
    expect([...documented].filter((route) => !served.has(route)).sort()).toEqual([]);
    expect(served).toContain('POST /v1/auth/token');
    expect(served).toContain('POST /v1/applications/{applicationId}/match');
  });

  it('when a partner goes through the whole flow and its errors, then every answer matches its documented response', async () => {
    const api = request(app);
    // Token exchange: the example, a missing key, a bad grant.
    const token = conform(await api.post(`${BASE}/auth/token`).set('X-API-Key', apiKey).send(EXAMPLES_B.token.default));
    expect(token.status).toBe(200);
    expect(conform(await api.post(`${BASE}/auth/token`).send(EXAMPLES_B.token.default)).status).toBe(401);
    expect(
      conform(await api.post(`${BASE}/auth/token`).set('X-API-Key', apiKey).send({ grantType: 'password' })).status,
    ).toBe(400);
    const auth = { Authorization: `Bearer ${token.body.data.accessToken as string}` };

    // Create with the example, a replay, an invalid body, no token.
    const created = conform(
      await api
        .post(`${BASE}/applications`)
        .set(auth)
        .set('Idempotency-Key', 'docs-b-create')
        .send(EXAMPLES_B.create.default),
    );
    expect(created.status).toBe(201);
    expect(
      conform(
        await api
          .post(`${BASE}/applications`)
          .set(auth)
          .set('Idempotency-Key', 'docs-b-create')
          .send(EXAMPLES_B.create.default),
      ).headers['idempotency-replayed'],
    ).toBe('true');
    expect(
      conform(
        await api
          .post(`${BASE}/applications`)
          .set(auth)
          .send({ ...EXAMPLES_B.create.default, phone: '1' }),
      ).status,
    ).toBe(400);
    expect(conform(await api.post(`${BASE}/applications`).send(EXAMPLES_B.create.default)).status).toBe(401);
    const { applicationId: id, securityToken } = created.body.data as { applicationId: string; securityToken: string };

    // Credit check and match: wrong token, unknown application, missing token, match before the check, then for real
    // on the minimal create's fields alone (indicative offers).
    const checkBody = { ...EXAMPLES_B.creditCheck.default, securityToken };
    expect(
      conform(
        await api
          .post(`${BASE}/applications/${id}/credit-check`)
          .set(auth)
          .send({ ...checkBody, securityToken: 'st_wrong' }),
      ).status,
    ).toBe(403);
    expect(
      conform(
        await api
          .post(`${BASE}/applications/00000000-0000-4000-8000-000000000000/credit-check`)
          .set(auth)
          .send(checkBody),
      ).status,
    ).toBe(404);
    expect(conform(await api.post(`${BASE}/applications/${id}/match`).set(auth).send({})).status).toBe(400);
    expect(conform(await api.post(`${BASE}/applications/${id}/match`).set(auth).send({ securityToken })).status).toBe(
      409,
    );
    expect(
      conform(
        await api
          .post(`${BASE}/applications/${id}/credit-check`)
          .set(auth)
          .set('X-Sandbox-Score', 'good')
          .send(checkBody),
      ).status,
    ).toBe(200);
    const indicative = conform(await api.post(`${BASE}/applications/${id}/match`).set(auth).send({ securityToken }));
    expect(indicative.status).toBe(200);
    expect(indicative.body.data.acceptedOffers[0]).toMatchObject({
      certainty: 'indicative',
      assumedLoanTermMonths: expect.any(Number),
    });

    // PATCH: the example, a wrong token, an unknown application, a bad field, a step-5 field after the check; then pre-qualified offers.
    const patch = (path: string, body: object) => api.patch(`${BASE}/applications/${path}`).set(auth).send(body);
    expect(conform(await patch(id, { ...EXAMPLES_B.update.default, securityToken })).status).toBe(200);
    expect(conform(await patch(id, { ...EXAMPLES_B.update.default, securityToken: 'st_wrong' })).status).toBe(403);
    expect(
      conform(await patch('00000000-0000-4000-8000-000000000000', { ...EXAMPLES_B.update.default, securityToken }))
        .status,
    ).toBe(404);
    expect(conform(await patch(id, { securityToken, dependents: 99 })).status).toBe(400);
    expect(conform(await patch(id, { securityToken, dateOfBirth: '1980-01-01' })).status).toBe(409);
    expect(
      conform(await patch(id, { securityToken, ...VALID_STEPS.personal[3], ...VALID_STEPS.personal[4] })).body.data
        .missingFields,
    ).toEqual([]);
    const prequalified = conform(await api.post(`${BASE}/applications/${id}/match`).set(auth).send({ securityToken }));
    expect(prequalified.body.data.acceptedOffers[0]).toMatchObject({ certainty: 'pre_qualified', conditions: [] });

    // The richer create: every example is accepted.
    for (const example of Object.values(EXAMPLES_B.create))
      expect(conform(await api.post(`${BASE}/applications`).set(auth).send(example)).status).toBe(201);
    // Variant A reads the same application.
    expect(
      (await request(appA).get(`/api/partner/v1/applications/${id}`).set('Authorization', `Bearer ${apiKey}`)).body.data
        .lastStep,
    ).toBe(5);

    // The consent wording, behind the access token.
    expect(conform(await api.get(`${BASE}/consents`).set(auth)).status).toBe(200);
    expect(conform(await api.get(`${BASE}/consents`)).status).toBe(401);

    // Webhooks, the service routes.
    // Referrals and the referral report: JSON, CSV, refused.
    expect(conform(await api.get(`${BASE}/referrals?limit=5`).set(auth)).status).toBe(200);
    expect(conform(await api.get(`${BASE}/reports/referrals?groupBy=product`).set(auth)).status).toBe(200);
    expect(conform(await api.get(`${BASE}/reports/referrals`).set(auth).set('Accept', 'text/csv')).status).toBe(200);
    expect(conform(await api.get(`${BASE}/reports/referrals?from=2026-99-01`).set(auth)).status).toBe(400);

    const hook = conform(await api.post(`${BASE}/webhooks`).set(auth).send({ url: 'http://127.0.0.1:9/hook' }));
    expect(hook.status).toBe(201);
    expect(conform(await api.get(`${BASE}/webhooks`).set(auth)).status).toBe(200);
    expect(conform(await api.delete(`${BASE}/webhooks/${hook.body.data.webhookId as string}`).set(auth)).status).toBe(
      200,
    );
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs'])
      expect(conform(await api.get(path)).status).toBe(200);

    // Over the tier's limit: 429 with Retry-After and the RateLimit headers.
    const limited = createPartnerBApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      jwt: { secret: JWT_SECRET },
      tierLimits: { perHour: async () => 1 },
    });
    conform(await request(limited).get(`${BASE}/webhooks`).set(auth));
    expect(conform(await request(limited).get(`${BASE}/webhooks`).set(auth)).status).toBe(429);

    expect(conformance.answers).toBeGreaterThan(20);
    expect(conformance.problems).toEqual([]);
  });
});
