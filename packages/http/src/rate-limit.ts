import { rateLimit, type RateLimitRequestHandler, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import { sendError } from './errors';
import type { Logger } from './logger';

export interface RateLimitOptions {
  /** Requests allowed per window, for the key being limited. */
  limit: number | ((key: string) => number | Promise<number>);
  windowMs: number;
  /** Name of the limiter in the store, so that limiters never share counters. */
  name: string;
  /** Who is counted: a partner's key id, a partner id. */
  keyOf: (res: import('express').Response) => string;
  redis?: Redis;
  redisPrefix?: string;
  logger: Logger;
}

/**
 * express-rate-limit with the IETF `RateLimit` headers and `Retry-After`. Counters live in memory, or
 * in Redis when one is configured so that every process shares them. If Redis fails the request is
 * let through (fail-open) and the failure logged: an outage of the counter store must not become an
 * outage of the API.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimitRequestHandler {
  const store: Store | undefined = options.redis
    ? new RedisStore({
        prefix: `${options.redisPrefix ?? 'loanmatch:'}rl:${options.name}:`,
        sendCommand: (command: string, ...args: string[]) => options.redis!.call(command, ...args) as Promise<never>,
      })
    : undefined;
  return rateLimit({
    windowMs: options.windowMs,
    limit: typeof options.limit === 'number' ? options.limit : (_req, res) => (options.limit as (k: string) => number)(options.keyOf(res)),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: options.name,
    keyGenerator: (_req, res) => options.keyOf(res),
    store,
    passOnStoreError: true,
    validate: { keyGeneratorIpFallback: false },
    handler: (_req, res, _next, opts) => {
      sendError(res, 'RATE_LIMITED', `Rate limit exceeded: ${String(opts.limit)} requests per ${Math.round(options.windowMs / 1000)} seconds; retry after the time in Retry-After`);
    },
  });
}
