/**
 * Variant A under property-based fuzzing: every endpoint (4.1-4.5, referrals, webhooks, the tracking
 * link) gets generated bodies, headers and ids; each answer must keep the contract's envelope, never a
 * 5xx or a secret, and the database must hold only valid applications afterwards. Failures print the
 * fast-check seed: replay one with `FUZZ_SEED=<seed> pnpm test -- apps/partner-a/test/fuzz`.
 */
import fc from 'fast-check';
import request from 'supertest';
import {
  FORM_TYPES,
  REPORT_COLUMNS,
  applicantSchema,
  issueLenderKey,
  schemaFor,
  type FormType,
} from '@loanmatch/domain';
import {
  VALID_STEPS,
  silentLogger,
  validApplicant,
  countRows,
  storedRows,
  type TestContext,
} from '../../../tests/support';
import {
  applicationSnapshot,
  authorizationHeader,
  bodyAround,
  hostileQuery,
  idempotencyKeyHeader,
  pathId,
  requestIdHeader,
  sandboxScoreHeader,
  storedProblems,
  strayRequests,
  type FuzzRequest,
} from '../../../tests/support/fuzz';
import { runFuzzSuite, type FuzzListener } from '../../../tests/support/fuzz/suite';
import { createPartnerAApp } from '../src/app';
import { BASE, applicationThroughStep4, client, newPartnerKey } from './helpers';

const RUNS = 350;

const FIELD_NAMES = [
  ...new Set([
    ...FORM_TYPES.flatMap((type) =>
      ([1, 2, 3, 4] as const).flatMap((step) => Object.keys(schemaFor(type, step).properties)),
    ),
    ...Object.keys(applicantSchema.properties),
    'formType',
    'step',
    'data',
    'url',
    'events',
    'clientTags',
    'reference',
    'eventId',
    'type',
    'occurredAt',
    'fundedAmount',
    'fundedAt',
    'declineReason',
  ]),
];

interface KnownApplication {
  id: string;
  formType: FormType;
}

let t: TestContext;
let app: ReturnType<typeof createPartnerAApp>;
let mine: Awaited<ReturnType<typeof newPartnerKey>>;
let other: Awaited<ReturnType<typeof newPartnerKey>>;
let matched: string;
const lender = { key: '', reference: '' };
const known = {
  applications: [] as KnownApplication[],
  webhooks: [] as string[],
  trackingTokens: [] as string[],
  secrets: [] as string[],
};

/** Starts Variant A over the suite's database with one application in each state, a webhook and offer links. */
async function setUp(context: TestContext): Promise<FuzzListener> {
  t = context;
  app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), rateLimitPerMinute: 1_000_000 });
  mine = await newPartnerKey(t.ctx, 'Fuzz');
  other = await newPartnerKey(t.ctx, 'Other');
  const c = client(app, mine.apiKey);

  // One application in each state, so generated requests meet every branch.
  const draft = await c.create({ formType: 'personal', data: VALID_STEPS.personal[1] });
  known.applications.push({ id: draft.body.data.applicationId, formType: 'personal' });
  for (const formType of FORM_TYPES)
    known.applications.push({ id: await applicationThroughStep4(c, formType), formType });
  const checked = await applicationThroughStep4(c, 'home');
  await c.check(checked, { data: validApplicant() }, 'setup-check-home', 'good');
  known.applications.push({ id: checked, formType: 'home' });
  matched = await applicationThroughStep4(c, 'personal');
  await c.check(matched, { data: validApplicant() }, 'setup-check-personal', 'excellent');
  const offers = await c.match(matched);
  for (const offer of offers.body.data.acceptedOffers)
    known.trackingTokens.push(new URL(offer.trackingUrl).pathname.split('/').pop()!);
  known.applications.push({ id: matched, formType: 'personal' });
  if (known.trackingTokens.length === 0) throw new Error('setup: the matched application has no offer to follow');

  // A referral, and a key of its lender, for the lender route.
  const followed = await request(app).get(`/r/${known.trackingTokens[0]}`);
  lender.reference = new URL(followed.headers.location).searchParams.get('lm_ref')!;
  const lenderId = offers.body.data.acceptedOffers[0].lender.id;
  const issued = await issueLenderKey(t.ctx, { lenderId, body: {} });
  if (!issued.ok) throw issued.error;
  lender.key = issued.value.apiKey;
  known.secrets.push(lender.key);

  const registered = await request(app)
    .post(`${BASE}/webhooks`)
    .set('Authorization', `Bearer ${mine.apiKey}`)
    .send({ url: 'http://127.0.0.1:9/fuzz' });
  known.webhooks.push(registered.body.data.webhookId);
  known.secrets.push(registered.body.data.secret);

  const keys = await storedRows(t.db, 'api_keys');
  known.secrets.push(mine.apiKey, other.apiKey, ...keys.map((k) => k.keyHash));
  // The applicant's details: stored at the check, never answered.
  known.secrets.push(
    String(validApplicant().email),
    String(validApplicant().mobileNumber),
    String(validApplicant().dateOfBirth),
  );
  return {
    app,
    requests,
    expect: {
      secrets: () => known.secrets,
      redirects: /^\/r\//,
      csv: { path: /\/reports\/referrals(\?|$)/, header: REPORT_COLUMNS.join(',') },
    },
    onAnswer: (req, res) => {
      // Applications the fuzzer made join the known ones, so later requests work on them too.
      if (req.method === 'POST' && req.path === `${BASE}/applications` && res.status === 201) {
        const { applicationId, formType } = JSON.parse(res.text).data;
        if (!known.applications.some((a) => a.id === applicationId))
          known.applications.push({ id: applicationId, formType });
      }
      if (req.method === 'POST' && req.path === `${BASE}/webhooks` && res.status === 201)
        known.webhooks.push(JSON.parse(res.text).data.webhookId);
    },
    storedProblems: () => storedProblems(t, [mine.partnerId, other.partnerId]),
  };
}

const applicationIds = () => known.applications.map((a) => a.id);

/** A known application (with its loan type) most of the time, else any id with a guessed type. */
const target: fc.Arbitrary<KnownApplication & { known: boolean }> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.nat().map((i) => ({ ...known.applications[i % known.applications.length], known: true })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(pathId(applicationIds), fc.constantFrom(...FORM_TYPES))
      .map(([id, formType]) => ({ id, formType, known: false })),
  },
);

const around = (valid: Record<string, unknown>) => bodyAround(valid, FIELD_NAMES);

const requests = (): fc.Arbitrary<FuzzRequest> => {
  const headers = fc.record({
    Authorization: authorizationHeader([mine.apiKey, mine.apiKey, mine.apiKey, other.apiKey]),
    'X-Request-Id': requestIdHeader,
  });
  const create = fc
    .constantFrom(...FORM_TYPES)
    .chain((formType) =>
      fc.record({
        headers,
        key: idempotencyKeyHeader,
        body: around({ formType, data: { ...VALID_STEPS[formType][1] } }),
      }),
    )
    .map(
      ({ headers, key, body }): FuzzRequest => ({
        method: 'POST',
        path: `${BASE}/applications`,
        headers: { ...headers, 'Idempotency-Key': key },
        body,
      }),
    );
  const patch = fc
    .tuple(target, fc.constantFrom(2, 3, 4) as fc.Arbitrary<2 | 3 | 4>)
    .chain(([app, step]) =>
      fc.record({
        app: fc.constant(app),
        headers,
        body: around({ step, data: { ...VALID_STEPS[app.formType][step] } }),
      }),
    )
    .map(
      ({ app, headers, body }): FuzzRequest => ({
        target: app.known ? app.id : undefined,
        method: 'PATCH',
        path: `${BASE}/applications/${app.id}`,
        headers,
        body,
      }),
    );
  const check = fc
    .record({
      app: target,
      headers,
      key: idempotencyKeyHeader,
      score: sandboxScoreHeader,
      body: around({ data: validApplicant() }),
    })
    .map(
      ({ app, headers, key, score, body }): FuzzRequest => ({
        target: app.known ? app.id : undefined,
        method: 'POST',
        path: `${BASE}/applications/${app.id}/credit-check`,
        headers: { ...headers, 'Idempotency-Key': key, 'X-Sandbox-Score': score },
        body,
      }),
    );
  const read = fc
    .record({
      app: target,
      headers,
      method: fc.constantFrom('GET', 'POST'),
      body: fc.option(around({}), { nil: undefined }),
    })
    .map(
      ({ app, headers, method, body }): FuzzRequest => ({
        target: app.known ? app.id : undefined,
        method: method as 'GET' | 'POST',
        path: `${BASE}/applications/${app.id}${method === 'POST' ? '/match' : ''}`,
        headers,
        body,
      }),
    );
  const query = hostileQuery(['limit', 'cursor']);
  const referrals = fc
    .record({ headers, query })
    .map(({ headers, query }): FuzzRequest => ({ method: 'GET', path: `${BASE}/referrals${query}`, headers }));
  const report = fc.record({ headers, query: hostileQuery(['from', 'to', 'groupBy']), csv: fc.boolean() }).map(
    ({ headers, query, csv }): FuzzRequest => ({
      method: 'GET',
      path: `${BASE}/reports/referrals${query}`,
      headers: { ...headers, ...(csv ? { Accept: 'text/csv' } : {}) },
    }),
  );
  const outcomes = fc
    .record({
      headers: fc.record({
        Authorization: authorizationHeader([lender.key, lender.key, mine.apiKey]),
        'X-Request-Id': requestIdHeader,
      }),
      body: around({
        reference: lender.reference,
        eventId: 'fuzz-event',
        type: 'approved',
        occurredAt: new Date(Date.now() - 60_000).toISOString(),
      }),
    })
    .map(({ headers, body }): FuzzRequest => ({ method: 'POST', path: '/api/lender/v1/outcomes', headers, body }));
  const webhookId = pathId(() => known.webhooks);
  const webhooks = fc.oneof(
    fc
      .record({ headers, body: around({ url: 'http://127.0.0.1:9/fuzz', events: ['application.status_changed'] }) })
      .map(({ headers, body }): FuzzRequest => ({ method: 'POST', path: `${BASE}/webhooks`, headers, body })),
    fc
      .record({
        headers,
        id: webhookId,
        op: fc.constantFrom<[FuzzRequest['method'], string]>(
          ['GET', ''],
          ['DELETE', '/:id'],
          ['POST', '/:id/rotate-secret'],
          ['POST', '/:id/test'],
          ['GET', '/:id/deliveries'],
        ),
        query,
      })
      .map(
        ({ headers, id, op: [method, suffix], query }): FuzzRequest => ({
          method,
          path: `${BASE}/webhooks${suffix.replace(':id', id)}${suffix.endsWith('deliveries') ? query : ''}`,
          headers,
        }),
      ),
  );
  const tracking = fc
    .record({
      token: fc.oneof(
        fc.nat().map((i) => known.trackingTokens[i % known.trackingTokens.length]),
        pathId(() => known.trackingTokens),
        fc.nat().map((i) => `${known.trackingTokens[i % known.trackingTokens.length]}x`),
      ),
      requestId: requestIdHeader,
    })
    .map(
      ({ token, requestId }): FuzzRequest => ({
        target: matched,
        method: 'GET',
        path: `/r/${token}`,
        headers: { 'X-Request-Id': requestId },
      }),
    );
  // Any method on any path of the contract, with anything: method mismatches, OPTIONS, HEAD, unknown routes.
  const stray = strayRequests({
    headers,
    paths: [
      '/applications',
      '/applications/:id',
      '/applications/:id/credit-check',
      '/applications/:id/match',
      '/referrals',
      '/webhooks',
      '/webhooks/:id',
      '/unknown',
      '/',
      '/applications/:id/:id',
    ],
    knownIds: applicationIds,
    prefixes: [BASE, BASE, '/api/partner/v2', '/API/PARTNER/V1', `${BASE}/`, '', '/r'],
    body: around({}),
  });
  return fc.oneof(
    { weight: 3, arbitrary: create },
    { weight: 3, arbitrary: patch },
    { weight: 3, arbitrary: check },
    { weight: 2, arbitrary: read },
    { weight: 1, arbitrary: referrals },
    { weight: 1, arbitrary: report },
    { weight: 2, arbitrary: outcomes },
    { weight: 2, arbitrary: webhooks },
    { weight: 1, arbitrary: tracking },
    { weight: 2, arbitrary: stray },
  );
};

function foundCases(): void {
  const auth = () => ({ Authorization: `Bearer ${mine.apiKey}` });

  it.each([
    ['U+0000', 'Acme\\u0000 Pty Ltd'],
    ['a lone surrogate', 'Acme \\ud800'],
  ])(
    'when a step field holds %s, then 400 INVALID_JSON (it was a 500 from the database) and the application is unchanged',
    async (_case, employer) => {
      const target = known.applications[1]; // personal, through step 4
      const before = await applicationSnapshot(t.db, target.id);
      const body = JSON.stringify({ step: 3, data: { ...VALID_STEPS.personal[3], employerName: 'EMPLOYER' } }).replace(
        'EMPLOYER',
        employer,
      );
      const res = await request(app)
        .patch(`${BASE}/applications/${target.id}`)
        .set(auth())
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('INVALID_JSON');
      expect(await applicationSnapshot(t.db, target.id)).toBe(before);
    },
  );

  it('when a create under an Idempotency-Key nests 10,000 levels, then 400 (it was a 500: the fingerprint recursed) and the key stays free', async () => {
    const deep = `{"formType":"personal","data":{"loanAmount":5000},"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await request(app)
      .post(`${BASE}/applications`)
      .set(auth())
      .set('Idempotency-Key', 'deep-create')
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_ERROR');
    expect(await countRows(t.db, 'idempotency_keys', { partnerId: mine.partnerId, key: 'deep-create' })).toBe(0);
  });

  it('when an application id in the path is not percent-encoded UTF-8, then 404 NOT_FOUND (it was a 500)', async () => {
    for (const id of ['%E0%A4%A', '%ff', `${known.applications[0].id}%`]) {
      const res = await request(app).get(`${BASE}/applications/${id}`).set(auth());
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
  });
}

runFuzzSuite({ name: 'Variant A', runs: RUNS, setUp, foundCases });
