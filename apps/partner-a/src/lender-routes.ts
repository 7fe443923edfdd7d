/**
 * The lender API at /api/lender/v1 (CONTRACT.md "Referral lifecycle"), served by the Variant A listener
 * beside the partner API but apart from it: its own authentication (`Authorization: Bearer <lender key>`),
 * its own rate limit per key, and no partner route behind it. Routes parse, call one domain function, and
 * render.
 */
import { Router, type Response } from 'express';
import type { Redis } from 'ioredis';
import { recordOutcome, type AuthenticatedLender, type DomainContext } from '@loanmatch/domain';
import {
  BODY_BOUNDS,
  LENDER_BASE_PATH,
  createRateLimiter,
  jsonBody,
  requireLenderKey,
  sendResult,
  type HttpMetrics,
  type Logger,
} from '@loanmatch/http';

export { LENDER_BASE_PATH };

export interface LenderRoutesDeps {
  ctx: DomainContext;
  logger: Logger;
  /** Requests a minute per lender key: Variant A's partner limit. */
  rateLimitPerMinute: number;
  redis?: Redis;
  redisPrefix?: string;
  metrics?: HttpMetrics;
}

const lenderOf = (res: Response): AuthenticatedLender => res.locals.lender;

export function lenderRoutes({
  ctx,
  logger,
  rateLimitPerMinute,
  redis,
  redisPrefix,
  metrics,
}: LenderRoutesDeps): Router {
  const router = Router();
  router.use(
    requireLenderKey(ctx),
    createRateLimiter({
      name: 'lender',
      limit: rateLimitPerMinute,
      windowMs: 60_000,
      keyOf: (res) => lenderOf(res).keyId,
      redis,
      redisPrefix,
      logger,
      metrics,
    }),
    jsonBody(BODY_BOUNDS.partner),
  );

  router.post('/outcomes', async (req, res) => {
    const result = await recordOutcome(ctx, { lender: lenderOf(res), body: req.body });
    sendResult(res, result, 201);
  });

  return router;
}
