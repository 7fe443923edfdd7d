/**
 * Variant A: the partner contract of spec sections 4.1-4.5, at /api/partner/v1, authenticated with
 * `Authorization: Bearer <API key>`. Routes parse, call one domain function, and render.
 */
import { Router, type Express, type Response } from 'express';
import type { Redis } from 'ioredis';
import {
  createApplication,
  followTrackingLink,
  getApplication,
  listConsentTexts,
  matchApplication,
  runCreditCheck,
  saveStep,
  type AuthenticatedPartner,
  type DomainContext,
} from '@loanmatch/domain';
import {
  createRateLimiter,
  BODY_BOUNDS,
  jsonBody,
  requireApiKey,
  sendResult,
  type HttpMetrics,
  type Logger,
  webhookRoutes,
  referralRoutes,
  createServiceApp,
  docsRoutes,
  variantADocument,
} from '@loanmatch/http';
import { LENDER_BASE_PATH, lenderRoutes } from './lender-routes';

export const BASE_PATH_A = '/api/partner/v1';

export interface PartnerADeps {
  ctx: DomainContext;
  logger: Logger;
  ping: () => Promise<boolean>;
  rateLimitPerMinute: number;
  redis?: Redis;
  redisPrefix?: string;
  /** Request durations and rate-limit refusals, for `GET /metrics`. */
  metrics?: HttpMetrics;
}

const partnerOf = (res: Response): AuthenticatedPartner => res.locals.partner;

export function createPartnerAApp(deps: PartnerADeps): Express {
  return createServiceApp({
    contract: 'A',
    logger: deps.logger,
    ping: deps.ping,
    metrics: deps.metrics,
    // The partner API first: its requests (nearly all of them) then pass no other router on the way.
    routes: [
      { path: BASE_PATH_A, router: partnerRoutes(deps) },
      // Lenders report outcomes here, with keys of their own: no partner route is behind it.
      { path: LENDER_BASE_PATH, router: lenderRoutes(deps) },
      { router: trackingRoutes(deps) },
      // The OpenAPI document names this listener by its public address, the one tracking links carry.
      {
        router: docsRoutes(
          variantADocument({
            basePath: BASE_PATH_A,
            publicUrl: deps.ctx.tracking.publicBaseUrl,
            environment: deps.ctx.env,
          }),
        ),
      },
    ],
  });
}

function partnerRoutes({ ctx, logger, rateLimitPerMinute, redis, redisPrefix, metrics }: PartnerADeps): Router {
  const router = Router();
  router.use(
    requireApiKey(ctx),
    createRateLimiter({
      name: 'a',
      limit: rateLimitPerMinute,
      windowMs: 60_000,
      keyOf: (res) => partnerOf(res).keyId,
      redis,
      redisPrefix,
      logger,
      metrics,
    }),
    jsonBody(BODY_BOUNDS.partner),
  );

  router.post('/applications', async (req, res) => {
    const result = await createApplication(ctx, {
      partnerId: partnerOf(res).partnerId,
      body: req.body,
      idempotencyKey: req.get('Idempotency-Key'),
    });
    sendResult(res, result, 201);
  });

  router.patch('/applications/:applicationId', async (req, res) => {
    const result = await saveStep(ctx, {
      partnerId: partnerOf(res).partnerId,
      applicationId: req.params.applicationId,
      body: req.body,
    });
    sendResult(res, result);
  });

  router.post('/applications/:applicationId/credit-check', async (req, res) => {
    const result = await runCreditCheck(ctx, {
      partnerId: partnerOf(res).partnerId,
      applicationId: req.params.applicationId,
      body: req.body,
      idempotencyKey: req.get('Idempotency-Key'),
      sandboxScore: req.get('X-Sandbox-Score'),
    });
    sendResult(res, result);
  });

  router.get('/applications/:applicationId', async (req, res) => {
    const result = await getApplication(ctx, {
      partnerId: partnerOf(res).partnerId,
      applicationId: req.params.applicationId,
    });
    sendResult(res, result);
  });

  router.post('/applications/:applicationId/match', async (req, res) => {
    const result = await matchApplication(ctx, {
      partnerId: partnerOf(res).partnerId,
      applicationId: req.params.applicationId,
    });
    sendResult(res, result);
  });

  // The consent wording partners show applicants, by version; a check names the one it showed.
  router.get('/consents', (_req, res) => sendResult(res, listConsentTexts()));

  // Referrals and their report, and webhooks: the same routes on both front-ends.
  router.use(referralRoutes(ctx));
  router.use(webhookRoutes(ctx));

  return router;
}

/** `GET /r/<token>`: the applicant's browser follows an offer's tracking URL; no partner key here. */
function trackingRoutes({ ctx }: PartnerADeps): Router {
  const router = Router();
  router.get('/r/:token', async (req, res) => {
    const result = await followTrackingLink(ctx, { token: req.params.token });
    if (!result.ok) return sendResult(res, result);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.redirect(302, result.value.location);
  });
  return router;
}
