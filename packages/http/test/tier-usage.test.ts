import { Redis } from 'ioredis';
import { REDIS_URL, eventually, openTestRedis } from '../../../tests/support';
import { startTcpProxy } from '../../../tests/e2e/tcp-proxy';
import { createTierUsage } from '../src/tier-usage';

const MINUTE = 60_000;

describe('tier usage in memory', () => {
  it('when requests are counted over time, then the last hour sums the current minute and the 59 before it, per tier', async () => {
    let now = 1_000 * 60 * MINUTE + 30_000; // half a minute into some minute
    const usage = createTierUsage({ now: () => now });
    usage.record('free', false);
    usage.record('free', true);
    usage.record('standard', false);
    now += 59 * MINUTE;
    usage.record('free', false);
    let report = await usage.lastHour();
    expect(report.shared).toBe(false);
    expect(report.tiers.get('free')).toEqual({ requests: 3, refused: 1 });
    expect(report.tiers.get('standard')).toEqual({ requests: 1, refused: 0 });
    expect(report.since.getTime()).toBe(Math.floor(now / MINUTE) * MINUTE - 59 * MINUTE);

    now += MINUTE; // the first minute has left the hour
    report = await usage.lastHour();
    expect(report.tiers.get('free')).toEqual({ requests: 1, refused: 0 });
    expect(report.tiers.has('standard')).toBe(false);
  });
});

describe('tier usage in Redis', () => {
  let r: Awaited<ReturnType<typeof openTestRedis>>;
  beforeAll(async () => {
    r = await openTestRedis();
  });
  afterAll(() => r.close());

  it('when two processes count, then each one reads the sum of both, and the minute hashes expire', async () => {
    const one = createTierUsage({ redis: r.redis, redisPrefix: r.prefix, flushMs: 60_000 });
    const two = createTierUsage({ redis: r.redis, redisPrefix: r.prefix, flushMs: 60_000 });
    for (let i = 0; i < 4; i++) one.record('free', i === 3);
    two.record('free', true);
    two.record('enterprise', false);
    await two.close(); // writes what it holds
    const report = await one.lastHour(); // writes its own first, then reads
    expect(report.shared).toBe(true);
    expect(report.tiers.get('free')).toEqual({ requests: 5, refused: 2 });
    expect(report.tiers.get('enterprise')).toEqual({ requests: 1, refused: 0 });

    const keys = await r.redis.keys(`${r.prefix}usage:b:*`);
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keys) {
      const ttl = await r.redis.ttl(key);
      expect(ttl).toBeGreaterThan(3600);
      expect(ttl).toBeLessThanOrEqual(7200);
    }
    await one.close();
  });

  it('when counts are only recorded, then the timer writes them within its period', async () => {
    const writer = createTierUsage({ redis: r.redis, redisPrefix: `${r.prefix}timer:`, flushMs: 50 });
    const reader = createTierUsage({ redis: r.redis, redisPrefix: `${r.prefix}timer:`, flushMs: 60_000 });
    writer.record('standard', false);
    const written = await eventually(
      async () => (await reader.lastHour()).tiers.get('standard'),
      (counts) => counts !== undefined,
      300,
    );
    expect(written).toEqual({ requests: 1, refused: 0 });
    await writer.close();
    await reader.close();
  });

  it('when Redis cannot be written, then the counts are kept and written once it can', async () => {
    const redis = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    const usage = createTierUsage({ redis, redisPrefix: `${r.prefix}retry:`, flushMs: 60_000 });
    usage.record('free', true);
    await usage.close(); // not connected yet (the attempt starts the connection): the write fails, the counts stay
    expect(await r.redis.keys(`${r.prefix}retry:*`)).toEqual([]);
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    try {
      expect((await usage.lastHour()).tiers.get('free')).toEqual({ requests: 1, refused: 1 });
    } finally {
      redis.disconnect();
    }
  });

  it('when a write times out and Redis applies it once it answers again, then its counts are not written twice', async () => {
    const { hostname, port } = new URL(REDIS_URL);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    const redis = new Redis(`redis://127.0.0.1:${proxy.port}`, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 200,
    });
    const prefix = `${r.prefix}late:`;
    try {
      if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
      const usage = createTierUsage({ redis, redisPrefix: prefix, flushMs: 60_000 });
      usage.record('standard', false);
      await proxy.cut('blackhole');
      await expect(usage.lastHour()).rejects.toThrow('Command timed out'); // the write, then the read, time out
      await proxy.restore({ heal: true }); // what waited reaches Redis: the MULTI applies now
      const reader = createTierUsage({ redis: r.redis, redisPrefix: prefix, flushMs: 60_000 });
      const late = await eventually(
        async () => (await reader.lastHour()).tiers.get('standard'),
        (counts) => counts !== undefined,
        2000,
      );
      expect(late).toEqual({ requests: 1, refused: 0 });
      await usage.close(); // nothing pending: the timed-out write is not sent again
      expect((await reader.lastHour()).tiers.get('standard')).toEqual({ requests: 1, refused: 0 });
      await reader.close();
    } finally {
      redis.disconnect();
      await proxy.close();
    }
  });
});
