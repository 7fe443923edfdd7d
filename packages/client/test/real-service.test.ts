/**
 * Both clients against the real front-ends (the apps `pnpm start` serves, listening on loopback): every
 * method, the contract's field names at run time, the service's errors as `LoanMatchApiError`s, and a
 * retry after a lost answer being answered from the first request.
 */
import { randomUUID } from 'node:crypto';
import { createPartnerAApp, BASE_PATH_A } from '@loanmatch/partner-a';
import { createPartnerBApp, BASE_PATH_B } from '@loanmatch/partner-b';
import { createPartner, createSandboxBureau, revokeKey, type CreditBureau } from '@loanmatch/domain';
import { listen, type Listener } from '@loanmatch/http';
import {
  ONE_STORAGE,
  TEST_PUBLIC_BASE_URL,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  startWebhookReceiver,
  countRows,
  type TestContext,
  type WebhookReceiver,
} from '../../../tests/support';
import {
  LoanMatchApiError,
  LoanMatchClientA,
  LoanMatchClientB,
  type ApplicantDetails,
  type ClientAOptions,
} from '../src';
import { recordingSleep } from './fake-server';

const JWT_SECRET = 'client-test-jwt-secret-0123456789abcdef-0123';
const APPLICANT: ApplicantDetails = {
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'jordan@example.com',
  mobileNumber: '0412345678',
  dateOfBirth: '14/07/1988',
  consentCreditCheck: true,
};
const keysOf = (value: object) => Object.keys(value).sort();

/** A fetch that records each request and can lose the answer to chosen ones after the service has acted. */
function instrumentedFetch() {
  const sent: { method: string; path: string; idempotencyKey: string | null }[] = [];
  let lose: (method: string, path: string) => boolean = () => false;
  const wrapped: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    sent.push({ method, path: url.pathname, idempotencyKey: new Headers(init?.headers).get('idempotency-key') });
    const response = await fetch(input, init);
    if (lose(method, url.pathname)) {
      lose = () => false;
      await response.text();
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    }
    return response;
  };
  return {
    fetch: wrapped,
    sent,
    loseNext: (match: (method: string, path: string) => boolean) => {
      lose = match;
    },
  };
}

describe('the clients against the real service', () => {
  let t: TestContext;
  let listeners: Listener[];
  let urlA: string;
  let urlB: string;
  let limitedA: string;
  let partner: { partnerId: string; apiKey: string; keyId: string };
  let bureauCalls: number;
  let net: ReturnType<typeof instrumentedFetch>;
  let receiver: WebhookReceiver;

  const clientA = (options: Partial<ClientAOptions> = {}) =>
    new LoanMatchClientA({
      baseUrl: urlA,
      apiKey: partner.apiKey,
      fetch: net.fetch,
      sleep: recordingSleep().sleep,
      ...options,
    });
  const clientB = () =>
    new LoanMatchClientB({ baseUrl: urlB, apiKey: partner.apiKey, fetch: net.fetch, sleep: recordingSleep().sleep });
  const applicationsOf = (partnerId: string) => countRows(t.db, 'applications', { partnerId });

  beforeAll(async () => {
    const sandbox = createSandboxBureau();
    const bureau: CreditBureau = {
      sandbox: true,
      requestScore: (req) => {
        bureauCalls++;
        return sandbox.requestScore(req);
      },
    };
    t = await createTestContext(ONE_STORAGE, { bureau });
    const common = { ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping() };
    listeners = await Promise.all([
      listen('A', createPartnerAApp({ ...common, rateLimitPerMinute: 10_000 }), 0, '127.0.0.1', BASE_PATH_A),
      listen('B', createPartnerBApp({ ...common, jwt: { secret: JWT_SECRET } }), 0, '127.0.0.1', BASE_PATH_B),
      listen('A limited', createPartnerAApp({ ...common, rateLimitPerMinute: 2 }), 0, '127.0.0.1', BASE_PATH_A),
    ]);
    [urlA, urlB, limitedA] = listeners.map((l) => l.url);
    receiver = await startWebhookReceiver();
  });
  beforeEach(async () => {
    bureauCalls = 0;
    net = instrumentedFetch();
    const created = await createPartner(t.ctx, {
      body: { name: `Partner ${randomUUID()}`, tier: 'enterprise', environment: 'sandbox' },
    });
    if (!created.ok) throw created.error;
    partner = created.value;
  });
  afterAll(async () => {
    for (const { server } of listeners ?? []) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await receiver?.close();
    await t?.close();
  });

  it("when a partner goes from create to referral with client A, then every answer has the contract's fields", async () => {
    const a = clientA();
    const created = await a.createApplication({ formType: 'car', data: { ...VALID_STEPS.car[1] } });
    expect(created).toEqual({ applicationId: expect.any(String), formType: 'car', status: 'draft', lastStep: 1 });
    const id = created.applicationId;
    await a.saveStep<2, 'car'>(id, 2, { ...VALID_STEPS.car[2] });
    await a.saveStep<3, 'car'>(id, 3, { ...VALID_STEPS.car[3] });
    const saved = await a.saveStep<4, 'car'>(id, 4, { ...VALID_STEPS.car[4] });
    expect(saved).toMatchObject({ applicationId: id, status: 'in_progress', lastStep: 4 });

    const checked = await a.runCreditCheck(id, APPLICANT, { sandboxScore: 'very_good' });
    expect(checked).toEqual({ applicationId: id, creditCheckComplete: true, degraded_mode: false, sandbox_mode: true });

    const got = await a.getApplication(id);
    expect(keysOf(got)).toEqual([
      'applicationId',
      'createdAt',
      'creditCheckComplete',
      'creditCheckedAt',
      'formType',
      'lastStep',
      'status',
      'steps',
      'updatedAt',
    ]);
    expect(got).toMatchObject({
      status: 'credit_checked',
      lastStep: 5,
      creditCheckComplete: true,
      steps: { '2': { loanAmount: 22000 } },
    });

    const matched = await a.match(id);
    expect(keysOf(matched)).toEqual([
      'acceptedOffers',
      'applicationId',
      'assessment',
      'degraded_mode',
      'generatedAt',
      'matchId',
      'nearMissOffers',
    ]);
    expect(matched.acceptedOffers.length).toBeGreaterThan(0);
    const [offer] = matched.acceptedOffers;
    expect(keysOf(offer)).toEqual([
      'certainty',
      'conditions',
      'expiresAt',
      'headline',
      'lender',
      'offerDetails',
      'offerId',
      'product',
      'trackingUrl',
    ]);
    expect(offer).toMatchObject({ certainty: 'pre_qualified', conditions: [] });
    expect(offer.offerDetails).toMatchObject({
      interestRate: expect.any(Number),
      comparisonRate: expect.any(Number),
      loanTermMonths: 60,
      balloonAmount: expect.any(Number),
    });
    for (const miss of matched.nearMissOffers)
      expect(keysOf(miss)).toEqual(['headline', 'lender', 'product', 'reasons', 'wouldQualifyIf']);

    // The applicant's browser follows the link (not the client's job); the referral is then listed.
    const followed = await fetch(offer.trackingUrl.replace(TEST_PUBLIC_BASE_URL, new URL(urlA).origin), {
      redirect: 'manual',
    });
    expect(followed.status).toBe(302);
    const page = await a.listReferrals({ limit: 10 });
    expect(page).toEqual({
      referrals: [
        {
          referralId: expect.any(String),
          applicationId: id,
          offerId: offer.offerId,
          lender: offer.lender,
          product: offer.product,
          referredAt: expect.any(String),
          // Until its lender reports: no outcome, no commission; no tags were given at create.
          clientTags: {},
          outcome: null,
          commission: null,
          attribution: 'owner',
        },
      ],
      nextCursor: null,
    });
    expect((await a.getApplication(id)).status).toBe('referred');
  });

  it('when the answer to a create and to a credit check is lost after the service acted, then the retry under the same key is answered from the first: one application, one check', async () => {
    const a = clientA();
    net.loseNext((method, path) => method === 'POST' && path.endsWith('/applications'));
    const created = await a.createApplication({ formType: 'personal', data: { loanAmount: 15000 } });
    const creates = net.sent.filter((r) => r.method === 'POST');
    expect(creates).toHaveLength(2);
    expect(creates[1].idempotencyKey).toBe(creates[0].idempotencyKey);
    expect(await applicationsOf(partner.partnerId)).toBe(1);
    expect((await a.getApplication(created.applicationId)).status).toBe('draft');

    for (const step of [2, 3, 4] as const)
      await a.saveStep(created.applicationId, step, { ...VALID_STEPS.personal[step] });
    net.loseNext((_method, path) => path.endsWith('/credit-check'));
    await expect(a.runCreditCheck(created.applicationId, APPLICANT, { sandboxScore: 'good' })).resolves.toMatchObject({
      creditCheckComplete: true,
    });
    const checks = net.sent.filter((r) => r.path.endsWith('/credit-check'));
    expect(checks.map((r) => r.idempotencyKey)).toEqual([checks[0].idempotencyKey, checks[0].idempotencyKey]);
    expect(bureauCalls).toBe(1);
  });

  it('when the service refuses, then the client throws its code, message, details and request id', async () => {
    const a = clientA();
    const invalid = await a
      .createApplication({ formType: 'personal', data: { loanAmount: 999 } })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(LoanMatchApiError);
    expect(invalid).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'loanAmount: must be between 1000 and 100000',
      details: [
        expect.objectContaining({ field: 'loanAmount', message: 'loanAmount: must be between 1000 and 100000' }),
      ],
      requestId: expect.any(String),
      attempts: 1,
    });

    await expect(a.getApplication(randomUUID())).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const { applicationId } = await a.createApplication({ formType: 'home', data: { ...VALID_STEPS.home[1] } });
    await expect(a.saveStep(applicationId, 3, { ...VALID_STEPS.home[3] })).rejects.toMatchObject({
      status: 409,
      code: 'STEP_OUT_OF_ORDER',
    });
    await expect(a.match(applicationId)).rejects.toMatchObject({ status: 409, code: 'CREDIT_CHECK_REQUIRED' });
    await a.createApplication({ formType: 'personal', data: { loanAmount: 2000 } }, { idempotencyKey: 'reused-key' });
    await expect(
      a.createApplication({ formType: 'personal', data: { loanAmount: 3000 } }, { idempotencyKey: 'reused-key' }),
    ).rejects.toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
      idempotencyKey: 'reused-key',
    });
  });

  it('when the per-minute limit is reached, then the client waits the Retry-After the service sends, and throws it when retries run out', async () => {
    const recording = recordingSleep();
    const a = clientA({ baseUrl: limitedA, sleep: recording.sleep, retries: 2 });
    await a.listReferrals();
    await a.listReferrals();
    const error = await a.listReferrals().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', attempts: 3 });
    const retryAfter = (error as LoanMatchApiError).retryAfter!;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(recording.waits).toHaveLength(2);
    // Whole seconds, as the service counts them (two attempts may straddle a second's turn).
    for (const wait of recording.waits) expect([retryAfter * 1000, (retryAfter + 1) * 1000]).toContain(wait);
  });

  it('when a partner manages webhooks with client A, then register, list, test, deliveries, rotate and delete answer as documented', async () => {
    const a = clientA();
    const registered = await a.webhooks.register({
      url: `${receiver.origin}/client-hooks`,
      events: ['application.status_changed'],
    });
    expect(registered).toMatchObject({
      url: `${receiver.origin}/client-hooks`,
      events: ['application.status_changed'],
      status: 'active',
      secret: expect.stringMatching(/^whsec_/),
    });
    const { webhookId } = registered;
    const listed = await a.webhooks.list();
    expect(listed.webhooks.map((w) => w.webhookId)).toEqual([webhookId]);
    expect(keysOf(listed.webhooks[0])).toEqual(keysOf(registered).filter((k) => k !== 'secret'));
    await expect(a.webhooks.sendTest(webhookId)).resolves.toEqual({
      webhookId,
      eventId: expect.any(String),
      type: 'webhook.test',
    });
    await expect(a.webhooks.listDeliveries(webhookId, { limit: 5 })).resolves.toEqual({
      webhookId,
      pending: 1,
      deliveries: [],
    });
    const rotated = await a.webhooks.rotateSecret(webhookId);
    expect(rotated).toEqual({
      webhookId,
      secret: expect.stringMatching(/^whsec_/),
      previousSecretExpiresAt: expect.any(String),
    });
    expect(rotated.secret).not.toBe(registered.secret);
    await expect(a.webhooks.delete(webhookId)).resolves.toEqual({ webhookId, deleted: true });
    await expect(a.webhooks.delete(webhookId)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('when a partner creates with client B, saves steps with client A and checks and matches with B, then one token serves every B call', async () => {
    const a = clientA();
    const b = clientB();
    const created = await b.createApplication({
      formType: 'personal',
      loanAmount: 15000,
      loanPurpose: 'debt_consolidation',
      firstName: 'Jordan',
      lastName: 'Citizen',
      email: 'jordan@example.com',
      phone: '0412345678',
    });
    expect(created).toEqual({ applicationId: expect.any(String), securityToken: expect.stringMatching(/^st_/) });
    const { applicationId, securityToken } = created;
    for (const step of [2, 3, 4] as const) await a.saveStep(applicationId, step, { ...VALID_STEPS.personal[step] });

    await expect(
      b.runCreditCheck(applicationId, 'st_not-it', { dateOfBirth: '1988-07-14', consentCreditCheck: true }),
    ).rejects.toMatchObject({
      status: 403,
      code: 'INVALID_SECURITY_TOKEN',
    });
    const checked = await b.runCreditCheck(
      applicationId,
      securityToken,
      { dateOfBirth: '1988-07-14', consentCreditCheck: true },
      { sandboxScore: 'very_good' },
    );
    expect(checked).toEqual({ applicationId, creditCheckComplete: true, degraded_mode: false, sandbox_mode: true });
    const matched = await b.match(applicationId, securityToken);
    expect(matched.applicationId).toBe(applicationId);
    expect(matched.acceptedOffers.length + matched.nearMissOffers.length).toBeGreaterThan(0);
    expect((await b.webhooks.list()).webhooks).toEqual([]);
    expect(net.sent.filter((r) => r.path === `${BASE_PATH_B}/auth/token`)).toHaveLength(1);
    expect(await a.getApplication(applicationId)).toMatchObject({ status: 'matched', lastStep: 5 });
  });

  it("when a partner uses client B alone, then the spec's calls reach indicative offers and updateApplication makes them pre-qualified", async () => {
    const b = clientB();
    const { applicationId, securityToken } = await b.createApplication({
      formType: 'personal',
      loanAmount: 15000,
      loanPurpose: 'debt_consolidation',
      firstName: 'Jordan',
      lastName: 'Citizen',
      email: 'jordan@example.com',
      phone: '0412345678',
      consentCreditCheck: true,
    });
    await expect(
      b.runCreditCheck(applicationId, securityToken, {}, { sandboxScore: 'excellent' }),
    ).resolves.toMatchObject({ creditCheckComplete: true });
    const thin = await b.match(applicationId, securityToken);
    expect(thin.acceptedOffers.length).toBeGreaterThan(0);
    for (const offer of thin.acceptedOffers)
      expect(offer).toMatchObject({
        certainty: 'indicative',
        assumedLoanTermMonths: offer.offerDetails.loanTermMonths,
      });

    await expect(b.updateApplication(applicationId, 'st_not-it', { loanTerm: 5 })).rejects.toMatchObject({
      status: 403,
      code: 'INVALID_SECURITY_TOKEN',
    });
    await expect(
      b.updateApplication(applicationId, securityToken, { dateOfBirth: '1970-01-01' }),
    ).rejects.toMatchObject({ status: 409, code: 'CREDIT_CHECK_ALREADY_COMPLETED' });
    const updated = await b.updateApplication(applicationId, securityToken, {
      ...VALID_STEPS.personal[2],
      ...VALID_STEPS.personal[3],
      ...VALID_STEPS.personal[4],
    });
    expect(updated).toEqual({
      applicationId,
      status: 'matched',
      lastStep: 5,
      creditCheckComplete: true,
      missingFields: [],
    });
    const full = await b.match(applicationId, securityToken);
    expect(full.acceptedOffers.length).toBeGreaterThan(0);
    for (const offer of full.acceptedOffers)
      expect(offer).toMatchObject({ certainty: 'pre_qualified', conditions: [] });
  });

  it("when the key behind client B is revoked, then its next call fails with the exchange's 401 after one renewal", async () => {
    const b = clientB();
    await b.webhooks.list();
    const revoked = await revokeKey(t.ctx, { keyId: partner.keyId });
    expect(revoked.ok).toBe(true);
    await expect(b.webhooks.list()).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      message: expect.stringContaining('API key'),
    });
    expect(net.sent.map((r) => `${r.method} ${r.path.replace(BASE_PATH_B, '')}`)).toEqual([
      'POST /auth/token',
      'GET /webhooks',
      'GET /webhooks',
      'POST /auth/token',
    ]);
  });
});
