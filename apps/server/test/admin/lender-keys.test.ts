import { createHash } from 'node:crypto';
import request from 'supertest';
import { authenticateApiKey, authenticateLenderKey, createPartner } from '@loanmatch/domain';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { createPartnerBApp } from '@loanmatch/partner-b';
import {
  ONE_STORAGE,
  createTestContext,
  silentLogger,
  countRows,
  storedRow,
  type TestContext,
} from '../../../../tests/support';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';
const LENDER = 'harbour-bank';

describe(`lenders' keys through the admin API on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let app: ReturnType<typeof createAdminApp>;
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const issue = (lenderId: string, body: object = {}) =>
    request(app).post(`/admin/v1/lenders/${lenderId}/keys`).set(auth).send(body);

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    app = createAdminApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), adminToken: TOKEN });
  });
  afterAll(() => t.close());

  it('when an operator issues a lender key, then it is shown once, works, and only its SHA-256 digest is stored', async () => {
    const res = await issue(LENDER);
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const apiKey: string = res.body.data.apiKey;
    expect(res.body.data).toEqual({ keyId: expect.any(String), apiKey, lenderId: LENDER, environment: 'sandbox' });
    expect(apiKey).toMatch(/^lm_lender_sandbox_[A-Za-z0-9_-]{43}$/);

    const stored = (await storedRow(t.db, 'lender_keys', { id: res.body.data.keyId }))!;
    expect(stored.keyHash).toBe(createHash('sha256').update(apiKey).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(apiKey.slice(18));
    expect(await authenticateLenderKey(t.ctx, { apiKey })).toEqual({
      ok: true,
      value: { lenderId: LENDER, keyId: res.body.data.keyId, environment: 'sandbox' },
    });

    const listed = await request(app).get('/admin/v1/lenders').set(auth);
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(apiKey);
    const lender = listed.body.data.lenders.find((l: { lenderId: string }) => l.lenderId === LENDER);
    expect(lender).toMatchObject({
      name: 'Harbour Bank',
      active: true,
      keys: [{ keyId: res.body.data.keyId, prefix: apiKey.slice(0, 22), environment: 'sandbox', revokedAt: null }],
    });
  });

  it('when the key is revoked with DELETE /keys/{keyId}, then it is refused from the next request on', async () => {
    const { keyId, apiKey } = (await issue(LENDER)).body.data;
    const revoked = await request(app).delete(`/admin/v1/keys/${keyId}`).set(auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ keyId, revokedAt: expect.any(String) });
    const refused = await authenticateLenderKey(t.ctx, { apiKey });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.code).toBe('UNAUTHORIZED');
    expect((await request(app).delete('/admin/v1/keys/00000000-0000-4000-8000-000000000000').set(auth)).status).toBe(
      404,
    );
  });

  it('when a live key is issued on a sandbox server, then the server refuses it, saying why', async () => {
    const res = await issue(LENDER, { environment: 'live' });
    expect(res.status).toBe(201);
    expect(res.body.data.apiKey).toMatch(/^lm_lender_live_/);
    const refused = await authenticateLenderKey(t.ctx, { apiKey: res.body.data.apiKey });
    expect(!refused.ok && refused.error.message).toBe(
      'This is a live lender key; this server is the sandbox environment',
    );
  });

  it('when the lender is not in the catalogue or the environment is not one, then 404 and 400, and no key is made', async () => {
    const before = await countRows(t.db, 'lender_keys');
    const unknown = await issue('no-such-lender');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, error: 'NOT_FOUND', message: 'Lender not found in the catalogue' });
    expect((await issue('Not An Id')).status).toBe(404);
    const bad = await issue(LENDER, { environment: 'staging' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { field: 'environment', rule: 'enum', message: 'environment: must be one of sandbox, live' },
    ]);
    expect((await issue(LENDER, [] as unknown as object)).status).toBe(400);
    expect(await countRows(t.db, 'lender_keys')).toBe(before);
    expect((await request(app).post(`/admin/v1/lenders/${LENDER}/keys`).send({})).status).toBe(401);
  });

  it('when a lender key is sent to either partner front-end, then 401: it is no partner key, and a partner key is no lender key', async () => {
    const { apiKey: lenderKey } = (await issue(LENDER)).body.data;
    const partner = await createPartner(t.ctx, { body: { name: 'Crossing' } });
    if (!partner.ok) throw partner.error;

    const a = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 100 });
    const onA = await request(a).get('/api/partner/v1/referrals').set('Authorization', `Bearer ${lenderKey}`);
    expect(onA.status).toBe(401);
    expect(onA.body.error).toBe('UNAUTHORIZED');
    const b = createPartnerBApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      jwt: { secret: 'x'.repeat(40) },
    });
    const onB = await request(b).post('/v1/auth/token').set('X-API-Key', lenderKey).send({ grantType: 'api_key' });
    expect(onB.status).toBe(401);

    expect((await authenticateApiKey(t.ctx, { apiKey: lenderKey })).ok).toBe(false);
    expect((await authenticateLenderKey(t.ctx, { apiKey: partner.value.apiKey })).ok).toBe(false);
  });
});
