import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { MemoryStore, rateLimit, type Options, type RateLimitRequestHandler, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import { sendError } from './errors';
import type { Logger } from './logger';
import type { HttpMetrics } from './metrics';

export interface RateLimitOptions {
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
  const { limit, policy, redis, name } = options;
  const warn = (message: string) => (error: unknown, detail?: string) =>
    options.logger.warn(message, { limiter: name, error: String((error as Error)?.message ?? error), detail });
  return rateLimit({
    windowMs: options.windowMs,
    limit: typeof limit === 'number' ? limit : (_req, res) => limit(options.keyOf(res), res),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: policy ? (_req, res) => policy(res) : name,
    keyGenerator: (_req, res) => options.keyOf(res),
    store:
      redis &&
      new FallbackStore(
        redisStore(redis, `${options.redisPrefix ?? 'loanmatch:'}rl:${name}:`),
        (down, error) => {
          if (down) warn('rate limit store failed; counting in this process')(error);
          else options.logger.info('rate limit store answers again', { limiter: name });
        },
        () => options.metrics?.rateLimitFallback(name),
      ),
    passOnStoreError: true,
    logger: { error: warn('rate limit store failed; request allowed'), warn: warn('rate limiter warning') },
    validate: { keyGeneratorIpFallback: false },
    handler: (req, res) => {
      options.metrics?.rateLimited(name, policy?.(res));
      options.onRefused?.(res);
      sendError(
        res,
        'RATE_LIMITED',
        `Rate limit exceeded: ${String((req as { rateLimit?: { limit: number } }).rateLimit?.limit)} requests per ${windowText(options.windowMs)}; retry after the time in Retry-After`,
      );
    },
  });
}

/**
 * The shared store, and this process's own memory while the shared one fails. `onSwitch` hears each change
 * of side (not every request); `onLocal` each request counted locally.
 */
class FallbackStore implements Store {
  private readonly local = new MemoryStore();
  private down = false;

  constructor(
    private readonly shared: Store,
    private readonly onSwitch: (down: boolean, error?: unknown) => void,
    private readonly onLocal: () => void,
  ) {}

  init(options: Options): void {
    this.shared.init?.(options);
    this.local.init(options);
  }

  async increment(key: string) {
    try {
      const counted = await this.shared.increment(key);
      this.switchTo(false);
      return counted;
    } catch (error) {
      this.switchTo(true, error);
      this.onLocal();
      return this.local.increment(key);
    }
  }

  async decrement(key: string): Promise<void> {
    await (this.down ? this.local.decrement(key) : this.shared.decrement(key));
  }

  async resetKey(key: string): Promise<void> {
    await Promise.allSettled([this.shared.resetKey(key), this.local.resetKey(key)]);
  }

  private switchTo(down: boolean, error?: unknown): void {
    if (down === this.down) return;
    this.down = down;
    this.onSwitch(down, error);
  }
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

function windowText(windowMs: number): string {
  if (windowMs === 60_000) return 'minute';
  if (windowMs === 3_600_000) return 'hour';
  return `${Math.round(windowMs / 1000)} seconds`;
}
