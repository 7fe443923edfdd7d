import { createHash, createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createPartnerAApp } from '@loanmatch/partner-a';
import {
  CURRENT_CONSENT_TEXTS,
  createSandboxBureau,
  readApplicantDetails,
  revokeApiKey,
  type BureauRequest,
  type CreditBureau,
} from '@loanmatch/domain';
import { jwtKeyId } from '@loanmatch/http';
import { STORAGES, VALID_STEPS, createTestContext, silentLogger, type TestContext } from '@loanmatch/testing';
import { JWT_AUDIENCE, createPartnerBApp, jwtIssuer } from '../src/app';
import {
  BASE,
  JWT_SECRET,
  accessTokenFor,
  clientB,
  exchange,
  flatApplication,
  newPartner,
  type ClientB,
} from './helpers';

const ADMIN_TOKEN = 'lm_admin_not-an-access-token-0123456789abcdef';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A JWT signed by hand, for tokens jsonwebtoken would refuse to make. */
function handSigned(header: object, payload: object, secret: string, hash: 'sha256' | 'sha512' = 'sha256'): string {
  const data = `${b64(header)}.${b64(payload)}`;
  return `${data}.${createHmac(hash, secret).update(data).digest('base64url')}`;
}

function countingBureau() {
  const sandbox = createSandboxBureau();
  const state = { calls: 0, last: undefined as BureauRequest | undefined };
  const bureau: CreditBureau = {
    sandbox: true,
    async requestScore(req) {
      state.calls++;
      state.last = req;
      return sandbox.requestScore(req);
    },
  };
  return { bureau, state };
}

describe.each(STORAGES)('Variant B on %s', (storage) => {
  let t: TestContext;
  let counting: ReturnType<typeof countingBureau>;
  let app: ReturnType<typeof createPartnerBApp>;
  let appA: ReturnType<typeof createPartnerAApp>;
  let mine: Awaited<ReturnType<typeof newPartner>>;
  let other: Awaited<ReturnType<typeof newPartner>>;
  let c: ClientB;
  let otherClient: ClientB;

  beforeAll(async () => {
    counting = countingBureau();
    t = await createTestContext(storage, { bureau: counting.bureau });
    app = createPartnerBApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), jwt: { secret: JWT_SECRET } });
    appA = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), rateLimitPerMinute: 10_000 });
    mine = await newPartner(t.ctx, { name: 'Mine', tier: 'enterprise' });
    other = await newPartner(t.ctx, { name: 'Other', tier: 'enterprise' });
    c = clientB(app, await accessTokenFor(app, mine.apiKey));
    otherClient = clientB(app, await accessTokenFor(app, other.apiKey));
  });
  afterAll(() => t.close());

  const countApplications = (partnerId = mine.partnerId) => t.db.prisma.application.count({ where: { partnerId } });
  const viaA = (apiKey = mine.apiKey) => ({
    get: (id: string) =>
      request(appA).get(`/api/partner/v1/applications/${id}`).set('Authorization', `Bearer ${apiKey}`),
    patch: (id: string, body: object) =>
      request(appA).patch(`/api/partner/v1/applications/${id}`).set('Authorization', `Bearer ${apiKey}`).send(body),
  });
  async function created(client: ClientB = c, overrides: Record<string, unknown> = {}) {
    const res = await client.create(flatApplication(overrides));
    expect(res.status).toBe(201);
    return res.body.data as { applicationId: string; securityToken: string };
  }
  async function throughStep4(overrides: Record<string, unknown> = {}, apiKey = mine.apiKey, client: ClientB = c) {
    const app = await created(client, overrides);
    for (const step of [2, 3, 4] as const)
      expect((await viaA(apiKey).patch(app.applicationId, { step, data: VALID_STEPS.personal[step] })).status).toBe(
        200,
      );
    return app;
  }

  describe('token exchange', () => {
    it('when a valid key is exchanged with grantType api_key, then a 15-minute HS256 JWT for the partner, not cached', async () => {
      const res = await exchange(app, mine.apiKey);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 900 },
      });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toBeTruthy();
      const decoded = jwt.decode(res.body.data.accessToken, { complete: true })!;
      expect(decoded.header).toMatchObject({ alg: 'HS256', typ: 'JWT', kid: jwtKeyId(JWT_SECRET) });
      const payload = decoded.payload as jwt.JwtPayload;
      expect(payload).toMatchObject({
        sub: mine.partnerId,
        iss: 'loanmatch/sandbox',
        aud: JWT_AUDIENCE,
        api_key_id: mine.keyId,
        jti: expect.any(String),
      });
      expect(payload.exp! - payload.iat!).toBe(900);
      expect(JSON.stringify(decoded)).not.toContain(mine.apiKey);
    });

    it.each([
      [{ grantType: 'password' }, 'grantType: must be one of api_key'],
      [{}, 'grantType: is required'],
      [{ grantType: ['api_key'] }, 'grantType: must be one of api_key'],
    ])('when the body is %j, then 400 VALIDATION_ERROR "%s"', async (body, message) => {
      const res = await exchange(app, mine.apiKey, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
    });

    it('when the body is not JSON, then 400 INVALID_JSON', async () => {
      const res = await request(app)
        .post(`${BASE}/auth/token`)
        .set('X-API-Key', mine.apiKey)
        .set('Content-Type', 'application/json')
        .send('{"grantType":');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('INVALID_JSON');
    });

    it('when X-API-Key is missing, malformed, unknown, revoked, of the live environment, or sent as a bearer token, then 401 naming no key', async () => {
      const revoked = await newPartner(t.ctx, { name: 'Revoked' });
      await revokeApiKey(t.ctx, { keyId: revoked.keyId });
      const live = await newPartner(t.ctx, { name: 'Live', environment: 'live' });
      const unknown = `lm_sandbox_${'A'.repeat(43)}`;
      const cases = [
        exchange(app, undefined),
        exchange(app, 'not-a-key'),
        exchange(app, unknown),
        exchange(app, revoked.apiKey),
        exchange(app, live.apiKey),
        request(app)
          .post(`${BASE}/auth/token`)
          .set('Authorization', `Bearer ${mine.apiKey}`)
          .send({ grantType: 'api_key' }),
      ];
      for (const res of await Promise.all(cases)) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ success: false, error: 'UNAUTHORIZED', message: expect.any(String) });
        for (const key of [mine.apiKey, revoked.apiKey, live.apiKey, unknown]) expect(res.text).not.toContain(key);
      }
      expect((await exchange(app, live.apiKey)).body.message).toBe(
        'This is a live key; this server is the sandbox environment',
      );
      expect((await exchange(app, undefined)).body.message).toMatch(/X-API-Key/);
    });
  });

  describe('access tokens', () => {
    let token: string;
    let claims: jwt.JwtPayload;
    let header: jwt.JwtHeader;
    const sign = (payload: object, options: jwt.SignOptions = {}, secret = JWT_SECRET) =>
      jwt.sign(payload, secret, { algorithm: 'HS256', keyid: jwtKeyId(JWT_SECRET), ...options });

    beforeAll(async () => {
      token = await accessTokenFor(app, mine.apiKey);
      const decoded = jwt.decode(token, { complete: true })!;
      header = decoded.header;
      claims = decoded.payload as jwt.JwtPayload;
    });

    const attempt = (authorization: string | undefined) => {
      const req = request(app).post(`${BASE}/applications`);
      if (authorization !== undefined) req.set('Authorization', authorization);
      return req.send(flatApplication());
    };

    it('when a valid access token is sent, then the request is served', async () => {
      expect((await attempt(`Bearer ${token}`)).status).toBe(201);
    });

    it.each<[string, () => string | undefined, RegExp]>([
      ['no Authorization header', () => undefined, /access token is required/],
      ['a garbage bearer token', () => 'Bearer not.a.jwt', /not valid/],
      ['a Basic credential', () => `Basic ${Buffer.from('a:b').toString('base64')}`, /access token is required/],
      ['the API key as a bearer token', () => `Bearer ${mine.apiKey}`, /API key is not an access token/],
      ['the admin token as a bearer token', () => `Bearer ${ADMIN_TOKEN}`, /not valid/],
      [
        'alg: none without a signature',
        () => `Bearer ${b64({ alg: 'none', typ: 'JWT', kid: header.kid })}.${b64(claims)}.`,
        /not valid/,
      ],
      [
        'alg: none with the real signature',
        () => `Bearer ${b64({ alg: 'none', typ: 'JWT', kid: header.kid })}.${b64(claims)}.${token.split('.')[2]}`,
        /not valid/,
      ],
      [
        'HS256 signed with another secret under our kid',
        () => `Bearer ${handSigned(header, claims, 'another-secret-of-enough-length-0123456789')}`,
        /not valid/,
      ],
      [
        'HS512 signed with our own secret',
        () => `Bearer ${handSigned({ ...header, alg: 'HS512' }, claims, JWT_SECRET, 'sha512')}`,
        /not valid/,
      ],
      [
        'a payload changed after signing (another partner)',
        () => `Bearer ${token.split('.')[0]}.${b64({ ...claims, sub: other.partnerId })}.${token.split('.')[2]}`,
        /not valid/,
      ],
      [
        'a payload changed after signing (a later expiry)',
        () => `Bearer ${token.split('.')[0]}.${b64({ ...claims, exp: claims.exp! + 86_400 })}.${token.split('.')[2]}`,
        /not valid/,
      ],
      [
        'another audience',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: 'someone-else', expiresIn: 900 })}`,
        /not valid/,
      ],
      [
        'another issuer (the live server)',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('live'), audience: JWT_AUDIENCE, expiresIn: 900 })}`,
        /not valid/,
      ],
      [
        'an unknown kid',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE, expiresIn: 900, keyid: 'unknown-kid' })}`,
        /not valid/,
      ],
      [
        'no expiry',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE })}`,
        /not valid/,
      ],
      [
        'an expired token',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId, iat: Math.floor(Date.now() / 1000) - 1000 }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE, expiresIn: 900 })}`,
        /expired/,
      ],
      [
        'an expiry further out than 15 minutes',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId, iat: Math.floor(Date.now() / 1000) - 1000 }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE, expiresIn: 86_400 })}`,
        /expired/,
      ],
      [
        'a token naming another partner’s key',
        () =>
          `Bearer ${sign({ api_key_id: other.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE, expiresIn: 900 })}`,
        /no longer valid/,
      ],
    ])(
      'when the request carries %s, then 401 UNAUTHORIZED and nothing is made',
      async (_name, authorization, message) => {
        const before = await countApplications();
        const res = await attempt(authorization());
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({
          success: false,
          error: 'UNAUTHORIZED',
          message: expect.stringMatching(message),
        });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(res.text).not.toContain(JWT_SECRET);
        expect(res.text).not.toContain(mine.apiKey);
        expect(await countApplications()).toBe(before);
      },
    );

    it('when the API key a token was exchanged for is revoked, then the live token stops working and no new one is issued', async () => {
      const partner = await newPartner(t.ctx, { name: 'Soon revoked' });
      const live = await accessTokenFor(app, partner.apiKey);
      const cb = clientB(app, live);
      expect((await cb.create(flatApplication())).status).toBe(201);
      await revokeApiKey(t.ctx, { keyId: partner.keyId });
      const refused = await cb.create(flatApplication());
      expect(refused.status).toBe(401);
      expect(refused.body.message).toMatch(/no longer valid/);
      expect((await exchange(app, partner.apiKey)).status).toBe(401);
    });

    it('when the signing secret is rotated, then tokens of the previous secret work until they expire, and dropping it ends them', async () => {
      const NEW_SECRET = 'rotated-jwt-secret-for-variant-b-9876543210fedcba';
      const oldToken = await accessTokenFor(app, mine.apiKey);
      const rotated = createPartnerBApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: async () => true,
        jwt: { secret: NEW_SECRET, previousSecrets: [JWT_SECRET] },
      });
      expect((await clientB(rotated, oldToken).create(flatApplication())).status).toBe(201);
      const newToken = await accessTokenFor(rotated, mine.apiKey);
      expect(jwt.decode(newToken, { complete: true })!.header.kid).toBe(jwtKeyId(NEW_SECRET));
      expect((await clientB(rotated, newToken).create(flatApplication())).status).toBe(201);
      // The old process, without the new secret, does not know the new kid.
      expect((await clientB(app, newToken).create(flatApplication())).status).toBe(401);
      const dropped = createPartnerBApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: async () => true,
        jwt: { secret: NEW_SECRET },
      });
      expect((await clientB(dropped, oldToken).create(flatApplication())).status).toBe(401);
    });

    it("when a token is issued, then it is HS256 over the secret's UTF-8 bytes: jsonwebtoken given the secret as text verifies it, as a process of an earlier version would", async () => {
      const issued = await accessTokenFor(app, mine.apiKey);
      expect(
        jwt.verify(issued, JWT_SECRET, { algorithms: ['HS256'], issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE }),
      ).toMatchObject({ sub: mine.partnerId, api_key_id: mine.keyId });
      expect(() => jwt.verify(issued, `${JWT_SECRET}x`, { algorithms: ['HS256'] })).toThrow(/invalid signature/);
    });
  });

  describe('create', () => {
    it('when a flat application is created, then 201 with the application id and a security token kept only as its digest', async () => {
      const res = await c.create(flatApplication());
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        data: { applicationId: expect.any(String), securityToken: expect.stringMatching(/^st_[A-Za-z0-9_-]{43}$/) },
      });
      expect(res.headers['cache-control']).toBe('no-store');
      const { applicationId, securityToken } = res.body.data;
      const row = await t.db.prisma.application.findUnique({ where: { id: applicationId } });
      expect(row).toMatchObject({
        partnerId: mine.partnerId,
        formType: 'personal',
        status: 'draft',
        lastStep: 1,
        securityTokenHash: sha256(securityToken),
      });
      expect(JSON.stringify(row)).not.toContain(securityToken);
    });

    it('when Variant A reads an application made through B, then it is the same application: step 1, no step 5, no names', async () => {
      const { applicationId } = await created(c, { loanAmount: '12000' });
      const got = await viaA().get(applicationId);
      expect(got.status).toBe(200);
      expect(got.body.data).toMatchObject({
        applicationId,
        formType: 'personal',
        status: 'draft',
        lastStep: 1,
        steps: { '1': { loanAmount: 12000 } },
        creditCheckComplete: false,
      });
      expect(Object.keys(got.body.data.steps)).toEqual(['1']);
      for (const personal of [
        'Jordan',
        'Citizen',
        'jordan.citizen@example.com',
        '0412345678',
        'debt_consolidation',
        'securityToken',
      ])
        expect(got.text).not.toContain(personal);
      expect((await viaA(other.apiKey).get(applicationId)).status).toBe(404);
      // The names, e-mail, phone and consent wait in the applicant row for the check; the loan purpose, known
      // of a step 2 that is not complete (no term), waits beside them.
      const intake = await readApplicantDetails(t.ctx, applicationId);
      expect(intake.state === 'kept' && intake.details).toEqual({
        firstName: 'Jordan',
        lastName: 'Citizen',
        email: 'jordan.citizen@example.com',
        mobileNumber: '0412345678',
        consentCreditCheck: true,
        knownSteps: { 2: { loanPurpose: 'debt_consolidation' } },
      });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ["formType: 'car'", { formType: 'car' }, 'formType: must be one of personal'],
      ['formType missing', { formType: undefined }, 'formType: is required'],
      ['loanAmount: 999', { loanAmount: 999 }, 'loanAmount: must be between 1000 and 100000'],
      ['loanAmount: 100001', { loanAmount: 100001 }, 'loanAmount: must be between 1000 and 100000'],
      ["loanAmount: 'lots'", { loanAmount: 'lots' }, 'loanAmount: must be a number'],
      [
        "loanPurpose: 'yacht'",
        { loanPurpose: 'yacht' },
        'loanPurpose: must be one of debt_consolidation, home_improvement, car_purchase, medical_expenses, holiday, wedding, education, business, other',
      ],
      ['loanPurpose missing', { loanPurpose: undefined }, 'loanPurpose: is required'],
      ["firstName: ''", { firstName: '' }, 'firstName: must not be empty'],
      ["lastName: 'x'.repeat(101)", { lastName: 'x'.repeat(101) }, 'lastName: must be at most 100 characters'],
      ["email: 'not-an-address'", { email: 'not-an-address' }, 'email: must be a valid e-mail address'],
      ["phone: '1234567'", { phone: '1234567' }, 'phone: must be between 8 and 20 characters'],
      ['phone missing', { phone: undefined }, 'phone: is required'],
      [
        "consentCreditCheck: 'true'",
        { consentCreditCheck: 'true' },
        'consentCreditCheck: must be a JSON boolean (true or false)',
      ],
      [
        'consentCreditCheck: 1',
        { consentCreditCheck: 1 },
        'consentCreditCheck: must be a JSON boolean (true or false)',
      ],
    ])(
      'when the body has %s, then 400 VALIDATION_ERROR "%s" and nothing is made',
      async (_label, overrides, message) => {
        const before = await countApplications();
        const res = await c.create(flatApplication(overrides));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
        expect(res.body.details[0]).toMatchObject({ message });
        expect(await countApplications()).toBe(before);
      },
    );

    it('when the body is not an object, then 400 names the body', async () => {
      const res = await c.create([1, 2]);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('body: must be a JSON object');
    });

    it('when a create is retried with the same Idempotency-Key, then the first answer, security token included, is replayed; the stored answer holds it sealed', async () => {
      const key = `create-${Date.now()}`;
      const first = await c.create(flatApplication(), key);
      const again = await c.create(flatApplication(), key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const stored = await t.db.prisma.idempotencyKey.findUnique({
        where: { partnerId_key: { partnerId: mine.partnerId, key } },
      });
      expect(stored!.responseBody).toContain(first.body.data.applicationId);
      expect(stored!.responseBody).not.toContain(first.body.data.securityToken);
      expect(await t.db.prisma.application.count({ where: { id: first.body.data.applicationId } })).toBe(1);

      const changed = await c.create(flatApplication({ loanAmount: 20000 }), key);
      expect(changed.status).toBe(422);
      expect(changed.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
      // The same key on Variant A's create is another request, never a replay across contracts.
      const acrossA = await request(appA)
        .post('/api/partner/v1/applications')
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .set('Idempotency-Key', key)
        .send({ formType: 'personal', data: { loanAmount: 15000 } });
      expect(acrossA.status).toBe(422);
    });

    it('when the secret that sealed a stored answer is gone, then the replay is refused as unresolved rather than answered without the token', async () => {
      const key = `sealed-${Date.now()}`;
      const first = await c.create(flatApplication(), key);
      const elsewhere = createPartnerBApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: async () => true,
        jwt: { secret: 'a-completely-different-secret-0123456789abcdef' },
      });
      const replay = await clientB(elsewhere, await accessTokenFor(elsewhere, mine.apiKey)).create(
        flatApplication(),
        key,
      );
      expect(replay.status).toBe(409);
      expect(replay.body.error).toBe('IDEMPOTENCY_KEY_UNRESOLVED');
      expect(replay.body.message).toContain(first.body.data.applicationId);
    });
  });

  describe('credit check', () => {
    const check = (client: ClientB, id: string, body: object, options: { key?: string; score?: string } = {}) =>
      client.check(id, body, options);

    it('when steps 2-4 are saved through A and the token and date of birth are sent, then the check runs on the names from create and A sees it', async () => {
      const app = await throughStep4();
      const calls = counting.state.calls;
      const res = await check(
        c,
        app.applicationId,
        { securityToken: app.securityToken, dateOfBirth: '14/07/1988' },
        { score: 'good' },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { applicationId: app.applicationId, creditCheckComplete: true, degraded_mode: false, sandbox_mode: true },
      });
      expect(counting.state.calls).toBe(calls + 1);
      expect(counting.state.last!.applicant).toMatchObject({
        firstName: 'Jordan',
        lastName: 'Citizen',
        email: 'jordan.citizen@example.com',
        mobileNumber: '0412345678',
        dateOfBirth: '1988-07-14',
      });
      const got = await viaA().get(app.applicationId);
      expect(got.body.data).toMatchObject({ status: 'credit_checked', lastStep: 5, creditCheckComplete: true });
      expect(got.text).not.toContain('Jordan');
      const kept = await readApplicantDetails(t.ctx, app.applicationId);
      const details = kept.state === 'kept' ? kept.details : {};
      expect(details).toMatchObject({
        firstName: 'Jordan',
        mobileNumber: '0412345678',
        dateOfBirth: '1988-07-14',
        consentCreditCheck: true,
      });
      expect(details.loanPurpose).toBeUndefined();
    });

    it('when the check names an unknown consent wording version, then 400 VALIDATION_ERROR, the bureau is not asked and nothing is stored; the known one is recorded', async () => {
      const app = await created();
      const calls = counting.state.calls;
      const body = { securityToken: app.securityToken, consentTextVersion: 'au-1999-01-01' };
      const refused = await check(c, app.applicationId, body, { key: `consent-${app.applicationId}` });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        success: false,
        error: 'VALIDATION_ERROR',
        message: `consentTextVersion: must be one of ${CURRENT_CONSENT_TEXTS.version}`,
      });
      expect(counting.state.calls).toBe(calls);
      expect(await t.db.prisma.creditCheck.count({ where: { applicationId: app.applicationId } })).toBe(0);
      expect(await t.db.prisma.consentRecord.count({ where: { applicationId: app.applicationId } })).toBe(0);

      const fixed = { ...body, consentTextVersion: CURRENT_CONSENT_TEXTS.version, consentReference: 'b-42' };
      expect((await check(c, app.applicationId, fixed, { key: `consent-${app.applicationId}` })).status).toBe(200);
      expect(await t.db.prisma.consentRecord.findMany({ where: { applicationId: app.applicationId } })).toEqual([
        expect.objectContaining({
          partnerId: mine.partnerId,
          textVersion: CURRENT_CONSENT_TEXTS.version,
          partnerReference: 'b-42',
        }),
      ]);
    });

    it('when GET /consents is asked with an access token, then it answers the wording by version; without one, 401', async () => {
      const res = await request(app).get(`${BASE}/consents`).set('Authorization', c.authorization);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        currentVersion: CURRENT_CONSENT_TEXTS.version,
        versions: [expect.objectContaining({ version: CURRENT_CONSENT_TEXTS.version, current: true })],
      });
      expect((await request(app).get(`${BASE}/consents`)).status).toBe(401);
    });

    it('when the application is another partner’s, unknown or malformed, then 404 whatever the token', async () => {
      const theirs = await throughStep4({}, other.apiKey, otherClient);
      for (const [id, token] of [
        [theirs.applicationId, theirs.securityToken],
        [theirs.applicationId, 'st_wrong'],
        ['6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d', theirs.securityToken],
        ['not-a-uuid', theirs.securityToken],
      ]) {
        const res = await check(c, id, { securityToken: token, dateOfBirth: '1988-07-14' });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ success: false, error: 'NOT_FOUND' });
      }
      expect((await viaA(other.apiKey).get(theirs.applicationId)).body.data.status).toBe('in_progress');
    });

    it('when the token is wrong, another application’s, or the application was made through A, then 403 INVALID_SECURITY_TOKEN, no check and nothing changed', async () => {
      const app = await throughStep4();
      const second = await created();
      const madeThroughA = await request(appA)
        .post('/api/partner/v1/applications')
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .send({ formType: 'personal', data: { loanAmount: 5000 } });
      const calls = counting.state.calls;
      for (const [id, token] of [
        [app.applicationId, `st_${'x'.repeat(43)}`],
        [app.applicationId, second.securityToken],
        [app.applicationId, app.securityToken.slice(0, -1)],
        [madeThroughA.body.data.applicationId, app.securityToken],
      ]) {
        // 403 comes before any other check of the body (here: no consent, no date of birth).
        const res = await check(c, id, { securityToken: token, consentCreditCheck: false });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          success: false,
          error: 'INVALID_SECURITY_TOKEN',
          message: 'securityToken: is not the security token of this application',
        });
        expect(res.text).not.toContain(app.securityToken);
      }
      expect(counting.state.calls).toBe(calls);
      expect((await viaA().get(app.applicationId)).body.data).toMatchObject({
        status: 'in_progress',
        lastStep: 4,
        creditCheckComplete: false,
      });
    });

    it('when the token is missing or not a string, then 400 VALIDATION_ERROR names it', async () => {
      const app = await throughStep4();
      expect((await check(c, app.applicationId, { dateOfBirth: '1988-07-14' })).body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: 'securityToken: is required',
      });
      expect((await check(c, app.applicationId, { securityToken: 42 })).body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: 'securityToken: must be a string',
      });
    });

    it('when consent was given neither at create nor in the body, then 400 and no check runs; given in the body, the check runs', async () => {
      const app = await throughStep4({ consentCreditCheck: undefined });
      const calls = counting.state.calls;
      const refused = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: expect.stringMatching(/^consentCreditCheck: credit check consent is required/),
      });
      expect(counting.state.calls).toBe(calls);
      const stringy = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
        consentCreditCheck: 'true',
      });
      expect(stringy.body.message).toBe('consentCreditCheck: must be a JSON boolean (true or false)');
      const ok = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
        consentCreditCheck: true,
      });
      expect(ok.status).toBe(200);
    });

    it('when consent given at create is withdrawn in the body, then 400 and no check runs', async () => {
      const app = await throughStep4();
      const res = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
        consentCreditCheck: false,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^consentCreditCheck: credit check consent is required/);
    });

    it('when the date of birth is under 18 or no real date, then 400 names it; names sent in the body do not replace those of create', async () => {
      const app = await throughStep4();
      const young = new Date();
      const dob = `${young.getUTCFullYear() - 10}-01-01`;
      expect(
        (await check(c, app.applicationId, { securityToken: app.securityToken, dateOfBirth: dob })).body.message,
      ).toBe('dateOfBirth: applicant must be at least 18 years old');
      expect(
        (await check(c, app.applicationId, { securityToken: app.securityToken, dateOfBirth: '31/02/1988' })).body
          .message,
      ).toBe('dateOfBirth: must be a real date written YYYY-MM-DD or DD/MM/YYYY');
      const res = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
        firstName: 'Somebody',
        phone: '0499999999',
      });
      expect(res.status).toBe(200);
      expect(counting.state.last!.applicant).toMatchObject({ firstName: 'Jordan', mobileNumber: '0412345678' });
    });

    it("when neither the date of birth nor steps 2-4 are given, then the check runs all the same (spec 4.6), and Variant A's own check still needs steps 1-4", async () => {
      const app = await created();
      const calls = counting.state.calls;
      const res = await check(c, app.applicationId, { securityToken: app.securityToken });
      expect(res.status).toBe(200);
      expect(counting.state.calls).toBe(calls + 1);
      expect(counting.state.last!.applicant).not.toHaveProperty('dateOfBirth');
      expect((await viaA().get(app.applicationId)).body.data).toMatchObject({
        status: 'credit_checked',
        lastStep: 5,
        steps: { '1': { loanAmount: 15000 } },
      });
      const throughA = await request(appA)
        .post('/api/partner/v1/applications')
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .send({ formType: 'personal', data: { loanAmount: 5000 } });
      const checkA = await request(appA)
        .post(`/api/partner/v1/applications/${throughA.body.data.applicationId}/credit-check`)
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .set('Idempotency-Key', `a-${throughA.body.data.applicationId}`)
        .send({
          data: {
            firstName: 'Ann',
            lastName: 'Lee',
            email: 'ann@example.com',
            mobileNumber: '0412345678',
            dateOfBirth: '1990-01-01',
            consentCreditCheck: true,
          },
        });
      expect(checkA.status).toBe(409);
      expect(checkA.body).toMatchObject({
        error: 'STEPS_INCOMPLETE',
        message: expect.stringContaining('missing step 2, 3, 4'),
      });
    });

    it('when the check is retried with the same Idempotency-Key it is replayed; with none, a second check is 409 and the bureau is not called again', async () => {
      const app = await throughStep4();
      const body = { securityToken: app.securityToken, dateOfBirth: '1988-07-14' };
      const first = await check(c, app.applicationId, body, { key: `check-${app.applicationId}`, score: '700' });
      const calls = counting.state.calls;
      const replay = await check(c, app.applicationId, body, { key: `check-${app.applicationId}`, score: '700' });
      expect(replay.status).toBe(200);
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      const noKey = await check(c, app.applicationId, body);
      expect(noKey.status).toBe(409);
      expect(noKey.body.error).toBe('CREDIT_CHECK_ALREADY_COMPLETED');
      expect(counting.state.calls).toBe(calls);
      const stored = await t.db.prisma.idempotencyKey.findUnique({
        where: { partnerId_key: { partnerId: mine.partnerId, key: `check-${app.applicationId}` } },
      });
      expect(stored!.state).toBe('completed');
    });

    it('when X-Sandbox-Score is unavailable or bad, then degraded mode, or 400', async () => {
      const app = await throughStep4();
      const bad = await check(
        c,
        app.applicationId,
        { securityToken: app.securityToken, dateOfBirth: '1988-07-14' },
        { score: 'stellar' },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('VALIDATION_ERROR');
      const degraded = await check(
        c,
        app.applicationId,
        { securityToken: app.securityToken, dateOfBirth: '1988-07-14' },
        { score: 'unavailable' },
      );
      expect(degraded.body.data).toMatchObject({ creditCheckComplete: true, degraded_mode: true });
    });
  });

  describe('match', () => {
    const match = (id: string, body: object, client: ClientB = c) =>
      request(app).post(`${BASE}/applications/${id}/match`).set('Authorization', client.authorization).send(body);

    it('when the check has run and the security token is sent, then offers with tracking links, the same as Variant A', async () => {
      const made = await throughStep4();
      expect(
        (
          await c.check(
            made.applicationId,
            { securityToken: made.securityToken, dateOfBirth: '14/07/1988' },
            { score: 'excellent' },
          )
        ).status,
      ).toBe(200);
      const res = await match(made.applicationId, { securityToken: made.securityToken });
      expect(res.status).toBe(200);
      expect(res.body.data.acceptedOffers.length).toBeGreaterThan(0);
      expect(res.body.data.acceptedOffers[0]).toMatchObject({
        offerId: expect.any(String),
        offerDetails: { interestRate: expect.any(Number), comparisonRate: expect.any(Number) },
        trackingUrl: expect.stringContaining('/r/'),
      });
      expect((await viaA().get(made.applicationId)).body.data.status).toBe('matched');
    });

    it('when the token is wrong or missing, or the application is another partner’s, then 403, 400 or 404 and no match run', async () => {
      const made = await throughStep4();
      await c.check(
        made.applicationId,
        { securityToken: made.securityToken, dateOfBirth: '14/07/1988' },
        { score: 'excellent' },
      );
      const wrong = await match(made.applicationId, { securityToken: `st_${'x'.repeat(43)}` });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error).toBe('INVALID_SECURITY_TOKEN');
      expect((await match(made.applicationId, {})).status).toBe(400);
      expect((await match(made.applicationId, { securityToken: made.securityToken }, otherClient)).status).toBe(404);
      expect(await t.db.prisma.matchRun.count({ where: { applicationId: made.applicationId } })).toBe(0);
    });

    it('when the check has not run, then 409 CREDIT_CHECK_REQUIRED', async () => {
      const made = await throughStep4();
      const res = await match(made.applicationId, { securityToken: made.securityToken });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('CREDIT_CHECK_REQUIRED');
    });
  });

  describe('the edge', () => {
    it('when the route is unknown, the body is not JSON, or health is asked, then the shared envelope and a request id', async () => {
      const token = await accessTokenFor(app, mine.apiKey);
      const unknown = await request(app).get(`${BASE}/applications/x`).set('Authorization', `Bearer ${token}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ success: false, error: 'NOT_FOUND', message: 'No such route' });
      const bad = await request(app)
        .post(`${BASE}/applications`)
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/json')
        .send('{');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('INVALID_JSON');
      expect(bad.headers['x-request-id']).toBeTruthy();
      const echoed = await request(app).get('/healthz').set('X-Request-Id', 'support-ticket-42');
      expect(echoed.status).toBe(200);
      expect(echoed.headers['x-request-id']).toBe('support-ticket-42');
      expect((await request(app).get('/readyz')).status).toBe(200);
    });
  });
});
