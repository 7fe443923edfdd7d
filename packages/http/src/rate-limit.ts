import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { MemoryStore, rateLimit, type RateLimitRequestHandler, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import { sendError } from './errors';
import { errorText, type Logger } from './logger';
import type { HttpMetrics } from './metrics';

interface RateLimitOptions {
  /** Requests allowed per window; a function is asked on every request. */
  limit: number | ((key: string, res: Response) => number | Promise<number>);
  windowMs: number;
  /** The limiter's name in the store and the metrics. */
  name: string;
  /** The quota policy's name in the `RateLimit` headers (a partner's tier); `name` by default. */
  policy?: (res: Response) => string;
  /** Who is counted: a partner's key id, a partner id. */
  keyOf: (res: Response) => string;
  /** Counters shared by every process; in this process's memory without. */
  redis?: Redis;
  redisPrefix?: string;
  logger: Logger;
  metrics?: HttpMetrics;
  /** Called on each refusal, before the 429 is sent. */
  onRefused?: (res: Response) => void;
}

/**
 * express-rate-limit with the IETF `RateLimit` headers and `Retry-After`. Counters live in Redis when it is
 * given; while Redis fails, each process counts on its own (a limit per process), logged and counted in the
 * metrics, until Redis answers again: an outage of Redis becomes neither an outage of the API nor no limit.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimitRequestHandler {
  const { limit, policy, redis, name, logger } = options;
  const warn = (message: string) => (error: unknown) =>
    logger.warn(message, { limiter: name, error: errorText(error) });
  const per = options.windowMs === 60_000 ? 'minute' : 'hour';
  return rateLimit({
    windowMs: options.windowMs,
    limit: typeof limit === 'number' ? limit : (_req, res) => limit(options.keyOf(res), res),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: policy ? (_req, res) => policy(res) : name,
    keyGenerator: (_req, res) => options.keyOf(res),
    store: redis && fallbackStore(redisStore(redis, `${options.redisPrefix ?? 'loanmatch:'}rl:${name}:`), options),
    // Store failures never reach the limiter: the fallback store counts in memory instead.
    logger: { error: warn('rate limiter error'), warn: warn('rate limiter warning') },
    validate: { keyGeneratorIpFallback: false },
    handler: (req, res) => {
      options.metrics?.rateLimited(name, policy?.(res));
      options.onRefused?.(res);
      const allowed = (req as { rateLimit?: { limit: number } }).rateLimit?.limit;
      const message = `Rate limit exceeded: ${allowed} requests per ${per}; retry after the time in Retry-After`;
      sendError(res, 'RATE_LIMITED', message);
    },
  });
}

/**
 * The shared store, and this process's own memory while the shared one fails: each change of side is
 * logged (not every request), each request counted locally is counted in the metrics.
 */
function fallbackStore(shared: Store, { name, logger, metrics }: RateLimitOptions): Store {
  const local = new MemoryStore();
  let down = false;
  return {
    init(options) {
      shared.init?.(options);
      local.init(options);
    },
    async increment(key) {
      try {
        const counted = await shared.increment(key);
        if (down) logger.info('rate limit store answers again', { limiter: name });
        down = false;
        return counted;
      } catch (error) {
        if (!down)
          logger.warn('rate limit store failed; counting in this process', { limiter: name, error: errorText(error) });
        down = true;
        metrics?.rateLimitFallback(name);
        return local.increment(key);
      }
    },
    decrement: (key) => (down ? local : shared).decrement(key),
    async resetKey(key) {
      await Promise.allSettled([shared.resetKey(key), local.resetKey(key)]);
    },
  };
}

/**
 * The store loads its Lua scripts once and keeps a failed load for good. A load that fails (Redis down)
 * answers the script's SHA-1 all the same: once Redis is back, its NOSCRIPT makes the store load it again.
 */
function redisStore(redis: Redis, prefix: string): RedisStore {
  return new RedisStore({
    prefix,
    sendCommand: (command: string, ...args: string[]) => {
      const sent = redis.call(command, ...args) as Promise<never>;
      if (command !== 'SCRIPT') return sent;
      return sent.catch(() => createHash('sha1').update(args[1]).digest('hex') as never);
    },
  });
}
