/**
 * The operators' API at /admin/v1, behind `Authorization: Bearer <ADMIN_TOKEN>`, bound to loopback
 * by default and answering loopback callers only unless ADMIN_ALLOW_REMOTE=on. Same envelope and error
 * body as Variant A. The listener also serves `GET /metrics` and the operator console (`/admin/console`).
 */
import { Router, type Express, type RequestHandler } from 'express';
import {
  createPartner,
  erasePersonalData,
  getApplicationConsents,
  getDataKeyStatus,
  reencryptPersonalData,
  getCatalogueSummary,
  issueApiKey,
  listPartners,
  listTiers,
  putCatalogue,
  revokeKey,
  secretsEqual,
  setTierLimit,
  TIERS,
  type DomainContext,
} from '@loanmatch/domain';
import {
  BODY_BOUNDS,
  bearer,
  createServiceApp,
  jsonBody,
  metricsRoutes,
  sendData,
  sendError,
  sendResult,
  type HttpMetrics,
  type Logger,
  type MetricsSource,
  type TierUsage,
  type UsageReport,
} from '@loanmatch/http';
import { consoleRoutes } from './console';
import { lifecycleRoutes } from './lifecycle-routes';
import { loopbackOnly } from './loopback';

export const BASE_PATH_ADMIN = '/admin/v1';

export interface AdminDeps {
  ctx: DomainContext;
  logger: Logger;
  ping: () => Promise<boolean>;
  adminToken: string;
  /**
   * The domain for long operator work (catalogue loads, the data key's status and re-encryption): the
   * same, over connections whose statements may run longer than a request's. `ctx` when absent.
   */
  jobs?: DomainContext;
  /** This process's metrics: served at `GET /metrics`, and fed with the admin listener's requests. */
  metrics?: HttpMetrics & MetricsSource;
  /** When set, `GET /metrics` wants `Authorization: Bearer <METRICS_TOKEN>`; otherwise it is open. */
  metricsToken?: string;
  /** Variant B's requests and refusals per tier (`GET /admin/v1/usage`, the console). */
  usage?: TierUsage;
  /** ADMIN_ALLOW_REMOTE: answer callers outside loopback too. Off (default), they get 403 FORBIDDEN. */
  allowRemote?: boolean;
}

export function createAdminApp(deps: AdminDeps): Express {
  const metrics = deps.metrics ? [{ router: metricsRoutes(deps.metrics, deps.metricsToken) }] : [];
  return createServiceApp({
    contract: 'admin',
    logger: deps.logger,
    ping: deps.ping,
    metrics: deps.metrics,
    // The loopback guard comes first: everything after it (metrics, console, API, unknown paths) is
    // refused to remote callers; only the health checks before it answer anyone.
    routes: [
      { router: Router().use(loopbackOnly(deps.allowRemote ?? false)) },
      ...metrics,
      { router: consoleRoutes() },
      { path: BASE_PATH_ADMIN, router: adminRoutes(deps) },
    ],
  });
}

function requireAdminToken(token: string): RequestHandler {
  return (req, res, next) => {
    const given = bearer(req.get('Authorization'));
    if (given === undefined || !secretsEqual(given, token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendError(
        res,
        'UNAUTHORIZED',
        'A valid admin token is required: send Authorization: Bearer <ADMIN_TOKEN>',
      );
    }
    next();
  };
}

function adminRoutes({ ctx, adminToken, usage, jobs = ctx }: AdminDeps): Router {
  const router = Router();
  router.use(requireAdminToken(adminToken));
  // A catalogue of thousands of products is far larger than any other body: bounds of its own.
  router.put('/catalogue', jsonBody(BODY_BOUNDS.catalogue), async (req, res) =>
    sendResult(res, await putCatalogue(jobs, { document: req.body })),
  );
  router.get('/catalogue', async (_req, res) => sendResult(res, await getCatalogueSummary(ctx)));
  router.use(jsonBody(BODY_BOUNDS.admin));

  router.post('/partners', async (req, res) => sendResult(res, await createPartner(ctx, { body: req.body }), 201));
  router.get('/partners', async (_req, res) => sendResult(res, await listPartners(ctx)));
  router.post('/partners/:partnerId/keys', async (req, res) =>
    sendResult(res, await issueApiKey(ctx, { partnerId: req.params.partnerId }), 201),
  );
  // A partner key or a lender key, whichever the id names.
  router.delete('/keys/:keyId', async (req, res) => sendResult(res, await revokeKey(ctx, { keyId: req.params.keyId })));
  router.use(lifecycleRoutes(ctx));
  // Variant B's hourly limits: stored in the database, read by every process within seconds.
  router.get('/tiers', async (_req, res) => sendResult(res, await listTiers(ctx)));
  router.put('/tiers/:tier', async (req, res) =>
    sendResult(res, await setTierLimit(ctx, { tier: req.params.tier, body: req.body })),
  );
  // Personal data (docs/adr/0099): erasure, and moving rows to the current data key.
  router.delete('/applications/:applicationId/personal-data', async (req, res) =>
    sendResult(res, await erasePersonalData(ctx, { applicationId: req.params.applicationId })),
  );
  // Consent records: what the applicant agreed to, which wording, when, through which partner.
  router.get('/applications/:applicationId/consents', async (req, res) =>
    sendResult(res, await getApplicationConsents(ctx, { applicationId: req.params.applicationId })),
  );
  router.get('/data-key', async (_req, res) => sendResult(res, await getDataKeyStatus(jobs)));
  router.post('/data-key/re-encrypt', async (_req, res) => sendResult(res, await reencryptPersonalData(jobs)));
  // Variant B's requests and refusals per tier over the last hour, for the operator console.
  if (usage) {
    router.get('/usage', async (_req, res) => {
      const report = await usage.lastHour().catch(() => undefined);
      if (!report)
        return sendError(
          res,
          'SERVICE_UNAVAILABLE',
          'The request counts are kept in Redis, which is not reachable; retry',
        );
      sendData(res, 200, usageView(report, ctx.clock()));
    });
  }
  return router;
}

/** `GET /admin/v1/usage`: every tier, in the order free, standard, enterprise, with its counts of the last hour. */
function usageView(report: UsageReport, now: Date) {
  const names = [...TIERS, ...[...report.tiers.keys()].filter((t) => !(TIERS as readonly string[]).includes(t))];
  return {
    since: report.since.toISOString(),
    until: now.toISOString(),
    shared: report.shared,
    tiers: names.map((tier) => ({
      tier,
      requests: report.tiers.get(tier)?.requests ?? 0,
      refused: report.tiers.get(tier)?.refused ?? 0,
    })),
  };
}
