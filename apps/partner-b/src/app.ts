/**
 * Variant B at /v1: a partner exchanges its API key (`X-API-Key`) for a 15-minute JWT, then sends
 * `Authorization: Bearer <access token>`; PATCH, credit check and match bodies carry the `securityToken`.
 */
import { Router, type Express, type RequestHandler } from 'express';
import {
  SECURITY_TOKEN_REPLAY_PURPOSE,
  createApplicationB,
  createSecretBox,
  createTierLimits,
  issueSecurityToken,
  listConsentTexts,
  matchApplicationB,
  runCreditCheckB,
  updateApplicationB,
  validateTokenRequest,
  type TierLimits,
} from '@loanmatch/domain';
import {
  BODY_BOUNDS,
  applicationTarget,
  createAccessTokens,
  createPartnerApp,
  creditCheckInput,
  createRateLimiter,
  jsonBody,
  partnerOf,
  referralRoutes,
  requireAccessToken,
  requireApiKeyHeader,
  sendData,
  sendResult,
  variantBDocument,
  webhookRoutes,
  type PartnerAppDeps,
  type TierUsage,
} from '@loanmatch/http';

export const BASE_PATH_B = '/v1';

export interface PartnerBDeps extends PartnerAppDeps {
  /** The secret that signs access tokens, and earlier ones still accepted (rotation), newest first. */
  jwt: { secret: string; previousSecrets?: readonly string[] };
  /** The tier → hourly limit map; by default read from the database through a two-second cache. */
  tierLimits?: TierLimits;
  /** Counts each request the limiter sees, and each it refuses, per tier (the operator console). */
  usage?: TierUsage;
  /** The server of its OpenAPI document; its default port on loopback by default. */
  publicBaseUrl?: string;
}

/** The `iss` and `aud` of this server's access tokens: a sandbox token is no live token. */
export const jwtIssuer = (env: string): string => `loanmatch/${env}`;
export const JWT_AUDIENCE = 'loanmatch/partner-api-b';

export function createPartnerBApp(deps: PartnerBDeps): Express {
  return createPartnerApp(deps, {
    name: 'B',
    basePath: BASE_PATH_B,
    publicUrl: deps.publicBaseUrl ?? 'http://127.0.0.1:3001',
    document: variantBDocument,
    routes: (lifecycle) => [{ path: BASE_PATH_B, router: partnerRoutes(deps, lifecycle) }],
  });
}

/** Limits are per partner per hour, by tier; one counter for every request, token exchanges included. */
function hourlyLimit(deps: PartnerBDeps): RequestHandler[] {
  const { ctx, usage } = deps;
  const tierLimits = deps.tierLimits ?? createTierLimits(ctx.db);
  const limiter = createRateLimiter({
    ...deps,
    name: 'b',
    windowMs: 60 * 60 * 1000,
    limit: (_partnerId, res) => tierLimits.perHour(partnerOf(res).tier),
    policy: (res) => partnerOf(res).tier,
    keyOf: (res) => partnerOf(res).partnerId,
    onRefused: (res) => usage?.record(partnerOf(res).tier, true),
  });
  // Only a request the limiter let through reaches the second handler.
  return [
    limiter,
    (_req, res, next) => {
      usage?.record(partnerOf(res).tier, false);
      next();
    },
  ];
}

function partnerRoutes(deps: PartnerBDeps, lifecycle: RequestHandler): Router {
  const { ctx } = deps;
  const tokens = createAccessTokens({
    secret: deps.jwt.secret,
    previousSecrets: deps.jwt.previousSecrets,
    issuer: jwtIssuer(ctx.env),
    audience: JWT_AUDIENCE,
  });
  const secretBox = createSecretBox(
    [deps.jwt.secret, ...(deps.jwt.previousSecrets ?? [])],
    SECURITY_TOKEN_REPLAY_PURPOSE,
  );
  const rateLimit = hourlyLimit(deps);
  const router = Router();

  const tokenExchange = [requireApiKeyHeader(ctx), lifecycle, ...rateLimit, jsonBody(BODY_BOUNDS.partner)];
  router.post('/auth/token', ...tokenExchange, (req, res) => {
    const grant = validateTokenRequest(req.body);
    if (!grant.ok) return sendResult(res, grant);
    sendData(res, 200, tokens.issue(partnerOf(res)));
  });

  router.use(requireAccessToken(ctx, tokens), lifecycle, rateLimit, jsonBody(BODY_BOUNDS.partner));
  router.post('/applications', async (req, res) => {
    const input = { partnerId: partnerOf(res).partnerId, body: req.body, idempotencyKey: req.get('Idempotency-Key') };
    sendResult(res, await createApplicationB(ctx, { ...input, secretBox }), 201);
  });
  router.post('/applications/:applicationId/credit-check', async (req, res) =>
    sendResult(res, await runCreditCheckB(ctx, creditCheckInput(req, res))),
  );
  router.patch('/applications/:applicationId', async (req, res) =>
    sendResult(res, await updateApplicationB(ctx, applicationTarget(req, res))),
  );
  router.post('/applications/:applicationId/match', async (req, res) =>
    sendResult(res, await matchApplicationB(ctx, applicationTarget(req, res))),
  );
  // A new security token for any of the partner's applications, one made on Variant A included.
  router.post('/applications/:applicationId/security-token', async (req, res) =>
    sendResult(res, await issueSecurityToken(ctx, applicationTarget(req, res))),
  );
  router.get('/consents', (_req, res) => sendResult(res, listConsentTexts()));
  router.use(referralRoutes(ctx));
  router.use(webhookRoutes(ctx));
  return router;
}
