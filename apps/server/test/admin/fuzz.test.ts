/**
 * The admin API under property-based fuzzing: partners, keys, tiers, the catalogue, personal-data
 * erasure, the data key and usage get generated bodies, headers and ids; each answer must keep the
 * envelope, never a 5xx or a secret, and what is stored must stay valid. Failures print the fast-check
 * seed: replay one with `FUZZ_SEED=<seed> pnpm test -- apps/server/test/admin/fuzz`.
 */
import fc from 'fast-check';
import request from 'supertest';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { TIERS } from '@loanmatch/domain';
import { createTierUsage } from '@loanmatch/http';
import {
  VALID_STEPS,
  defaultCatalogueDocument,
  silentLogger,
  validApplicant,
  countRows,
  storedRows,
  type TestContext,
} from '../../../../tests/support';
import {
  authorizationHeader,
  bodyAround,
  pathId,
  requestIdHeader,
  storedProblems,
  strayRequests,
  type FuzzRequest,
} from '../../../../tests/support/fuzz';
import { runFuzzSuite, type FuzzListener } from '../../../../tests/support/fuzz/suite';
import { createAdminApp } from '../../src/admin/app';

const RUNS = 250;
const TOKEN = 'lm_admin_fuzz-token-0123456789abcdef';
const BASE = '/admin/v1';
const FIELD_NAMES = [
  'name',
  'tier',
  'environment',
  'requestsPerHour',
  'version',
  'effectiveFrom',
  'lenders',
  'products',
  'settings',
];

let t: TestContext;
let app: ReturnType<typeof createAdminApp>;
const known = {
  partners: [] as string[],
  keys: [] as string[],
  applications: [] as string[],
  secrets: [TOKEN] as string[],
};

/** Starts the admin API over the suite's database with two partners and two applications whose personal data can be erased. */
async function setUp(context: TestContext): Promise<FuzzListener> {
  t = context;
  app = createAdminApp({
    ctx: t.ctx,
    logger: silentLogger,
    ping: () => t.db.ping(),
    adminToken: TOKEN,
    usage: createTierUsage(),
  });
  const auth = { Authorization: `Bearer ${TOKEN}` };
  for (const name of ['Fuzz One', 'Fuzz Two']) {
    const created = (await request(app).post(`${BASE}/partners`).set(auth).send({ name })).body.data;
    known.partners.push(created.partnerId);
    known.keys.push(created.keyId);
    known.secrets.push(created.apiKey);
  }
  // Applications whose personal data can be erased: one checked (step 5 kept), one at step 1.
  const appA = createPartnerAApp({
    ctx: t.ctx,
    logger: silentLogger,
    ping: () => t.db.ping(),
    rateLimitPerMinute: 1_000_000,
  });
  const partnerAuth = { Authorization: `Bearer ${known.secrets[1]}` };
  for (const throughCheck of [true, false]) {
    const id = (
      await request(appA)
        .post('/api/partner/v1/applications')
        .set(partnerAuth)
        .send({ formType: 'personal', data: VALID_STEPS.personal[1] })
    ).body.data.applicationId;
    known.applications.push(id);
    if (!throughCheck) continue;
    for (const step of [2, 3, 4] as const)
      await request(appA)
        .patch(`/api/partner/v1/applications/${id}`)
        .set(partnerAuth)
        .send({ step, data: VALID_STEPS.personal[step] });
    await request(appA)
      .post(`/api/partner/v1/applications/${id}/credit-check`)
      .set(partnerAuth)
      .set('Idempotency-Key', 'setup')
      .send({ data: validApplicant() });
  }
  const keys = await storedRows(t.db, 'api_keys');
  known.secrets.push(
    ...keys.map((k) => k.keyHash),
    String(validApplicant().email),
    String(validApplicant().mobileNumber),
  );
  return {
    app,
    requests,
    expect: { secrets: () => known.secrets },
    onAnswer: (req, res) => {
      // Partners and keys the fuzzer made join the known ones, so later requests work on them too.
      if (res.status !== 201) return;
      const data = JSON.parse(res.text).data;
      if (req.path === `${BASE}/partners`) known.partners.push(data.partnerId);
      if (typeof data.keyId === 'string') known.keys.push(data.keyId);
    },
    storedProblems: storedAdminProblems,
  };
}

/** Partners and tiers in the database are valid, and so is every application of the partners. */
async function storedAdminProblems(): Promise<string[]> {
  const problems: string[] = [];
  for (const p of await storedRows(t.db, 'partners')) {
    if (p.name.length < 1 || p.name.length > 100 || p.name !== p.name.trim())
      problems.push(`partner ${p.id}: name ${JSON.stringify(p.name.slice(0, 40))}`);
    if (!(TIERS as readonly string[]).includes(p.tier)) problems.push(`partner ${p.id}: tier ${p.tier}`);
    if (!['sandbox', 'live'].includes(p.environment)) problems.push(`partner ${p.id}: environment ${p.environment}`);
  }
  for (const tier of await storedRows(t.db, 'tiers')) {
    if (
      !(TIERS as readonly string[]).includes(tier.name) ||
      !Number.isInteger(tier.requestsPerHour) ||
      tier.requestsPerHour < 1
    )
      problems.push(`tier ${tier.name}: ${tier.requestsPerHour}`);
  }
  problems.push(...(await storedProblems(t, known.partners)));
  return problems;
}

const requests = (): fc.Arbitrary<FuzzRequest> => {
  const headers = fc.record({ Authorization: authorizationHeader([TOKEN]), 'X-Request-Id': requestIdHeader });
  const around = (valid: Record<string, unknown>) => bodyAround(valid, FIELD_NAMES);
  const send = (method: FuzzRequest['method'], path: string, body?: fc.Arbitrary<FuzzRequest['body']>) =>
    fc
      .record({ headers, body: body ?? fc.constant(undefined) })
      .map(({ headers, body }): FuzzRequest => ({ method, path: `${BASE}${path}`, headers, body }));
  const withId = (
    ids: () => readonly string[],
    method: FuzzRequest['method'],
    path: (id: string) => string,
    body?: fc.Arbitrary<FuzzRequest['body']>,
  ) =>
    fc
      .record({ headers, id: pathId(ids), body: body ?? fc.constant(undefined) })
      .map(({ headers, id, body }): FuzzRequest => ({ method, path: `${BASE}${path(id)}`, headers, body }));
  const tier = fc.oneof(
    fc.constantFrom(...TIERS),
    pathId(() => TIERS),
    pathId(() => TIERS),
  );
  const stray = strayRequests({
    headers,
    paths: [
      '/partners',
      '/partners/:id',
      '/partners/:id/keys',
      '/keys/:id',
      '/tiers',
      '/tiers/:id',
      '/catalogue',
      '/applications/:id/personal-data',
      '/data-key',
      '/unknown',
      '/',
    ],
    knownIds: () => known.partners,
    prefixes: [BASE, BASE, '/admin/v2', '/ADMIN/V1', `${BASE}/`, '/admin'],
    body: around({}),
  });
  return fc.oneof(
    {
      weight: 3,
      arbitrary: send('POST', '/partners', around({ name: 'Acme Loans', tier: 'standard', environment: 'sandbox' })),
    },
    { weight: 1, arbitrary: send('GET', '/partners') },
    {
      weight: 2,
      arbitrary: withId(
        () => known.partners,
        'POST',
        (id) => `/partners/${id}/keys`,
        fc.option(around({}), { nil: undefined }),
      ),
    },
    {
      weight: 1,
      arbitrary: withId(
        () => known.keys,
        'DELETE',
        (id) => `/keys/${id}`,
      ),
    },
    { weight: 1, arbitrary: send('GET', '/tiers') },
    {
      weight: 3,
      arbitrary: fc
        .record({ headers, tier, body: around({ requestsPerHour: 1000 }) })
        .map(
          ({ headers, tier, body }): FuzzRequest => ({ method: 'PUT', path: `${BASE}/tiers/${tier}`, headers, body }),
        ),
    },
    { weight: 1, arbitrary: send('GET', '/catalogue') },
    { weight: 2, arbitrary: send('PUT', '/catalogue', around(defaultCatalogueDocument() as Record<string, unknown>)) },
    {
      weight: 2,
      arbitrary: withId(
        () => known.applications,
        'DELETE',
        (id) => `/applications/${id}/personal-data`,
      ),
    },
    { weight: 1, arbitrary: send('GET', '/data-key') },
    { weight: 1, arbitrary: send('POST', '/data-key/re-encrypt', fc.option(around({}), { nil: undefined })) },
    { weight: 1, arbitrary: send('GET', '/usage') },
    { weight: 2, arbitrary: stray },
  );
};

function foundCases(): void {
  const auth = { Authorization: `Bearer ${TOKEN}` };

  it('when a tier name in the path holds an encoded NUL, then 404 NOT_FOUND (it was a 500 from the database) and no tier changes', async () => {
    const before = JSON.stringify(await storedRows(t.db, 'tiers', {}, 'name'));
    for (const tier of ['%00', 'free%00']) {
      const res = await request(app).put(`${BASE}/tiers/${tier}`).set(auth).send({ requestsPerHour: 5 });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    expect(JSON.stringify(await storedRows(t.db, 'tiers', {}, 'name'))).toBe(before);
  });

  it('when a partner name holds U+0000, then 400 INVALID_JSON (it was a 500 from the database) and no partner is made', async () => {
    const before = await countRows(t.db, 'partners');
    const res = await request(app)
      .post(`${BASE}/partners`)
      .set(auth)
      .set('Content-Type', 'application/json')
      .send('{"name":"Acme\\u0000"}');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('INVALID_JSON');
    expect(await countRows(t.db, 'partners')).toBe(before);
  });
}

runFuzzSuite({ name: 'admin API', runs: RUNS, setUp, foundCases });
