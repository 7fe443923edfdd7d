import {
  rateLimit,
  type ClientRateLimitInfo,
  type IncrementResponse,
  type Options,
  type RateLimitRequestHandler,
  type Store,
} from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import { sendError } from './errors';
import type { Logger } from './logger';
import type { HttpMetrics } from './metrics';

export interface RateLimitOptions {
  /** Requests allowed per window, for the key being limited (a function is asked on every request). */
  limit: number | ((key: string, res: import('express').Response) => number | Promise<number>);
  windowMs: number;
  /** Name of the limiter in the store, so that limiters never share counters. */
  name: string;
  /** The quota policy's name in the `RateLimit` headers (a partner's tier, say); `name` by default. */
  policy?: (res: import('express').Response) => string;
  /** Who is counted: a partner's key id, a partner id. */
  keyOf: (res: import('express').Response) => string;
  redis?: Redis;
  redisPrefix?: string;
  logger: Logger;
  /** Counts refusals, by limiter `name` and `policy` (the tier). */
  metrics?: HttpMetrics;
  /** Called on each refusal, before the 429 is sent. */
  onRefused?: (res: import('express').Response) => void;
}

/**
 * express-rate-limit with the IETF `RateLimit` headers and `Retry-After`. Counters live in memory, or
 * in Redis when one is configured so that every process shares them. If Redis fails the request is
 * let through (fail-open) and the failure logged: an outage of the counter store must not become an
 * outage of the API.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimitRequestHandler {
  const store: Store | undefined = options.redis
    ? new ResilientRedisStore(options.redis, `${options.redisPrefix ?? 'loanmatch:'}rl:${options.name}:`)
    : undefined;
  const { limit, policy } = options;
  return rateLimit({
    windowMs: options.windowMs,
    limit: typeof limit === 'number' ? limit : (_req, res) => limit(options.keyOf(res), res),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: policy ? (_req, res) => policy(res) : options.name,
    keyGenerator: (_req, res) => options.keyOf(res),
    store,
    passOnStoreError: true,
    logger: {
      error: (error, message) =>
        options.logger.warn('rate limit store failed; request allowed', {
          limiter: options.name,
          error: String((error as Error)?.message ?? error),
          detail: message,
        }),
      warn: (error, message) =>
        options.logger.warn('rate limiter warning', {
          limiter: options.name,
          error: String((error as Error)?.message ?? error),
          detail: message,
        }),
    },
    validate: { keyGeneratorIpFallback: false },
    handler: (req, res) => {
      options.metrics?.rateLimited(options.name, policy?.(res));
      options.onRefused?.(res);
      const allowed = (req as { rateLimit?: { limit: number } }).rateLimit?.limit;
      sendError(
        res,
        'RATE_LIMITED',
        `Rate limit exceeded: ${String(allowed)} requests per ${windowText(options.windowMs)}; retry after the time in Retry-After`,
      );
    },
  });
}

function windowText(windowMs: number): string {
  if (windowMs === 60_000) return 'minute';
  if (windowMs === 3_600_000) return 'hour';
  return `${Math.round(windowMs / 1000)} seconds`;
}

/**
 * rate-limit-redis loads its Lua scripts once, in `init`; if Redis is unreachable at that moment the
 * store stays broken after Redis returns. This wrapper starts a fresh store after any failure, so
 * limiting resumes by itself once Redis is back.
 */
class ResilientRedisStore implements Store {
  readonly localKeys = false;
  private inner: RedisStore;
  private options?: Options;
  private ready: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly redis: Redis,
    readonly prefix: string,
  ) {
    this.inner = this.makeInner();
  }

  init(options: Options): void {
    this.options = options;
    this.ready = this.inner.init(options).catch(() => {
      this.failed = true;
    });
  }

  async increment(key: string): Promise<IncrementResponse> {
    return this.use((s) => s.increment(key));
  }

  async decrement(key: string): Promise<void> {
    return this.use((s) => s.decrement(key));
  }

  async resetKey(key: string): Promise<void> {
    return this.use((s) => s.resetKey(key));
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.use((s) => s.get(key));
  }

  private makeInner(): RedisStore {
    return new RedisStore({
      prefix: this.prefix,
      sendCommand: (command: string, ...args: string[]) => this.redis.call(command, ...args) as Promise<never>,
    });
  }

  private async use<T>(op: (store: RedisStore) => Promise<T>): Promise<T> {
    await this.ready;
    if (this.failed && this.options) {
      const fresh = this.makeInner();
      await fresh.init(this.options); // throws while Redis is still down: the request fails open
      this.inner = fresh;
      this.failed = false;
    }
    try {
      return await op(this.inner);
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }
}
