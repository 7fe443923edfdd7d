import request from 'supertest';
import { createPartnerAApp } from '../src/app';
import type { BureauRequest, CreditBureau } from '@loanmatch/domain';
import { createSandboxBureau, requestFingerprint as fingerprintOf, revokeApiKey } from '@loanmatch/domain';
import {
  LOAN_TYPES,
  STORAGES,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  validApplicant,
  type TestContext,
} from '@loanmatch/testing';
import { BASE, applicantBody, applicationThroughStep4, client, newPartnerKey, type Client } from './helpers';

/** A sandbox bureau that the test can make slow or broken. */
function controllableBureau() {
  const sandbox = createSandboxBureau();
  const state: { gate?: Promise<void>; fail?: Error; calls: number } = { calls: 0 };
  const bureau: CreditBureau = {
    sandbox: true,
    async requestScore(req: BureauRequest) {
      state.calls++;
      if (state.gate) await state.gate;
      if (state.fail) throw state.fail;
      return sandbox.requestScore(req);
    },
  };
  return { bureau, state };
}

describe.each(STORAGES)('Variant A on %s', (storage) => {
  let t: TestContext;
  let control: ReturnType<typeof controllableBureau>;
  let app: ReturnType<typeof createPartnerAApp>;
  let c: Client;
  let other: Client;
  let partnerId: string;

  beforeAll(async () => {
    control = controllableBureau();
    t = await createTestContext(storage, { bureau: control.bureau });
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), rateLimitPerMinute: 10_000 });
    const mine = await newPartnerKey(t.ctx, 'Mine');
    partnerId = mine.partnerId;
    c = client(app, mine.apiKey);
    other = client(app, (await newPartnerKey(t.ctx, 'Other')).apiKey);
  });
  afterAll(() => t.close());
  afterEach(() => {
    control.state.gate = undefined;
    control.state.fail = undefined;
  });

  const countApplications = () => t.db.prisma.application.count({ where: { partnerId } });

  describe('the whole flow', () => {
    it.each(LOAN_TYPES)(
      'when a %s application goes through every step, then its status and last step follow',
      async (type) => {
        const created = await c.create({ formType: type, data: VALID_STEPS[type][1] }, `create-${type}`);
        expect(created.status).toBe(201);
        expect(created.body).toEqual({
          success: true,
          data: expect.objectContaining({ applicationId: expect.any(String) }),
        });
        const id = created.body.data.applicationId;
        expect((await c.get(id)).body.data).toMatchObject({
          applicationId: id,
          formType: type,
          status: 'draft',
          lastStep: 1,
        });

        for (const step of [2, 3, 4] as const) {
          const saved = await c.patch(id, { step, data: VALID_STEPS[type][step] });
          expect(saved.status).toBe(200);
          expect(saved.body.data).toMatchObject({ status: 'in_progress', lastStep: step });
        }
        const checked = await c.check(id, applicantBody(), `check-${type}`, 'good');
        expect(checked.status).toBe(200);
        expect(checked.body).toEqual({
          success: true,
          data: { applicationId: id, creditCheckComplete: true, degraded_mode: false, sandbox_mode: true },
        });

        const got = await c.get(id);
        expect(got.status).toBe(200);
        expect(got.body.data).toMatchObject({
          applicationId: id,
          formType: type,
          status: 'credit_checked',
          lastStep: 5,
          creditCheckComplete: true,
        });
        expect(Object.keys(got.body.data)).toEqual(
          expect.arrayContaining(['applicationId', 'formType', 'status', 'lastStep', 'createdAt', 'updatedAt']),
        );
        const text = JSON.stringify(got.body);
        for (const secret of ['Jordan', 'Citizen', 'jordan.citizen@example.com', '0412345678', '1988-07-14'])
          expect(text).not.toContain(secret);
        expect(text).not.toMatch(/"(score|band|creditScore)"/);
        expect(got.body.data.steps['5']).toBeUndefined();
      },
    );

    it('when numbers arrive as strings and unknown fields are sent, then numbers are stored, unknowns dropped and defaults applied', async () => {
      const created = await c.create({ formType: 'personal', data: { loanAmount: '12000', favouriteColour: 'blue' } });
      const id = created.body.data.applicationId;
      await c.patch(id, { step: 2, data: { loanPurpose: 'wedding', loanTerm: '3' } });
      await c.patch(id, { step: 3, data: { employmentType: 'casual', grossMonthlyIncome: '4200.50', hobby: 'chess' } });
      const got = await c.get(id);
      expect(got.body.data.steps).toEqual({
        '1': { loanAmount: 12000 },
        '2': { loanPurpose: 'wedding', loanTerm: 3 },
        '3': { employmentType: 'casual', grossMonthlyIncome: 4200.5, otherIncome: 0 },
      });
    });

    it('when a step is sent again, then it replaces the earlier one and the status stays where it was', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      await c.check(id, applicantBody(), `replace-${id}`, 'average');
      const saved = await c.patch(id, { step: 2, data: { loanPurpose: 'holiday', loanTerm: 2 } });
      expect(saved.body.data).toMatchObject({ status: 'credit_checked', lastStep: 5, creditCheckComplete: true });
      expect(saved.body.data.steps['2']).toEqual({ loanPurpose: 'holiday', loanTerm: 2 });
    });
  });

  describe('order and state', () => {
    it('when step 3 is sent before step 2, then 409 STEP_OUT_OF_ORDER and nothing is saved', async () => {
      const id = (await c.create({ formType: 'personal', data: { loanAmount: 5000 } })).body.data.applicationId;
      const res = await c.patch(id, { step: 3, data: VALID_STEPS.personal[3] });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ success: false, error: 'STEP_OUT_OF_ORDER' });
      expect((await c.get(id)).body.data).toMatchObject({
        lastStep: 1,
        status: 'draft',
        steps: { '1': { loanAmount: 5000 } },
      });
    });

    it('when the credit check comes before step 4, then 409 STEPS_INCOMPLETE and no check runs', async () => {
      const id = (await c.create({ formType: 'personal', data: { loanAmount: 5000 } })).body.data.applicationId;
      await c.patch(id, { step: 2, data: VALID_STEPS.personal[2] });
      const calls = control.state.calls;
      const res = await c.check(id, applicantBody(), `early-${id}`);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('STEPS_INCOMPLETE');
      expect(control.state.calls).toBe(calls);
    });

    it('when a second check is asked with a new key, then 409 CREDIT_CHECK_ALREADY_COMPLETED and the bureau is not called again', async () => {
      const id = await applicationThroughStep4(c, 'car');
      expect((await c.check(id, applicantBody(), `first-${id}`)).status).toBe(200);
      const calls = control.state.calls;
      const again = await c.check(id, applicantBody(), `second-${id}`);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('CREDIT_CHECK_ALREADY_COMPLETED');
      expect(control.state.calls).toBe(calls);
    });
  });

  describe('validation', () => {
    it('when the loan amount is out of bounds, then 400 names the field and the rule', async () => {
      const res = await c.create({ formType: 'personal', data: { loanAmount: 999 } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: 'VALIDATION_ERROR',
        message: 'loanAmount: must be between 1000 and 100000',
      });
      expect(res.body.details).toEqual([
        expect.objectContaining({ field: 'loanAmount', message: 'loanAmount: must be between 1000 and 100000' }),
      ]);
    });

    it('when an e-mail address is over 254 characters or a body is not sent as JSON, then 400 naming the field and the limit, or 415, and nothing changes', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      const email = `${'j'.repeat(243)}@example.com`;
      const long = await c.check(id, applicantBody({ email }), 'check-long-email', 'good');
      expect(long.status).toBe(400);
      expect(long.body).toMatchObject({ error: 'VALIDATION_ERROR', message: 'email: must be at most 254 characters' });
      expect(long.text).not.toContain(email);

      const before = await countApplications();
      const text = await request(app)
        .post(`${BASE}/applications`)
        .set({ Authorization: c.auth.Authorization, 'Content-Type': 'text/plain' })
        .send(JSON.stringify({ formType: 'personal', data: { loanAmount: 5000 } }));
      expect(text.status).toBe(415);
      expect(text.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(await countApplications()).toBe(before);
      const read = await c.get(id);
      expect(read.body.data).toMatchObject({ status: 'in_progress', creditCheckComplete: false });
    });

    it('when several fields are wrong, then every violation is listed and nothing is saved', async () => {
      const before = await countApplications();
      const res = await c.create({ formType: 'car', data: { carLoanPurpose: 'used', hasFoundCar: 'yes' } });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(['estimatedCarPrice', 'vehicleYear', 'usedCarSaleType']),
      );
      expect(await countApplications()).toBe(before);
    });

    it('when a nested address field is too long, then the message names it by path', async () => {
      const id = (await c.create({ formType: 'personal', data: { loanAmount: 5000 } })).body.data.applicationId;
      await c.patch(id, { step: 2, data: VALID_STEPS.personal[2] });
      await c.patch(id, { step: 3, data: VALID_STEPS.personal[3] });
      const res = await c.patch(id, {
        step: 4,
        data: { livingSituation: 'renting', homeAddressComponents: { postcode: '12345678901' } },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^homeAddressComponents\.postcode: /);
    });

    it.each([
      ['missing', {}],
      ['false', { consentCreditCheck: false }],
      ['the string "true"', { consentCreditCheck: 'true' }],
      ['the number 1', { creditCheckConsent: 1 }],
    ])(
      'when credit check consent is %s, then 400 VALIDATION_ERROR, no check runs, nothing changes and the key is released',
      async (_label, consent) => {
        const id = await applicationThroughStep4(c, 'home');
        const calls = control.state.calls;
        const { consentCreditCheck: _drop, ...withoutConsent } = validApplicant();
        const refused = await c.check(id, { data: { ...withoutConsent, ...consent } }, `consent-${id}`);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toBe('VALIDATION_ERROR');
        expect(control.state.calls).toBe(calls);
        expect((await c.get(id)).body.data).toMatchObject({
          status: 'in_progress',
          lastStep: 4,
          creditCheckComplete: false,
        });
        const fixed = await c.check(id, applicantBody(), `consent-${id}`);
        expect(fixed.status).toBe(200);
        expect(fixed.headers['idempotency-replayed']).toBeUndefined();
      },
    );

    it.each(['privacyConsent', 'creditCheckConsent'])(
      'when consent is given through the alias %s, then the check runs',
      async (alias) => {
        const id = await applicationThroughStep4(c, 'personal');
        const { consentCreditCheck: _drop, ...rest } = validApplicant();
        expect((await c.check(id, { data: { ...rest, [alias]: true } }, `alias-${id}`)).status).toBe(200);
      },
    );

    it('when step 5 is invalid, then the message names the field without echoing the value', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      const res = await c.check(id, applicantBody({ email: 'not-an-email-secret' }), `email-${id}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^email: /);
      expect(JSON.stringify(res.body)).not.toContain('not-an-email-secret');
    });
  });

  describe('sandbox scores', () => {
    it.each(['excellent', 'very_good', 'good', 'average', 'below_average', 'poor', '0', '1200', '650'])(
      'when X-Sandbox-Score is %s, then the check completes without degraded mode',
      async (score) => {
        const id = await applicationThroughStep4(c, 'personal');
        const res = await c.check(id, applicantBody(), `score-${id}`, score);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({
          applicationId: id,
          creditCheckComplete: true,
          degraded_mode: false,
          sandbox_mode: true,
        });
      },
    );

    it('when X-Sandbox-Score is unavailable, then the check completes in degraded mode', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      const res = await c.check(id, applicantBody(), `down-${id}`, 'unavailable');
      expect(res.body.data).toMatchObject({ creditCheckComplete: true, degraded_mode: true });
    });

    it.each(['1201', '-1', '12.5', 'great', 'EXCELLENT', ''])(
      'when X-Sandbox-Score is "%s", then 400 VALIDATION_ERROR and no check runs',
      async (score) => {
        const id = await applicationThroughStep4(c, 'personal');
        const calls = control.state.calls;
        const res = await c.check(id, applicantBody(), `bad-${id}`, score);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          error: 'VALIDATION_ERROR',
          message: expect.stringMatching(/^X-Sandbox-Score: /),
        });
        expect(control.state.calls).toBe(calls);
      },
    );

    it('when the stored score is read, then it is on the 0-1200 scale and stable for the same applicant', async () => {
      const first = await applicationThroughStep4(c, 'personal');
      const second = await applicationThroughStep4(c, 'personal');
      await c.check(first, applicantBody(), `stable-${first}`);
      await c.check(second, applicantBody(), `stable-${second}`);
      const rows = await t.db.prisma.creditCheck.findMany({ where: { applicationId: { in: [first, second] } } });
      expect(rows).toHaveLength(2);
      expect(rows[0].score).toBe(rows[1].score);
      expect(rows[0].score).toBeGreaterThanOrEqual(0);
      expect(rows[0].score).toBeLessThanOrEqual(1200);
    });
  });

  describe('idempotency', () => {
    it('when a create is retried with the same key, then the first answer is replayed and no second application is made', async () => {
      const body = { formType: 'personal', data: { loanAmount: 7000 } };
      const first = await c.create(body, 'replay-create');
      const before = await countApplications();
      const again = await c.create(body, 'replay-create');
      expect(again.status).toBe(201);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(await countApplications()).toBe(before);
    });

    it('when the same key comes with a different body, then 422 IDEMPOTENCY_KEY_REUSED', async () => {
      await c.create({ formType: 'personal', data: { loanAmount: 7000 } }, 'reuse-key');
      const res = await c.create({ formType: 'personal', data: { loanAmount: 8000 } }, 'reuse-key');
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
    });

    it('when twelve creates with one key arrive at once, then exactly one application is made', async () => {
      const before = await countApplications();
      const body = { formType: 'home', data: VALID_STEPS.home[1] };
      const answers = await Promise.all(Array.from({ length: 12 }, () => c.create(body, 'twelve-at-once')));
      expect(await countApplications()).toBe(before + 1);
      const created = answers.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.body.data.applicationId)).size).toBe(1);
      for (const r of answers.filter((a) => a.status !== 201)) expect(r.body.error).toBe('IDEMPOTENCY_IN_PROGRESS');
    });

    it('when the first request is still running, then a retry gets 409 IDEMPOTENCY_IN_PROGRESS', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      let open!: () => void;
      control.state.gate = new Promise<void>((resolve) => (open = resolve));
      const first = c.check(id, applicantBody(), `slow-${id}`).then((r) => r);
      await new Promise((r) => setTimeout(r, 150));
      const retry = await c.check(id, applicantBody(), `slow-${id}`);
      expect(retry.status).toBe(409);
      expect(retry.body.error).toBe('IDEMPOTENCY_IN_PROGRESS');
      open();
      expect((await first).status).toBe(200);
      const replay = await c.check(id, applicantBody(), `slow-${id}`);
      expect(replay.headers['idempotency-replayed']).toBe('true');
    });

    it('when the first request failed with a 5xx, then the key is unresolved, and the application can be checked with a new key', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      control.state.fail = new Error('bureau exploded at /internal/secret/path');
      const failed = await c.check(id, applicantBody(), `boom-${id}`);
      expect(failed.status).toBe(500);
      expect(failed.body).toMatchObject({ success: false, error: 'INTERNAL_ERROR' });
      expect(failed.text).not.toMatch(/exploded|secret|\bat \w/);
      expect(failed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(failed.body.message).toContain(failed.headers['x-request-id']);
      control.state.fail = undefined;
      const retry = await c.check(id, applicantBody(), `boom-${id}`);
      expect(retry.status).toBe(409);
      expect(retry.body.error).toBe('IDEMPOTENCY_KEY_UNRESOLVED');
      expect((await c.get(id)).body.data.creditCheckComplete).toBe(false);
      expect((await c.check(id, applicantBody(), `boom-new-${id}`)).status).toBe(200);
    });

    it('when the process that held a key died, then the key answers 409 IDEMPOTENCY_KEY_UNRESOLVED', async () => {
      await t.db.prisma.idempotencyKey.create({
        data: {
          partnerId,
          key: 'orphaned',
          fingerprint: fingerprintOf(t.ctx, {
            operation: 'create-application',
            body: { formType: 'personal', data: { loanAmount: 5000 } },
          }),
          state: 'in_progress',
          ownerId: '00000000-0000-4000-8000-000000000000',
          expiresAt: new Date(Date.now() + 60_000),
        },
      });
      const res = await c.create({ formType: 'personal', data: { loanAmount: 5000 } }, 'orphaned');
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('IDEMPOTENCY_KEY_UNRESOLVED');
    });

    it('when keys of the same value come from two partners, then each partner gets its own application', async () => {
      const body = { formType: 'personal', data: { loanAmount: 9000 } };
      const a = await c.create(body, 'shared-value');
      const b = await other.create(body, 'shared-value');
      expect(b.status).toBe(201);
      expect(b.headers['idempotency-replayed']).toBeUndefined();
      expect(b.body.data.applicationId).not.toBe(a.body.data.applicationId);
    });

    it('when the credit check has no Idempotency-Key, then 400 names the header', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      const res = await c.check(id, applicantBody(), undefined);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Idempotency-Key: /);
    });
  });

  describe('ownership and errors', () => {
    it('when another partner, an unknown id or a malformed id is asked for, then the same 404 NOT_FOUND', async () => {
      const id = (await c.create({ formType: 'personal', data: { loanAmount: 5000 } })).body.data.applicationId;
      const answers = [
        await other.get(id),
        await c.get('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d'),
        await c.get('not-a-uuid'),
        await other.patch(id, { step: 2, data: VALID_STEPS.personal[2] }),
        await other.check(id, applicantBody(), `foreign-${id}`),
      ];
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, error: 'NOT_FOUND', message: 'Application not found' });
      }
      expect((await c.get(id)).body.data.lastStep).toBe(1);
    });

    it('when there is no key, a malformed key, a revoked key or a live key, then 401 UNAUTHORIZED', async () => {
      const revoked = await newPartnerKey(t.ctx, 'Revoked');
      await revokeApiKey(t.ctx, { keyId: revoked.keyId });
      const live = `lm_live_${'A'.repeat(43)}`;
      const tries = [
        request(app).get(`${BASE}/applications/x`),
        request(app).get(`${BASE}/applications/x`).set('Authorization', 'Basic abc'),
        request(app).get(`${BASE}/applications/x`).set('Authorization', 'Bearer lm_sandbox_short'),
        request(app).get(`${BASE}/applications/x`).set('Authorization', `Bearer ${revoked.apiKey}`),
        request(app).get(`${BASE}/applications/x`).set('Authorization', `Bearer ${live}`),
      ];
      for (const res of await Promise.all(tries)) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ success: false, error: 'UNAUTHORIZED' });
        expect(res.headers['x-request-id']).toBeTruthy();
        expect(res.text).not.toContain(revoked.apiKey);
      }
    });

    it('when the body is not JSON, not sent as JSON, too large, or the route unknown, then the envelope and a request id', async () => {
      const auth = {
        Authorization: `Bearer ${(await newPartnerKey(t.ctx)).apiKey}`,
        'Content-Type': 'application/json',
      };
      const bad = await request(app).post(`${BASE}/applications`).set(auth).send('{"formType":');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('INVALID_JSON');
      const big = await request(app)
        .post(`${BASE}/applications`)
        .set(auth)
        .send(JSON.stringify({ formType: 'personal', data: { pad: 'x'.repeat(1_100_000) } }));
      expect(big.status).toBe(413);
      expect(big.body.error).toBe('PAYLOAD_TOO_LARGE');
      const text = await request(app)
        .post(`${BASE}/applications`)
        .set({ Authorization: auth.Authorization, 'Content-Type': 'text/plain' })
        .send('formType=personal');
      expect(text.status).toBe(415);
      expect(text.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
      const unknown = await request(app).get('/nowhere');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('NOT_FOUND');
      for (const res of [bad, big, text, unknown]) expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('when a caller sends its own X-Request-Id, then it is echoed; a malformed one is replaced', async () => {
      expect(
        (await request(app).get('/healthz').set('X-Request-Id', 'partner-trace-123')).headers['x-request-id'],
      ).toBe('partner-trace-123');
      const weird = await request(app).get('/healthz').set('X-Request-Id', 'bad id\twith tab');
      expect(weird.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('when health and readiness are asked, then 200', async () => {
      expect((await request(app).get('/healthz')).status).toBe(200);
      expect((await request(app).get('/readyz')).status).toBe(200);
    });
  });

  it('when a key exceeds its per-minute limit, then 429 RATE_LIMITED with Retry-After and RateLimit headers, other keys unaffected', async () => {
    const limited = createPartnerAApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: () => t.db.ping(),
      rateLimitPerMinute: 3,
    });
    const one = client(limited, (await newPartnerKey(t.ctx)).apiKey);
    const two = client(limited, (await newPartnerKey(t.ctx)).apiKey);
    for (let i = 0; i < 3; i++) expect((await one.get('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d')).status).toBe(404);
    const refused = await one.get('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.ratelimit).toMatch(/r=0/);
    expect(refused.headers['ratelimit-policy']).toMatch(/q=3/);
    expect(refused.headers['x-request-id']).toBeTruthy();
    expect((await two.get('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d')).status).toBe(404);
  });
});
