import { randomBytes } from 'node:crypto';
import { LoanMatchApiError } from '@loanmatch/client';
import { createPgDatabase, REDIS_URL, VALID_STEPS } from '../support';
import { applicant, partnerA } from './clients';
import { api, startServer, tempDataDir, tempRedisPrefix, type Started } from './process';

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
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: await tempRedisPrefix(),
      ADMIN_TOKEN: adminToken,
      RATE_LIMIT_A_PER_MINUTE: '5',
    };
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

    // The partner SDK makes no retries here: each call is exactly one request against the limit of 5.
    const { client, last } = partnerA(a.urls['Variant A'], demoKeys[0]!);
    const { applicationId: id } = await client.createApplication(
      { formType: 'home', data: { ...VALID_STEPS.home[1] } },
      { idempotencyKey: 'pg-1' },
    );
    expect(last().status).toBe(201);
    for (const step of [2, 3] as const) {
      await client.saveStep(id, step, { ...VALID_STEPS.home[step] });
      expect(last().status).toBe(200);
    }
    // Requests 4 and 5 of the 5 this key may make this minute (the counter is in Redis); the 6th is refused.
    await client.saveStep(id, 4, { ...VALID_STEPS.home[4] });
    expect(last().status).toBe(200);
    await client.runCreditCheck(id, applicant(), { idempotencyKey: 'pg-check' });
    expect(last().status).toBe(200);
    const refused = await client.getApplication(id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LoanMatchApiError);
    expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((refused as LoanMatchApiError).retryAfter).toBeGreaterThan(0);
    expect(Number(last().headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
