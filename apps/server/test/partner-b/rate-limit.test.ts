import { createTierLimits, setTierLimit } from '@loanmatch/domain';
import {
  ONE_STORAGE,
  STORAGES,
  createTestContext,
  openTestRedis,
  silentLogger,
  type TestContext,
} from '../../../../tests/support';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { JWT_SECRET, accessTokenFor, clientB, exchange, flatApplication, newPartner } from './helpers';

describe.each(STORAGES)('Variant B rate tiers on %s', (storage) => {
  let t: TestContext;
  let nowMs = 0;
  let app: ReturnType<typeof createPartnerBApp>;

  beforeAll(async () => {
    t = await createTestContext(storage);
    // The cache's clock is the test's: "two seconds later" is a step of this counter.
    app = createPartnerBApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      jwt: { secret: JWT_SECRET },
      tierLimits: createTierLimits(t.db, { now: () => nowMs }),
    });
  });
  afterAll(() => t.close());

  async function setFree(perHour: number) {
    const set = await setTierLimit(t.ctx, { tier: 'free', body: { requestsPerHour: perHour } });
    if (!set.ok) throw set.error;
  }

  it('when a standard partner calls, then the RateLimit headers name its tier and the default 1000 an hour', async () => {
    const { apiKey } = await newPartner(t.ctx, { tier: 'standard' });
    const res = await exchange(app, apiKey);
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-policy']).toMatch(/^"standard"; q=1000; w=3600; pk=:[^:]+:$/);
    expect(res.headers.ratelimit).toMatch(/^"standard"; r=999; t=\d+$/);
  });

  it('when a tier’s limit is lowered and raised while requests flow, then 429 RATE_LIMITED within the cache age, then 200 again; other partners keep their own count', async () => {
    await setFree(3);
    nowMs += 2000;
    const { apiKey } = await newPartner(t.ctx, { tier: 'free' });
    const c = clientB(app, await accessTokenFor(app, apiKey)); // request 1
    expect((await c.create(flatApplication())).status).toBe(201); // 2
    expect((await c.create(flatApplication())).status).toBe(201); // 3
    const refused = await c.create(flatApplication()); // 4
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      error: 'RATE_LIMITED',
      message: 'Rate limit exceeded: 3 requests per hour; retry after the time in Retry-After',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(refused.headers.ratelimit).toMatch(/^"free"; r=0; t=\d+$/);
    expect(refused.headers['ratelimit-policy']).toMatch(/^"free"; q=3; w=3600;/);
    expect(refused.headers['x-request-id']).toBeTruthy();
    // The token exchange is counted too, so a limited partner cannot mint tokens either.
    expect((await exchange(app, apiKey)).status).toBe(429);

    // Another free partner has its own counter.
    const { apiKey: otherKey } = await newPartner(t.ctx, { tier: 'free' });
    expect((await exchange(app, otherKey)).status).toBe(200);

    // Raised in the database: this process sees it once its cached map is two seconds old.
    await setFree(100);
    expect((await c.create(flatApplication())).status).toBe(429);
    nowMs += 2000;
    expect((await c.create(flatApplication())).status).toBe(201);
  });
});

describe('Variant B rate tiers with REDIS_URL', () => {
  let t: TestContext;
  let r: Awaited<ReturnType<typeof openTestRedis>>;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    r = await openTestRedis();
  });
  afterAll(async () => {
    await r.close();
    await t.close();
  });

  it('when two processes share Redis, then one partner’s hourly count spans both', async () => {
    const set = await setTierLimit(t.ctx, { tier: 'free', body: { requestsPerHour: 4 } });
    expect(set.ok).toBe(true);
    const make = () =>
      createPartnerBApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: async () => true,
        jwt: { secret: JWT_SECRET },
        redis: r.redis,
        redisPrefix: r.prefix,
      });
    const [first, second] = [make(), make()];
    const { apiKey } = await newPartner(t.ctx, { tier: 'free' });
    const token = await accessTokenFor(first, apiKey); // 1
    expect((await clientB(second, token).create(flatApplication())).status).toBe(201); // 2
    expect((await clientB(first, token).create(flatApplication())).status).toBe(201); // 3
    expect((await clientB(second, token).create(flatApplication())).status).toBe(201); // 4
    const refused = await clientB(first, token).create(flatApplication());
    expect(refused.status).toBe(429);
    expect((await clientB(second, token).create(flatApplication())).status).toBe(429);
    expect(await r.redis.keys(`${r.prefix}rl:b:*`)).toHaveLength(1);
  });
});
