import request from 'supertest';
import { authenticateApiKey } from '@loanmatch/domain';
import {
  STORAGES,
  createTestContext,
  silentLogger,
  countRows,
  storedRow,
  storedRows,
  type TestContext,
} from '../../../../tests/support';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';

describe.each(STORAGES)('admin API on %s', (storage) => {
  let t: TestContext;
  let app: ReturnType<typeof createAdminApp>;
  const auth = { Authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    t = await createTestContext(storage);
    app = createAdminApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), adminToken: TOKEN });
  });
  afterAll(() => t.close());

  it('when a partner is created, then its key is shown once, works, and is stored only as a digest', async () => {
    const res = await request(app)
      .post('/admin/v1/partners')
      .set(auth)
      .send({ name: 'Acme Loans', tier: 'enterprise' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      partnerId: expect.any(String),
      name: 'Acme Loans',
      tier: 'enterprise',
      environment: 'sandbox',
    });
    const apiKey: string = res.body.data.apiKey;
    expect(apiKey).toMatch(/^lm_sandbox_[A-Za-z0-9_-]{43}$/);
    expect(res.headers['cache-control']).toBe('no-store'); // the answer holds a key
    expect(res.headers['x-content-type-options']).toBe('nosniff');

    const stored = await storedRows(t.db, 'api_keys', { partnerId: res.body.data.partnerId });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(apiKey.slice(15));
    expect((await authenticateApiKey(t.ctx, { apiKey })).ok).toBe(true);

    const list = await request(app).get('/admin/v1/partners').set(auth);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(apiKey);
    const listed = list.body.data.partners.find((p: { partnerId: string }) => p.partnerId === res.body.data.partnerId);
    expect(listed).toMatchObject({
      name: 'Acme Loans',
      tier: 'enterprise',
      keys: [expect.objectContaining({ prefix: apiKey.slice(0, 15), revokedAt: null })],
    });
  });

  it('when no tier or environment is given, then standard and the server’s environment', async () => {
    const res = await request(app).post('/admin/v1/partners').set(auth).send({ name: 'Defaults' });
    expect(res.body.data).toMatchObject({ tier: 'standard', environment: 'sandbox' });
  });

  it('when a second key is issued and the first revoked, then only the second works', async () => {
    const created = (await request(app).post('/admin/v1/partners').set(auth).send({ name: 'Rotator' })).body.data;
    const issued = await request(app).post(`/admin/v1/partners/${created.partnerId}/keys`).set(auth);
    expect(issued.status).toBe(201);
    expect(issued.headers['cache-control']).toBe('no-store');
    expect(issued.body.data).toMatchObject({
      keyId: expect.any(String),
      apiKey: expect.stringMatching(/^lm_sandbox_/),
    });
    const revoked = await request(app).delete(`/admin/v1/keys/${created.keyId}`).set(auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ keyId: created.keyId, revokedAt: expect.any(String) });
    expect((await authenticateApiKey(t.ctx, { apiKey: created.apiKey })).ok).toBe(false);
    expect((await authenticateApiKey(t.ctx, { apiKey: issued.body.data.apiKey })).ok).toBe(true);
  });

  it.each([
    [{}, 'name: is required'],
    [{ name: '' }, 'name: must be a string of 1 to 100 characters'],
    [{ name: 'x', tier: 'gold' }, 'tier: must be one of free, standard, enterprise'],
    [{ name: 'x', environment: 'prod' }, 'environment: must be one of sandbox, live'],
  ])('when the partner body is %j, then 400 VALIDATION_ERROR "%s"', async (body, message) => {
    const res = await request(app).post('/admin/v1/partners').set(auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
  });

  it('when the partner or key is unknown or malformed, then 404 NOT_FOUND', async () => {
    for (const res of [
      await request(app).post('/admin/v1/partners/6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d/keys').set(auth),
      await request(app).post('/admin/v1/partners/nope/keys').set(auth),
      await request(app).delete('/admin/v1/keys/6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d').set(auth),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
  });

  it('when the admin token is missing or wrong, then 401 and nothing is created', async () => {
    const before = await countRows(t.db, 'partners');
    for (const res of [
      await request(app).post('/admin/v1/partners').send({ name: 'Sneaky' }),
      await request(app).post('/admin/v1/partners').set('Authorization', 'Bearer wrong').send({ name: 'Sneaky' }),
      await request(app).get('/admin/v1/partners').set('Authorization', `Bearer ${TOKEN}x`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('UNAUTHORIZED');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    expect(await countRows(t.db, 'partners')).toBe(before);
  });

  describe('tiers', () => {
    it('when the tiers are read, then the seeded defaults in tier order', async () => {
      const res = await request(app).get('/admin/v1/tiers').set(auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          tiers: [
            { tier: 'free', requestsPerHour: 100, updatedAt: expect.any(String) },
            { tier: 'standard', requestsPerHour: 1000, updatedAt: expect.any(String) },
            { tier: 'enterprise', requestsPerHour: 10000, updatedAt: expect.any(String) },
          ],
        },
      });
    });

    it('when a tier’s limit is set, then it is stored and answered, and the listing shows it', async () => {
      const res = await request(app).put('/admin/v1/tiers/enterprise').set(auth).send({ requestsPerHour: 25000 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { tier: 'enterprise', requestsPerHour: 25000, updatedAt: expect.any(String) },
      });
      expect(await storedRow(t.db, 'tiers', { name: 'enterprise' })).toMatchObject({
        requestsPerHour: 25000,
      });
      const listed = await request(app).get('/admin/v1/tiers').set(auth);
      expect(listed.body.data.tiers.find((x: { tier: string }) => x.tier === 'enterprise').requestsPerHour).toBe(25000);
      await request(app).put('/admin/v1/tiers/enterprise').set(auth).send({ requestsPerHour: 10000 });
    });

    it.each([
      [{}, 'requestsPerHour: is required'],
      [{ requestsPerHour: 0 }, 'requestsPerHour: must be a whole number between 1 and 10000000'],
      [{ requestsPerHour: -5 }, 'requestsPerHour: must be a whole number between 1 and 10000000'],
      [{ requestsPerHour: 12.5 }, 'requestsPerHour: must be a whole number between 1 and 10000000'],
      [{ requestsPerHour: '100' }, 'requestsPerHour: must be a whole number between 1 and 10000000'],
    ])('when the tier body is %j, then 400 VALIDATION_ERROR "%s" and the limit is unchanged', async (body, message) => {
      const res = await request(app).put('/admin/v1/tiers/free').set(auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
      expect(await storedRow(t.db, 'tiers', { name: 'free' })).toMatchObject({ requestsPerHour: 100 });
    });

    it('when the tier is unknown, then 404 NOT_FOUND naming the tiers; without the admin token, 401', async () => {
      const unknown = await request(app).put('/admin/v1/tiers/gold').set(auth).send({ requestsPerHour: 5 });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({
        error: 'NOT_FOUND',
        message: 'Tier not found; the tiers are free, standard, enterprise',
      });
      const anonymous = await request(app).put('/admin/v1/tiers/free').send({ requestsPerHour: 1 });
      expect(anonymous.status).toBe(401);
      expect((await request(app).get('/admin/v1/tiers')).status).toBe(401);
      expect(await storedRow(t.db, 'tiers', { name: 'free' })).toMatchObject({ requestsPerHour: 100 });
    });
  });
});
