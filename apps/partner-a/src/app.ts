/**
 * Variant A: the partner API at /api/partner/v1 (`Authorization: Bearer <API key>`), and the lender API
 * at /api/lender/v1, where lenders report outcomes with keys of their own.
 */
import { Router, type Express, type RequestHandler, type Response } from 'express';
import {
  createApplication,
  followTrackingLink,
  getApplication,
  listConsentTexts,
  matchApplication,
  recordOutcome,
  runCreditCheck,
  saveStep,
  type DomainContext,
} from '@loanmatch/domain';
import {
  BODY_BOUNDS,
  applicationTarget,
  LENDER_BASE_PATH,
  createPartnerApp,
  creditCheckInput,
  createRateLimiter,
  jsonBody,
  partnerOf,
  leadRoutes,
  lenderOf,
  referralRoutes,
  requireApiKey,
  requireLenderKey,
  sendResult,
  variantADocument,
  webhookRoutes,
  type PartnerAppDeps,
} from '@loanmatch/http';

export const BASE_PATH_A = '/api/partner/v1';

export interface PartnerADeps extends PartnerAppDeps {
  /** Requests a minute per partner key, and per lender key on the lender API. */
  rateLimitPerMinute: number;
}

export function createPartnerAApp(deps: PartnerADeps): Express {
  return createPartnerApp(deps, {
    name: 'A',
    basePath: BASE_PATH_A,
    publicUrl: deps.ctx.tracking.publicBaseUrl,
    document: variantADocument,
    routes: (lifecycle) => [
      { path: BASE_PATH_A, router: partnerRoutes(deps, lifecycle) },
      { path: LENDER_BASE_PATH, router: lenderRoutes(deps) },
      { router: trackingRoutes(deps.ctx) },
    ],
  });
}

/** Counts each key's requests a minute: `keyOf` names the key. */
function perMinute(deps: PartnerADeps, name: string, keyOf: (res: Response) => string) {
  return createRateLimiter({ ...deps, name, limit: deps.rateLimitPerMinute, windowMs: 60_000, keyOf });
}

function partnerRoutes(deps: PartnerADeps, lifecycle: RequestHandler): Router {
  const { ctx } = deps;
  const router = Router();
  router.use(
    requireApiKey(ctx),
    lifecycle,
    perMinute(deps, 'a', (res) => partnerOf(res).keyId),
    jsonBody(BODY_BOUNDS.partner),
  );

  router.post('/applications', async (req, res) => {
    const input = { partnerId: partnerOf(res).partnerId, body: req.body, idempotencyKey: req.get('Idempotency-Key') };
    sendResult(res, await createApplication(ctx, input), 201);
  });
  router.patch('/applications/:applicationId', async (req, res) =>
    sendResult(res, await saveStep(ctx, applicationTarget(req, res))),
  );
  router.post('/applications/:applicationId/credit-check', async (req, res) =>
    sendResult(res, await runCreditCheck(ctx, creditCheckInput(req, res))),
  );
  router.get('/applications/:applicationId', async (req, res) =>
    sendResult(res, await getApplication(ctx, applicationTarget(req, res))),
  );
  router.post('/applications/:applicationId/match', async (req, res) =>
    sendResult(res, await matchApplication(ctx, applicationTarget(req, res))),
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
    const result = await followTrackingLink(ctx, { token: req.params.token, head: req.method === 'HEAD' });
    if (!result.ok) return sendResult(res, result);
    res.redirect(302, result.value.location);
  });
  return router;
}
