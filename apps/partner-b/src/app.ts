/**
 * Variant B: the token-exchange contract, at /v1. A partner exchanges its API key
 * (`X-API-Key`) for a 15-minute JWT, then sends `Authorization: Bearer <access token>`; PATCH, credit
 * check and match bodies carry the application's `securityToken`. Same domain, envelope, errors, request ids
 * and logs as Variant A; routes parse, call one domain function, and render.
 */
import { Router, type Express, type RequestHandler, type Response } from 'express';
import type { Redis } from 'ioredis';
import {
  SECURITY_TOKEN_REPLAY_PURPOSE,
  createApplicationB,
  createSecretBox,
  createTierLimits,
  listConsentTexts,
  runCreditCheckB,
  validateTokenRequest,
  type AuthenticatedPartner,
  type DomainContext,
  type SecretBox,
  type TierLimits,
  matchApplicationB,
  updateApplicationB,
} from '@loanmatch/domain';
import {
  createAccessTokens,
  createRateLimiter,
  BODY_BOUNDS,
  jsonBody,
  requireAccessToken,
  requireApiKeyHeader,
  sendData,
  sendResult,
  type AccessTokens,
  type HttpMetrics,
  type Logger,
  type TierUsage,
  webhookRoutes,
  referralRoutes,
  createServiceApp,
  docsRoutes,
  variantBDocument,
} from '@loanmatch/http';

export const BASE_PATH_B = '/v1';
/** The listener's address when none is given: its default port on loopback. */
export const DEFAULT_PUBLIC_URL_B = 'http://127.0.0.1:3001';
/** Variant B's rate window: limits are per partner per hour. */
const HOUR_MS = 60 * 60 * 1000;

export interface PartnerBDeps {
  ctx: DomainContext;
  logger: Logger;
  ping: () => Promise<boolean>;
  /** The secret that signs access tokens, and earlier ones still accepted (rotation), newest first. */
  jwt: { secret: string; previousSecrets?: readonly string[] };
  /** The tier → hourly limit map; by default read from the database through a two-second cache. */
  tierLimits?: TierLimits;
  redis?: Redis;
  redisPrefix?: string;
  /** Request durations and rate-limit refusals, for `GET /metrics`. */
  metrics?: HttpMetrics;
  /** Counts each request the limiter sees, and each it refuses, per tier (the operator console). */
  usage?: TierUsage;
  /** This listener's public address (PUBLIC_BASE_URL_B), the server of its OpenAPI document. */
  publicBaseUrl?: string;
}

const partnerOf = (res: Response): AuthenticatedPartner => res.locals.partner;

/** The `iss` and `aud` of this server's access tokens: a sandbox token is no live token. */
export const jwtIssuer = (env: string): string => `loanmatch/${env}`;
export const JWT_AUDIENCE = 'loanmatch/partner-api-b';

export function createPartnerBApp(deps: PartnerBDeps): Express {
  return createServiceApp({
    contract: 'B',
    logger: deps.logger,
    ping: deps.ping,
    metrics: deps.metrics,
    routes: [
      { path: BASE_PATH_B, router: partnerRoutes(deps) },
      {
        router: docsRoutes(
          variantBDocument({
            basePath: BASE_PATH_B,
            publicUrl: deps.publicBaseUrl ?? DEFAULT_PUBLIC_URL_B,
            environment: deps.ctx.env,
          }),
        ),
      },
    ],
  });
}

function partnerRoutes(deps: PartnerBDeps): Router {
  const { ctx } = deps;
  const tokens: AccessTokens = createAccessTokens({
    secret: deps.jwt.secret,
    previousSecrets: deps.jwt.previousSecrets,
    issuer: jwtIssuer(ctx.env),
    audience: JWT_AUDIENCE,
  });
  const secretBox = createSecretBox(
    [deps.jwt.secret, ...(deps.jwt.previousSecrets ?? [])],
    SECURITY_TOKEN_REPLAY_PURPOSE,
  );
  const tierLimits = deps.tierLimits ?? createTierLimits(ctx.db);
  const { usage } = deps;
  // One counter per partner for every Variant B request, token exchanges included.
  const limiter = createRateLimiter({
    name: 'b',
    windowMs: HOUR_MS,
    limit: (_partnerId, res) => tierLimits.perHour(partnerOf(res).tier),
    policy: (res) => partnerOf(res).tier,
    keyOf: (res) => partnerOf(res).partnerId,
    redis: deps.redis,
    redisPrefix: deps.redisPrefix,
    logger: deps.logger,
    metrics: deps.metrics,
    onRefused: usage && ((res) => usage.record(partnerOf(res).tier, true)),
  });
  const rateLimit: RequestHandler = usage
    ? (req, res, next) =>
        limiter(req, res, (err?: unknown) => {
          if (err === undefined) usage.record(partnerOf(res).tier, false);
          next(err);
        })
    : limiter;

  const router = Router();
  router.use('/auth', tokenRoutes(ctx, tokens, rateLimit));
  router.use(applicationRoutes(ctx, tokens, rateLimit, secretBox));
  return router;
}

function tokenRoutes(ctx: DomainContext, tokens: AccessTokens, rateLimit: RequestHandler): Router {
  const router = Router();
  router.post('/token', requireApiKeyHeader(ctx), rateLimit, jsonBody(BODY_BOUNDS.partner), (req, res) => {
    const grant = validateTokenRequest(req.body);
    if (!grant.ok) return sendResult(res, grant);
    res.setHeader('Cache-Control', 'no-store');
    sendData(res, 200, tokens.issue(partnerOf(res)));
  });
  return router;
}

function applicationRoutes(
  ctx: DomainContext,
  tokens: AccessTokens,
  rateLimit: RequestHandler,
  secretBox: SecretBox,
): Router {
  const router = Router();
  router.use(requireAccessToken(ctx, tokens), rateLimit, jsonBody(BODY_BOUNDS.partner));

  router.post('/applications', async (req, res) => {
    const result = await createApplicationB(ctx, {
      partnerId: partnerOf(res).partnerId,
      body: req.body,
      idempotencyKey: req.get('Idempotency-Key'),
      secretBox,
    });
    res.setHeader('Cache-Control', 'no-store'); // the answer holds the security token
    sendResult(res, result, 201);
  });

  router.post('/applications/:applicationId/credit-check', async (req, res) => {
    const result = await runCreditCheckB(ctx, {
      partnerId: partnerOf(res).partnerId,
      applicationId: req.params.applicationId,
      body: req.body,
      idempotencyKey: req.get('Idempotency-Key'),
      sandboxScore: req.get('X-Sandbox-Score'),
    });
    sendResult(res, result);
  });

  router.patch('/applications/:applicationId', async (req, res) => {
    const result = await updateApplicationB(ctx, {
      partnerId: partnerOf(res).partnerId,
      applicationId: req.params.applicationId,
      body: req.body,
    });
    sendResult(res, result);
  });

  router.post('/applications/:applicationId/match', async (req, res) => {
    const result = await matchApplicationB(ctx, {
      partnerId: partnerOf(res).partnerId,
      applicationId: req.params.applicationId,
      body: req.body,
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
