/**
 * The operators' API at /admin/v1, behind `Authorization: Bearer <ADMIN_TOKEN>`, bound to loopback
 * by default. Same envelope and error body as Variant A.
 */
import { Router, type Express, type RequestHandler } from 'express';
import {
  createPartner,
  getCatalogueSummary,
  issueApiKey,
  listPartners,
  listTiers,
  putCatalogue,
  revokeApiKey,
  secretsEqual,
  setTierLimit,
  type DomainContext,
} from '@loanmatch/domain';
import { bearer, createServiceApp, jsonBody, sendError, sendResult, type Logger } from '@loanmatch/http';

export const BASE_PATH_ADMIN = '/admin/v1';

export interface AdminDeps {
  ctx: DomainContext;
  logger: Logger;
  ping: () => Promise<boolean>;
  adminToken: string;
}

export function createAdminApp(deps: AdminDeps): Express {
  return createServiceApp({ contract: 'admin', logger: deps.logger, ping: deps.ping, routes: [{ path: BASE_PATH_ADMIN, router: adminRoutes(deps) }] });
}

function requireAdminToken(token: string): RequestHandler {
  return (req, res, next) => {
    const given = bearer(req.get('Authorization'));
    if (given === undefined || !secretsEqual(given, token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendError(res, 'UNAUTHORIZED', 'A valid admin token is required: send Authorization: Bearer <ADMIN_TOKEN>');
    }
    next();
  };
}

function adminRoutes({ ctx, adminToken }: AdminDeps): Router {
  const router = Router();
  router.use(requireAdminToken(adminToken));
  // A catalogue of thousands of products is larger than a partner's request: 5 MB here, 1 MB elsewhere.
  router.put('/catalogue', ...jsonBody('5mb'), async (req, res) => sendResult(res, await putCatalogue(ctx, { document: req.body })));
  router.get('/catalogue', async (_req, res) => sendResult(res, await getCatalogueSummary(ctx)));
  router.use(jsonBody());

  router.post('/partners', async (req, res) => sendResult(res, await createPartner(ctx, { body: req.body }), 201));
  router.get('/partners', async (_req, res) => sendResult(res, await listPartners(ctx)));
  router.post('/partners/:partnerId/keys', async (req, res) => sendResult(res, await issueApiKey(ctx, { partnerId: req.params.partnerId }), 201));
  router.delete('/keys/:keyId', async (req, res) => sendResult(res, await revokeApiKey(ctx, { keyId: req.params.keyId })));
  // Variant B's hourly limits: stored in the database, read by every process within seconds.
  router.get('/tiers', async (_req, res) => sendResult(res, await listTiers(ctx)));
  router.put('/tiers/:tier', async (req, res) => sendResult(res, await setTierLimit(ctx, { tier: req.params.tier, body: req.body })));
  return router;
}
