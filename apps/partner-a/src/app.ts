/**
 * Variant A: the partner API at /api/partner/v1 (`Authorization: Bearer <API key>`), and the lender API
 * at /api/lender/v1, where lenders report outcomes with keys of their own.
 */
import { Router, type Express, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import {
  createApplication,
  createContractLifecycles,
  followTrackingLink,
  getApplication,
  listConsentTexts,
  matchApplication,
  recordOutcome,
  runCreditCheck,
  saveStep,
  type AuthenticatedLender,
  type AuthenticatedPartner,
  type ContractLifecycles,
  type DomainContext,
} from '@loanmatch/domain';
import {
  BODY_BOUNDS,
  LENDER_BASE_PATH,
  contractLifecycle,
  createRateLimiter,
  createServiceApp,
  docsRoutes,
  jsonBody,
  leadRoutes,
  referralRoutes,
  requireApiKey,
  requireLenderKey,
  sendResult,
  servedDocument,
  variantADocument,
  webhookRoutes,
  type ContractUsage,
  type HttpMetrics,
  type Logger,
} from '@loanmatch/http';

export const BASE_PATH_A = '/api/partner/v1';

export interface PartnerADeps {
  ctx: DomainContext;
  logger: Logger;
  ping: () => Promise<boolean>;
  /** Requests a minute per partner key, and per lender key on the lender API. */
  rateLimitPerMinute: number;
  redis?: Redis;
  redisPrefix?: string;
  /** Request durations and rate-limit refusals, for `GET /metrics`. */
  metrics?: HttpMetrics;
  /** The contracts' schedules and brownouts; by default read from the database through a two-second copy. */
  lifecycles?: ContractLifecycles;
  /** Counts each partner request on the contract, per partner and day. */
  contractUsage?: ContractUsage;
}

const partnerOf = (res: Response): AuthenticatedPartner => res.locals.partner;
const lenderOf = (res: Response): AuthenticatedLender => res.locals.lender;

export function createPartnerAApp(options: PartnerADeps): Express {
  const deps = { ...options, lifecycles: options.lifecycles ?? createContractLifecycles(options.ctx.db) };
  const document = variantADocument({
    basePath: BASE_PATH_A,
    publicUrl: deps.ctx.tracking.publicBaseUrl,
    environment: deps.ctx.env,
  });
  return createServiceApp({
    contract: 'A',
    logger: deps.logger,
    ping: deps.ping,
    metrics: deps.metrics,
    routes: [
      // The document and its page first: a guess at them under the base path gets 404 naming them, not 401.
      { router: docsRoutes(servedDocument(document, 'A', deps.lifecycles), BASE_PATH_A) },
      { path: BASE_PATH_A, router: partnerRoutes(deps) },
      { path: LENDER_BASE_PATH, router: lenderRoutes(deps) },
      { router: trackingRoutes(deps.ctx) },
    ],
  });
}

/** Counts each key's requests a minute: `keyOf` names the key. */
function perMinute(deps: PartnerADeps, name: string, keyOf: (res: Response) => string) {
  const { rateLimitPerMinute: limit, redis, redisPrefix, logger, metrics } = deps;
  return createRateLimiter({ name, limit, windowMs: 60_000, keyOf, redis, redisPrefix, logger, metrics });
}

function partnerRoutes(deps: PartnerADeps & { lifecycles: ContractLifecycles }): Router {
  const { ctx } = deps;
  const router = Router();
  router.use(
    requireApiKey(ctx),
    contractLifecycle('A', deps.lifecycles, deps.contractUsage),
    perMinute(deps, 'a', (res) => partnerOf(res).keyId),
    jsonBody(BODY_BOUNDS.partner),
  );
  /** The partner asking, the application the path names, and the body. */
  const target = (req: Request<{ applicationId: string }>, res: Response) => ({
    partnerId: partnerOf(res).partnerId,
    applicationId: req.params.applicationId,
    body: req.body,
  });

  router.post('/applications', async (req, res) => {
    const input = { partnerId: partnerOf(res).partnerId, body: req.body, idempotencyKey: req.get('Idempotency-Key') };
    sendResult(res, await createApplication(ctx, input), 201);
  });
  router.patch('/applications/:applicationId', async (req, res) =>
    sendResult(res, await saveStep(ctx, target(req, res))),
  );
  router.post('/applications/:applicationId/credit-check', async (req, res) => {
    const input = {
      ...target(req, res),
      idempotencyKey: req.get('Idempotency-Key'),
      sandboxScore: req.get('X-Sandbox-Score'),
    };
    sendResult(res, await runCreditCheck(ctx, input));
  });
  router.get('/applications/:applicationId', async (req, res) =>
    sendResult(res, await getApplication(ctx, target(req, res))),
  );
  router.post('/applications/:applicationId/match', async (req, res) =>
    sendResult(res, await matchApplication(ctx, target(req, res))),
  );
  router.get('/consents', (_req, res) => sendResult(res, listConsentTexts()));
  router.use(referralRoutes(ctx));
  router.use(webhookRoutes(ctx));
  return router;
}

/** `/api/lender/v1`: a lender reads its leads, registers endpoints for them, and reports what became of them. */
function lenderRoutes(deps: PartnerADeps): Router {
  const { ctx } = deps;
  const router = Router();
  router.use(
    requireLenderKey(ctx),
    perMinute(deps, 'lender', (res) => lenderOf(res).keyId),
    jsonBody(BODY_BOUNDS.partner),
  );
  router.post('/outcomes', async (req, res) =>
    sendResult(res, await recordOutcome(ctx, { lender: lenderOf(res), body: req.body }), 201),
  );
  router.use(leadRoutes(ctx));
  return router;
}

/** `GET /r/<token>`: the applicant's browser follows an offer's tracking URL; no partner key here. */
function trackingRoutes(ctx: DomainContext): Router {
  const router = Router();
  router.get('/r/:token', async (req, res) => {
    const result = await followTrackingLink(ctx, { token: req.params.token });
    if (!result.ok) return sendResult(res, result);
    res.redirect(302, result.value.location);
  });
  return router;
}
