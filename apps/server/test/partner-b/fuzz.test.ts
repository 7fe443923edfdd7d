/**
 * Variant B under property-based fuzzing: the token exchange, flat create, PATCH, credit check, match and
 * the webhook routes get generated bodies, headers and ids; each answer must keep the contract's envelope,
 * never a 5xx or a secret, and the database must hold only valid applications afterwards. Failures
 * print the fast-check seed: replay one with `FUZZ_SEED=<seed> pnpm test -- apps/server/test/partner-b/fuzz`.
 */
import fc from 'fast-check';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { FLAT_FIELDS, applicantSchema, schemaFor } from '@loanmatch/domain';
import { VALID_STEPS, silentLogger, countRows, storedRows, type TestContext } from '../../../../tests/support';
import {
  authorizationHeader,
  bodyAround,
  headerValue,
  hostileQuery,
  idempotencyKeyHeader,
  pathId,
  requestIdHeader,
  sandboxScoreHeader,
  storedProblems,
  strayRequests,
  type FuzzRequest,
} from '../../../../tests/support/fuzz';
import { runFuzzSuite, type FuzzListener } from '../../../../tests/support/fuzz/suite';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { BASE, JWT_SECRET, accessTokenFor, clientB, flatApplication, newPartner, richFlatApplication } from './helpers';

const RUNS = 300;

const FIELD_NAMES = [
  ...new Set([
    ...Object.keys(flatApplication()),
    ...Object.keys(schemaFor('personal', 1).properties),
    ...Object.keys(applicantSchema.properties),
    ...Object.keys(FLAT_FIELDS),
    'securityToken',
    'grantType',
    'url',
    'events',
  ]),
];

interface KnownApplication {
  id: string;
  securityToken: string;
}

let t: TestContext;
let app: ReturnType<typeof createPartnerBApp>;
let mine: Awaited<ReturnType<typeof newPartner>>;
let other: Awaited<ReturnType<typeof newPartner>>;
let accessToken: string;
let otherToken: string;
const known = { applications: [] as KnownApplication[], webhooks: [] as string[], secrets: [] as string[] };

/** Starts Variant B over the suite's database with applications at each step, one checked and matched, and a webhook. */
async function setUp(context: TestContext): Promise<FuzzListener> {
  t = context;
  app = createPartnerBApp({
    ctx: t.ctx,
    logger: silentLogger,
    ping: () => t.db.ping(),
    jwt: { secret: JWT_SECRET },
    tierLimits: { perHour: async () => 1_000_000 },
  });
  const appA = createPartnerAApp({
    ctx: t.ctx,
    logger: silentLogger,
    ping: () => t.db.ping(),
    rateLimitPerMinute: 1_000_000,
  });
  mine = await newPartner(t.ctx, { name: 'Fuzz', tier: 'enterprise' });
  other = await newPartner(t.ctx, { name: 'Other', tier: 'enterprise' });
  accessToken = await accessTokenFor(app, mine.apiKey);
  otherToken = await accessTokenFor(app, other.apiKey);
  const c = clientB(app, accessToken);

  // Applications made through B: one at step 1, one with a part of step 3 by B's PATCH, three through step 4
  // saved through A, three through B's PATCH (or its richer create), the last checked and matched.
  for (let i = 0; i < 8; i++) {
    const created = await c.create(i === 5 ? richFlatApplication() : flatApplication());
    const application = {
      id: created.body.data.applicationId as string,
      securityToken: created.body.data.securityToken as string,
    };
    known.applications.push(application);
    if (i === 0 || i === 5) continue;
    if (i === 1) {
      expect(
        (await c.patch(application.id, { securityToken: application.securityToken, grossMonthlyIncome: 8000 })).status,
      ).toBe(200);
    } else if (i < 5) {
      for (const step of [2, 3, 4] as const) {
        await request(appA)
          .patch(`/api/partner/v1/applications/${application.id}`)
          .set('Authorization', `Bearer ${mine.apiKey}`)
          .send({ step, data: VALID_STEPS.personal[step] });
      }
    } else {
      expect(
        (
          await c.patch(application.id, {
            securityToken: application.securityToken,
            ...VALID_STEPS.personal[2],
            ...VALID_STEPS.personal[3],
            ...VALID_STEPS.personal[4],
          })
        ).status,
      ).toBe(200);
    }
  }
  const checked = known.applications[7];
  expect(
    (
      await c.check(
        checked.id,
        { securityToken: checked.securityToken, dateOfBirth: '1988-07-14' },
        { key: 'setup-check', score: 'excellent' },
      )
    ).status,
  ).toBe(200);
  expect(
    (
      await request(app)
        .post(`${BASE}/applications/${checked.id}/match`)
        .set('Authorization', c.authorization)
        .send({ securityToken: checked.securityToken })
    ).status,
  ).toBe(200);
  const registered = await request(app)
    .post(`${BASE}/webhooks`)
    .set('Authorization', c.authorization)
    .send({ url: 'http://127.0.0.1:9/fuzz' });
  known.webhooks.push(registered.body.data.webhookId);

  const hashes = await storedRows(t.db, 'applications');
  const keys = await storedRows(t.db, 'api_keys');
  known.secrets.push(
    JWT_SECRET,
    mine.apiKey,
    other.apiKey,
    registered.body.data.secret,
    ...keys.map((k) => k.keyHash),
    ...hashes.map((h) => h.securityTokenHash ?? ''),
    // Shown once at create (made without an Idempotency-Key, so never replayed).
    ...known.applications.map((a) => a.securityToken),
    // The applicant's details: kept sealed, never answered.
    String(flatApplication().email),
    String(flatApplication().phone),
  );
  return {
    app,
    requests,
    expect: { secrets: () => known.secrets },
    onAnswer: (req, res) => {
      if (req.method === 'POST' && req.path === `${BASE}/webhooks` && res.status === 201)
        known.webhooks.push(JSON.parse(res.text).data.webhookId);
    },
    storedProblems: () => storedProblems(t, [mine.partnerId, other.partnerId]),
  };
}

const requests = (): fc.Arbitrary<FuzzRequest> => {
  const forged = [
    jwt.sign({ api_key_id: mine.keyId }, 'not-the-secret', { subject: mine.partnerId, expiresIn: 900 }),
    jwt.sign({ api_key_id: mine.keyId }, JWT_SECRET, { subject: mine.partnerId, expiresIn: -10 }),
    `${accessToken.split('.').slice(0, 2).join('.')}.`,
    mine.apiKey,
  ];
  const headers = fc.record({
    Authorization: fc.oneof(
      { weight: 8, arbitrary: authorizationHeader([accessToken, accessToken, otherToken]) },
      { weight: 1, arbitrary: fc.constantFrom(...forged).map((v) => `Bearer ${v}`) },
    ),
    'X-Request-Id': requestIdHeader,
  });
  const around = (valid: Record<string, unknown>) => bodyAround(valid, FIELD_NAMES);
  /** A known application with its own token (or another's), or any id with some token. */
  const target = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(fc.nat(), fc.nat(9)).map(([i, swap]) => {
        const a = known.applications[i % known.applications.length];
        const token =
          swap === 0 ? known.applications[(i + 1) % known.applications.length].securityToken : a.securityToken;
        return { id: a.id, securityToken: token, known: true };
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          pathId(() => known.applications.map((a) => a.id)),
          fc.nat(),
        )
        .map(([id, i]) => ({
          id,
          securityToken: known.applications[i % known.applications.length].securityToken,
          known: false,
        })),
    },
  );

  const token = fc
    .record({
      apiKey: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(mine.apiKey, other.apiKey) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: headerValue(80) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            `${mine.apiKey}x`,
            `Bearer ${mine.apiKey}`,
            accessToken,
            'lm_live_x',
            'lm_sandbox_',
          ),
        },
      ),
      requestId: requestIdHeader,
      body: around({ grantType: 'api_key' }),
    })
    .map(
      ({ apiKey, requestId, body }): FuzzRequest => ({
        method: 'POST',
        path: `${BASE}/auth/token`,
        headers: { 'X-API-Key': apiKey, 'X-Request-Id': requestId },
        body,
      }),
    );
  const create = fc.record({ headers, key: idempotencyKeyHeader, body: around(flatApplication()) }).map(
    ({ headers, key, body }): FuzzRequest => ({
      method: 'POST',
      path: `${BASE}/applications`,
      headers: { ...headers, 'Idempotency-Key': key },
      body,
    }),
  );
  const check = fc
    .record({
      app: target,
      headers,
      key: idempotencyKeyHeader,
      score: sandboxScoreHeader,
      dob: fc.constantFrom('1988-07-14', '14/07/1988'),
    })
    .chain(({ app, headers, key, score, dob }) =>
      around({ securityToken: app.securityToken, dateOfBirth: dob }).map(
        (body): FuzzRequest => ({
          target: app.known ? app.id : undefined,
          method: 'POST',
          path: `${BASE}/applications/${app.id}/credit-check`,
          headers: { ...headers, 'Idempotency-Key': key, 'X-Sandbox-Score': score },
          body,
        }),
      ),
    );
  const patch = fc
    .record({ app: target, headers, dob: fc.constantFrom('1988-07-14', '14/07/1988') })
    .chain(({ app, headers, dob }) =>
      around({
        securityToken: app.securityToken,
        loanTerm: 5,
        employmentType: 'full_time',
        grossMonthlyIncome: 8000,
        livingSituation: 'renting',
        dependents: 1,
        dateOfBirth: dob,
      }).map(
        (body): FuzzRequest => ({
          target: app.known ? app.id : undefined,
          method: 'PATCH',
          path: `${BASE}/applications/${app.id}`,
          headers,
          body,
        }),
      ),
    );
  const match = fc.record({ app: target, headers }).chain(({ app, headers }) =>
    around({ securityToken: app.securityToken }).map(
      (body): FuzzRequest => ({
        target: app.known ? app.id : undefined,
        method: 'POST',
        path: `${BASE}/applications/${app.id}/match`,
        headers,
        body,
      }),
    ),
  );
  const webhooks = fc.oneof(
    fc
      .record({ headers, body: around({ url: 'http://127.0.0.1:9/fuzz', events: ['application.status_changed'] }) })
      .map(({ headers, body }): FuzzRequest => ({ method: 'POST', path: `${BASE}/webhooks`, headers, body })),
    fc
      .record({
        headers,
        id: pathId(() => known.webhooks),
        op: fc.constantFrom<[FuzzRequest['method'], string]>(
          ['GET', ''],
          ['DELETE', '/:id'],
          ['POST', '/:id/rotate-secret'],
          ['POST', '/:id/test'],
          ['GET', '/:id/deliveries'],
        ),
        query: hostileQuery(['limit']),
      })
      .map(
        ({ headers, id, op: [method, suffix], query }): FuzzRequest => ({
          method,
          path: `${BASE}/webhooks${suffix.replace(':id', id)}${suffix.endsWith('deliveries') ? query : ''}`,
          headers,
        }),
      ),
  );
  // Any method on any path of the contract, Variant A's paths, OPTIONS, HEAD, unknown routes.
  const stray = strayRequests({
    headers,
    paths: [
      '/auth/token',
      '/auth',
      '/applications',
      '/applications/:id',
      '/applications/:id/credit-check',
      '/applications/:id/match',
      '/referrals',
      '/webhooks/:id',
      '/unknown',
      '/',
    ],
    knownIds: () => known.applications.map((a) => a.id),
    prefixes: [BASE, BASE, '/v2', '/V1', `${BASE}/`, '', '/api/partner/v1'],
    body: around({}),
  });
  return fc.oneof(
    { weight: 2, arbitrary: token },
    { weight: 3, arbitrary: create },
    { weight: 3, arbitrary: patch },
    { weight: 3, arbitrary: check },
    { weight: 2, arbitrary: match },
    { weight: 2, arbitrary: webhooks },
    { weight: 2, arbitrary: stray },
  );
};

function foundCases(): void {
  it('when a flat create field holds U+0000, then 400 INVALID_JSON as on every route (names are stored sealed, so this was a 201), and no application is made', async () => {
    const before = await countRows(t.db, 'applications', { partnerId: mine.partnerId });
    const body = JSON.stringify(flatApplication({ firstName: 'Jor\u0000dan' }));
    const res = await request(app)
      .post(`${BASE}/applications`)
      .set('Authorization', `Bearer ${accessToken}`)
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_JSON');
    expect(await countRows(t.db, 'applications', { partnerId: mine.partnerId })).toBe(before);
  });
}

runFuzzSuite({ name: 'Variant B', runs: RUNS, setUp, foundCases });
