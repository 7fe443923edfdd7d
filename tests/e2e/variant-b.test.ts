import { createHmac, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { REDIS_URL, VALID_STEPS, createPgDatabase, flatApplication } from '../support';
import { flatApplicationB, partnerA, partnerB } from './clients';
import { api, run, startServer, tempDataDir, tempDatabaseUrl, tempRedisPrefix, type Started } from './process';

jest.setTimeout(120_000);

const JWT_SECRET = `e2e-jwt-secret-${randomBytes(16).toString('hex')}`;
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const flat = flatApplication();

async function tokenFor(base: string, apiKey: string): Promise<string> {
  const res = await api(base, 'POST', '/auth/token', {
    headers: { 'X-API-Key': apiKey },
    body: { grantType: 'api_key' },
  });
  expect(res.status).toBe(200);
  return res.body.data.accessToken;
}

/** Calls `request` every `everyMs` until `until` holds for an answer; answers how long after `since` that was. */
async function msUntil(
  request: () => Promise<{ status: number }>,
  until: (status: number) => boolean,
  since: number,
  everyMs = 100,
  limitMs = 8000,
): Promise<number> {
  while (Date.now() - since < limitMs) {
    const { status } = await request();
    if (until(status)) return Date.now() - since;
    await sleep(everyMs);
  }
  return Number.POSITIVE_INFINITY;
}

describe('Variant B on pnpm start', () => {
  const dataDir = tempDataDir();
  let server: Started;
  let A: string;
  let B: string;
  let ADMIN: string;
  let demoKey: string;

  beforeAll(async () => {
    server = await startServer({ env: { DATA_DIR: dataDir, DATABASE_URL: await tempDatabaseUrl(), JWT_SECRET } });
    A = server.urls['Variant A'];
    B = server.urls['Variant B'];
    ADMIN = server.urls['Admin API'];
    demoKey = server.demoApiKey!;
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('when started, then Variant B listens at /v1 beside A and the admin API, and answers health checks', async () => {
    expect(Object.keys(server.urls)).toEqual(['Variant A', 'Variant B', 'Admin API']);
    expect(B).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect((await api(B.replace(/\/v1$/, ''), 'GET', '/healthz')).status).toBe(200);
    expect((await api(B.replace(/\/v1$/, ''), 'GET', '/readyz')).status).toBe(200);
    expect(server.output()).not.toContain(JWT_SECRET);
  });

  it('when a partner exchanges its key, creates through B, saves steps 2-4 through A and checks through B, then A reads back the same application', async () => {
    const b = partnerB(B, demoKey);
    const a = partnerA(A, demoKey);
    const created = await b.client.createApplication(flatApplicationB(), { idempotencyKey: 'e2e-b-create' });
    expect(b.last().status).toBe(201);
    const { applicationId, securityToken } = created;
    expect(securityToken).toMatch(/^st_/);
    const replay = await b.client.createApplication(flatApplicationB(), { idempotencyKey: 'e2e-b-create' });
    expect(b.last().headers.get('idempotency-replayed')).toBe('true');
    expect(replay).toEqual(created);

    const seen = await a.client.getApplication(applicationId);
    expect(a.last().status).toBe(200);
    expect(seen).toMatchObject({
      applicationId,
      formType: 'personal',
      status: 'draft',
      lastStep: 1,
      steps: { '1': { loanAmount: 15000 } },
    });
    expect(JSON.stringify(seen)).not.toContain('Jordan');

    for (const step of [2, 3, 4] as const) {
      await a.client.saveStep(applicationId, step, { ...VALID_STEPS.personal[step] });
      expect(a.last().status).toBe(200);
    }
    await expect(
      b.client.runCreditCheck(applicationId, 'st_not-it', { dateOfBirth: '1988-07-14' }),
    ).rejects.toMatchObject({ status: 403, code: 'INVALID_SECURITY_TOKEN' });
    const checked = await b.client.runCreditCheck(
      applicationId,
      securityToken,
      { dateOfBirth: '1988-07-14' },
      { sandboxScore: 'very_good', idempotencyKey: 'e2e-b-check' },
    );
    expect(b.last().status).toBe(200);
    expect(checked).toEqual({ applicationId, creditCheckComplete: true, degraded_mode: false, sandbox_mode: true });

    const after = await a.client.getApplication(applicationId);
    expect(after).toMatchObject({ applicationId, status: 'credit_checked', lastStep: 5, creditCheckComplete: true });
    expect(JSON.stringify(after)).not.toMatch(/Jordan|0412345678|1988-07-14|st_/);
  });

  it('when tokens are forged, tampered with, expired or not tokens at all, then 401 every time', async () => {
    const token = await tokenFor(B, demoKey);
    const [head, body, signature] = token.split('.');
    const header = JSON.parse(Buffer.from(head, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const resign = (h: object, p: object, secret: string) => {
      const data = `${b64(h)}.${b64(p)}`;
      return `${data}.${createHmac('sha256', secret).update(data).digest('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const forged: Record<string, string | undefined> = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT', kid: header.kid })}.${body}.`,
      'another secret': resign(header, claims, 'not-the-server-secret-0123456789abcdef'),
      'changed payload': `${head}.${b64({ ...claims, exp: claims.exp + 3600 })}.${signature}`,
      'another audience': resign(header, { ...claims, aud: 'someone-else' }, JWT_SECRET),
      'another issuer': resign(header, { ...claims, iss: 'loanmatch/live' }, JWT_SECRET),
      expired: jwt.sign({ api_key_id: claims.api_key_id, iat: now - 3600 }, JWT_SECRET, {
        algorithm: 'HS256',
        keyid: header.kid,
        expiresIn: 900,
        issuer: claims.iss,
        audience: claims.aud,
        subject: claims.sub,
      }),
      'the API key': demoKey,
      'the admin token': server.adminToken,
      garbage: 'garbage',
      missing: undefined,
    };
    for (const [name, credential] of Object.entries(forged)) {
      const res = await api(B, 'POST', '/applications', { key: credential, body: flat });
      expect([name, res.status, res.body.error]).toEqual([name, 401, 'UNAUTHORIZED']);
      expect(res.text).not.toContain(JWT_SECRET);
    }
    expect((await api(B, 'POST', '/applications', { key: token, body: flat })).status).toBe(201);
  });

  it('when the exchange has a wrong grant, no key, a bad key or a live key, then 400 or 401', async () => {
    const wrongGrant = await api(B, 'POST', '/auth/token', {
      headers: { 'X-API-Key': demoKey },
      body: { grantType: 'client_credentials' },
    });
    expect(wrongGrant.status).toBe(400);
    expect(wrongGrant.body).toMatchObject({ error: 'VALIDATION_ERROR', message: 'grantType: must be one of api_key' });
    expect((await api(B, 'POST', '/auth/token', { body: { grantType: 'api_key' } })).status).toBe(401);
    expect(
      (
        await api(B, 'POST', '/auth/token', {
          headers: { 'X-API-Key': `lm_sandbox_${'x'.repeat(43)}` },
          body: { grantType: 'api_key' },
        })
      ).status,
    ).toBe(401);
    const live = await api(ADMIN, 'POST', '/partners', {
      key: server.adminToken,
      body: { name: 'Live Partner', environment: 'live' },
    });
    const refused = await api(B, 'POST', '/auth/token', {
      headers: { 'X-API-Key': live.body.data.apiKey },
      body: { grantType: 'api_key' },
    });
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain(live.body.data.apiKey);
  });

  it('when an operator lowers and raises the free tier while requests flow, then 429 within 5 s, then 200 within 5 s, without a restart', async () => {
    const partner = await api(ADMIN, 'POST', '/partners', {
      key: server.adminToken,
      body: { name: 'Free Partner', tier: 'free' },
    });
    const apiKey = partner.body.data.apiKey;
    const exchangeOnce = () =>
      api(B, 'POST', '/auth/token', { headers: { 'X-API-Key': apiKey }, body: { grantType: 'api_key' } });
    for (let i = 0; i < 5; i++) expect((await exchangeOnce()).status).toBe(200);

    const lowered = await api(ADMIN, 'PUT', '/tiers/free', { key: server.adminToken, body: { requestsPerHour: 3 } });
    expect(lowered.body.data).toMatchObject({ tier: 'free', requestsPerHour: 3 });
    const limitedAfter = await msUntil(exchangeOnce, (s) => s === 429, Date.now());
    expect(limitedAfter).toBeLessThanOrEqual(5000);
    const refused = await exchangeOnce();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toMatch(/^"free"; r=0; t=\d+$/);
    expect(refused.headers.get('ratelimit-policy')).toMatch(/^"free"; q=3; w=3600;/);

    // Raised with the operators' command line.
    const ops = await run(['apps/server/src/ops/main.ts', 'tier', 'set', 'free', '--per-hour', '100000'], {
      DATA_DIR: dataDir,
      ADMIN_URL: ADMIN,
    });
    expect(ops.out).toBe('Tier free now allows 100000 requests per hour.\n');
    const servedAfter = await msUntil(exchangeOnce, (s) => s === 200, Date.now());
    expect(servedAfter).toBeLessThanOrEqual(5000);
  });
});

describe('pnpm start:b processes on one PostgreSQL and one Redis', () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  const started: Started[] = [];
  const adminToken = `lm_admin_${randomBytes(24).toString('base64url')}`;

  beforeAll(async () => {
    db = await createPgDatabase();
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
    await db.drop();
  });

  it('when two B processes and an admin process share the database and Redis, then tokens, counters and tier changes are shared within 5 s', async () => {
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: await tempRedisPrefix(),
      ADMIN_TOKEN: adminToken,
      JWT_SECRET,
    };
    const [b1, b2, admin] = await Promise.all([
      startServer({ mode: 'b', env: { ...env, DATA_DIR: tempDataDir() } }),
      startServer({ mode: 'b', env: { ...env, DATA_DIR: tempDataDir() } }),
      startServer({ mode: 'admin', env: { ...env, DATA_DIR: tempDataDir() } }),
    ]);
    started.push(b1, b2, admin);
    expect(Object.keys(b1.urls)).toEqual(['Variant B']);
    const [B1, B2, ADMIN] = [b1.urls['Variant B'], b2.urls['Variant B'], admin.urls['Admin API']];

    const partner = await api(ADMIN, 'POST', '/partners', { key: adminToken, body: { name: 'Spread', tier: 'free' } });
    const token = await tokenFor(B1, partner.body.data.apiKey);
    const created = await api(B2, 'POST', '/applications', { key: token, body: flat });
    expect(created.status).toBe(201);

    // Lowered on the admin process: both B processes refuse within 5 s, counting in Redis together.
    await api(ADMIN, 'PUT', '/tiers/free', { key: adminToken, body: { requestsPerHour: 4 } });
    const since = Date.now();
    let turn = 0;
    const either = () => api(turn++ % 2 ? B1 : B2, 'POST', '/applications', { key: token, body: flat });
    expect(await msUntil(either, (s) => s === 429, since)).toBeLessThanOrEqual(5000);
    expect(
      await msUntil(
        () => api(B1, 'POST', '/applications', { key: token, body: flat }),
        (s) => s === 429,
        since,
      ),
    ).toBeLessThanOrEqual(5000);
    expect(
      await msUntil(
        () => api(B2, 'POST', '/applications', { key: token, body: flat }),
        (s) => s === 429,
        since,
      ),
    ).toBeLessThanOrEqual(5000);

    await api(ADMIN, 'PUT', '/tiers/free', { key: adminToken, body: { requestsPerHour: 100000 } });
    const raised = Date.now();
    expect(
      await msUntil(
        () => api(B1, 'POST', '/applications', { key: token, body: flat }),
        (s) => s === 201,
        raised,
      ),
    ).toBeLessThanOrEqual(5000);
    expect(
      await msUntil(
        () => api(B2, 'POST', '/applications', { key: token, body: flat }),
        (s) => s === 201,
        raised,
      ),
    ).toBeLessThanOrEqual(5000);
  });
});

describe('pnpm start:b with a bad setting', () => {
  it('when JWT_SECRET is too short, then it exits 1 naming the variable', async () => {
    const res = await run(['apps/server/src/main.ts', 'b'], { JWT_SECRET: 'short', DATA_DIR: tempDataDir() });
    expect(res.code).toBe(1);
    expect(res.err).toContain('JWT_SECRET must be at least 32 characters');
  });
});
