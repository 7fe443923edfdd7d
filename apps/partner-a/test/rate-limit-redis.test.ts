import { Redis } from 'ioredis';
import { createLogger, createMetrics } from '@loanmatch/http';
import { ONE_STORAGE, createTestContext, openTestRedis, silentLogger, type TestContext } from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { client, newPartnerKey } from './helpers';

const UNKNOWN = '6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d';

describe('Variant A rate limit with REDIS_URL', () => {
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

  it('when two app instances share Redis, then the limit counts requests to both', async () => {
    const make = () =>
      createPartnerAApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: async () => true,
        rateLimitPerMinute: 4,
        redis: r.redis,
        redisPrefix: r.prefix,
      });
    const { apiKey } = await newPartnerKey(t.ctx);
    const first = client(make(), apiKey);
    const second = client(make(), apiKey);
    expect((await first.get(UNKNOWN)).status).toBe(404);
    expect((await second.get(UNKNOWN)).status).toBe(404);
    expect((await first.get(UNKNOWN)).status).toBe(404);
    expect((await second.get(UNKNOWN)).status).toBe(404);
    const refused = await first.get(UNKNOWN);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    expect((await second.get(UNKNOWN)).status).toBe(429);
    expect(await r.redis.keys(`${r.prefix}*`)).not.toHaveLength(0);
  });

  it('when Redis is unreachable, then requests are served and limited by this process alone, logged and counted', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    const logger = createLogger({ level: 'silent', service: 'test' });
    const warn = jest.spyOn(logger, 'warn');
    const metrics = createMetrics({ processMetrics: false });
    const app = createPartnerAApp({
      ctx: t.ctx,
      logger,
      ping: async () => true,
      rateLimitPerMinute: 1,
      metrics,
      redis: dead,
      redisPrefix: r.prefix,
    });
    const c = client(app, (await newPartnerKey(t.ctx)).apiKey);
    expect((await c.get(UNKNOWN)).status).toBe(404);
    const refused = await c.get(UNKNOWN);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    // Logged once when the counting moved into the process, not on every request; counted on every one.
    expect(warn.mock.calls.map(([message]) => message)).toEqual(['rate limit store failed; counting in this process']);
    expect(await metrics.render()).toMatch(/^loanmatch_rate_limit_local_counts_total\{limiter="a"\} 2$/m);
    // The client gives up by itself (no retries). disconnect() on a connection that has already closed would
    // leave ioredis's 2 s disconnect timer running, since the socket's 'close' it waits for has passed: that
    // kept Jest's worker alive after its last file ("A worker process has failed to exit gracefully").
    if (dead.status !== 'end') await new Promise((resolve) => dead.once('end', resolve));
  });
});
