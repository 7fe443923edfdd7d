import { randomBytes } from 'node:crypto';
import { createPgDatabase, REDIS_URL, VALID_STEPS, validApplicant } from '@loanmatch/testing';
import { api, startServer, tempDataDir, type Started } from './process';

jest.setTimeout(90_000);

describe('separate processes on one PostgreSQL and one Redis', () => {
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

  it('when start:a and start:admin start together on an empty database, then it is migrated once, one demo partner exists, and both serve', async () => {
    const env = { DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: `lmtest:${randomBytes(6).toString('hex')}:`, ADMIN_TOKEN: adminToken, RATE_LIMIT_A_PER_MINUTE: '5' };
    const [a, admin] = await Promise.all([
      startServer({ mode: 'a', env: { ...env, DATA_DIR: tempDataDir() } }),
      startServer({ mode: 'admin', env: { ...env, DATA_DIR: tempDataDir() } }),
    ]);
    started.push(a, admin);
    expect(Object.keys(a.urls)).toEqual(['Variant A']);
    expect(Object.keys(admin.urls)).toEqual(['Admin API']);
    const demoKeys = [a.demoApiKey, admin.demoApiKey].filter(Boolean);
    expect(demoKeys).toHaveLength(1);

    const partners = await api(admin.urls['Admin API'], 'GET', '/partners', { key: adminToken });
    expect(partners.body.data.partners.filter((p: { name: string }) => p.name === 'Demo Partner')).toHaveLength(1);

    const key = demoKeys[0]!;
    const base = a.urls['Variant A'];
    const created = await api(base, 'POST', '/applications', { key, body: { formType: 'home', data: VALID_STEPS.home[1] }, headers: { 'Idempotency-Key': 'pg-1' } });
    expect(created.status).toBe(201);
    const id = created.body.data.applicationId;
    for (const step of [2, 3] as const) expect((await api(base, 'PATCH', `/applications/${id}`, { key, body: { step, data: VALID_STEPS.home[step] } })).status).toBe(200);
    // Requests 4 and 5 of the 5 this key may make this minute (the counter is in Redis); the 6th is refused.
    expect((await api(base, 'PATCH', `/applications/${id}`, { key, body: { step: 4, data: VALID_STEPS.home[4] } })).status).toBe(200);
    const checked = await api(base, 'POST', `/applications/${id}/credit-check`, { key, body: { data: validApplicant() }, headers: { 'Idempotency-Key': 'pg-check' } });
    expect(checked.status).toBe(200);
    const refused = await api(base, 'GET', `/applications/${id}`, { key });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
