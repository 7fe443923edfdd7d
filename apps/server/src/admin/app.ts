/**
 * The operators' API at /admin/v1, behind `Authorization: Bearer <ADMIN_TOKEN>`, for loopback callers
 * unless ADMIN_ALLOW_REMOTE=on. The listener also serves `GET /metrics` and the console (`/admin/console`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Express, type Request, type RequestHandler } from 'express';
import {
  cancelBrownout,
  clearContractLifecycle,
  contractUsageCsv,
  contractUsageReport,
  createPartner,
  erasePersonalData,
  getApplicationConsents,
  getApplicationDisclosures,
  getCatalogueSummary,
  getDataKeyStatus,
  issueApiKey,
  issueLenderKey,
  listLenders,
  listBrownouts,
  listContracts,
  listPartners,
  listTiers,
  operatorFunnel,
  operatorFunnelByLender,
  operatorFunnelByPartner,
  putCatalogue,
  reencryptPersonalData,
  revokeKey,
  scheduleBrownout,
  secretsEqual,
  setContractLifecycle,
  setTierLimit,
  showLead,
  simulateOutcome,
  TIERS,
  type DomainContext,
  type Result,
} from '@loanmatch/domain';
import {
  BODY_BOUNDS,
  bearer,
  classifyAddress,
  createServiceApp,
  jsonBody,
  metricsRoutes,
  queryValue,
  sendData,
  sendError,
  sendReport,
  sendResult,
  type HttpMetrics,
  type Logger,
  type MetricsSource,
  type TierUsage,
  type UsageReport,
} from '@loanmatch/http';

export interface AdminDeps {
  ctx: DomainContext;
  logger: Logger;
  ping: () => Promise<boolean>;
  adminToken: string;
  /** For long operator work (catalogue loads, the data key): statements may run longer. `ctx` when absent. */
  jobs?: DomainContext;
  /** Served at `GET /metrics` (behind METRICS_TOKEN when set), and fed with this listener's requests. */
  metrics?: HttpMetrics & MetricsSource;
  metricsToken?: string;
  /** Variant B's requests and refusals per tier (`GET /admin/v1/usage`, the console). */
  usage?: TierUsage;
  allowRemote?: boolean;
}

export function createAdminApp(deps: AdminDeps): Express {
  const metrics = deps.metrics ? [{ router: metricsRoutes(deps.metrics, deps.metricsToken) }] : [];
  return createServiceApp({
    contract: 'admin',
    logger: deps.logger,
    ping: deps.ping,
    metrics: deps.metrics,
    // The loopback guard first: only the health checks before it answer remote callers.
    routes: [
      { router: Router().use(loopbackOnly(deps.allowRemote ?? false)) },
      ...metrics,
      { router: consoleRoutes() },
      { path: '/admin/v1', router: adminRoutes(deps) },
    ],
  });
}

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (how a dual-stack socket reports an IPv4 caller). */
export const isLoopbackAddress = (address: string | undefined): boolean =>
  address !== undefined && classifyAddress(address).class === 'loopback';

/**
 * Refuses callers outside loopback with 403 FORBIDDEN, unless `allowRemote` (ADMIN_ALLOW_REMOTE=on): the
 * admin listener is for operators on the machine, even when ADMIN_HOST binds a public interface. It
 * judges the socket's own peer address, never X-Forwarded-For, which any caller can write; a reverse
 * proxy on the same machine is a loopback caller, so it must do its own access control.
 */
function loopbackOnly(allowRemote: boolean): RequestHandler {
  return (req, res, next) => {
    if (allowRemote || isLoopbackAddress(req.socket.remoteAddress)) return next();
    sendError(
      res,
      'FORBIDDEN',
      'The admin API answers callers on this machine only (loopback); set ADMIN_ALLOW_REMOTE=on to allow others',
    );
  };
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

const reportQuery = (req: Request) => ({
  query: { from: queryValue(req, 'from'), to: queryValue(req, 'to'), partnerId: queryValue(req, 'partnerId') },
});

type Params = Record<string, string>;

function adminRoutes({ ctx, adminToken, usage, jobs = ctx }: AdminDeps): Router {
  const router = Router();
  /** A route that answers the result of one domain call, with `status` when it succeeds. */
  const on = (
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    status: number,
    run: (req: Request<Params>) => Promise<Result<unknown>>,
  ) => router[method](path, async (req, res) => sendResult(res, await run(req as Request<Params>), status));

  router.use(requireAdminToken(adminToken));
  // A catalogue of thousands of products is far larger than any other body: bounds of its own.
  router.put('/catalogue', jsonBody(BODY_BOUNDS.catalogue), async (req, res) =>
    sendResult(res, await putCatalogue(jobs, { document: req.body })),
  );
  on('get', '/catalogue', 200, () => getCatalogueSummary(ctx));
  router.use(jsonBody(BODY_BOUNDS.admin));

  on('post', '/partners', 201, (req) => createPartner(ctx, { body: req.body }));
  on('get', '/partners', 200, () => listPartners(ctx));
  on('post', '/partners/:partnerId/keys', 201, (req) => issueApiKey(ctx, { partnerId: req.params.partnerId }));
  // A partner key or a lender key, whichever the id names.
  on('delete', '/keys/:keyId', 200, (req) => revokeKey(ctx, { keyId: req.params.keyId }));
  on('get', '/lenders', 200, () => listLenders(ctx));
  on('post', '/lenders/:lenderId/keys', 201, (req) =>
    issueLenderKey(ctx, { lenderId: req.params.lenderId, body: req.body }),
  );
  // Sandbox: a lender's outcome, as the referral's own lender would report it, for partners to test against.
  on('post', '/sandbox/outcomes', 201, (req) => simulateOutcome(ctx, { body: req.body }));
  on('get', '/reports/funnel', 200, (req) => operatorFunnel(ctx, reportQuery(req)));
  on('get', '/reports/funnel/partners', 200, (req) => operatorFunnelByPartner(ctx, reportQuery(req)));
  on('get', '/reports/funnel/lenders', 200, (req) => operatorFunnelByLender(ctx, reportQuery(req)));
  // Variant B's hourly limits: stored in the database, read by every process within seconds.
  on('get', '/tiers', 200, () => listTiers(ctx));
  on('put', '/tiers/:tier', 200, (req) => setTierLimit(ctx, { tier: req.params.tier, body: req.body }));
  // Personal data (docs/adr/0099): erasure, the consent records, and moving rows to the current data key.
  on('delete', '/applications/:applicationId/personal-data', 200, (req) =>
    erasePersonalData(ctx, { applicationId: req.params.applicationId }),
  );
  on('get', '/applications/:applicationId/consents', 200, (req) =>
    getApplicationConsents(ctx, { applicationId: req.params.applicationId }),
  );
  on('get', '/applications/:applicationId/disclosures', 200, (req) =>
    getApplicationDisclosures(ctx, { applicationId: req.params.applicationId }),
  );
  on('get', '/leads/:reference', 200, (req) => showLead(ctx, { reference: req.params.reference }));
  // Retiring a contract: its schedule for every partner or one, brownouts, and who still calls it.
  on('get', '/contracts', 200, () => listContracts(ctx));
  const scheduleOf = (req: Request<Params>) => ({ contract: req.params.contract, partnerId: req.params.partnerId });
  for (const scope of ['', '/partners/:partnerId']) {
    on('put', `${scope}/contracts/:contract/lifecycle`, 200, (req) =>
      setContractLifecycle(ctx, { ...scheduleOf(req), body: req.body }),
    );
    on('delete', `${scope}/contracts/:contract/lifecycle`, 200, (req) =>
      clearContractLifecycle(ctx, { ...scheduleOf(req), force: queryValue(req, 'force') === 'true' }),
    );
  }
  on('post', '/contracts/:contract/brownouts', 201, (req) =>
    scheduleBrownout(ctx, { contract: req.params.contract, body: req.body }),
  );
  on('get', '/contracts/:contract/brownouts', 200, (req) => listBrownouts(ctx, { contract: req.params.contract }));
  on('delete', '/contracts/:contract/brownouts/:brownoutId', 200, (req) =>
    cancelBrownout(ctx, { contract: req.params.contract, brownoutId: req.params.brownoutId }),
  );
  router.get('/reports/contract-usage', async (req, res) => {
    const result = await contractUsageReport(ctx, reportQuery(req));
    if (!result.ok) return sendResult(res, result);
    const { window, rows } = result.value;
    const name = `contract-usage_${window.from}_${window.to}`;
    sendReport(req, res, { json: result.value, csv: () => contractUsageCsv(rows), name });
  });
  on('get', '/data-key', 200, () => getDataKeyStatus(jobs));
  on('post', '/data-key/re-encrypt', 200, () => reencryptPersonalData(jobs));
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
  const names = [...new Set([...TIERS, ...report.tiers.keys()])];
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

const CONSOLE_PATH = '/admin/console';

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const FILES = [
  { path: '', file: 'console.html', type: 'text/html; charset=utf-8' },
  { path: '/console.js', file: 'console.js', type: 'text/javascript; charset=utf-8' },
  { path: '/console.css', file: 'console.css', type: 'text/css; charset=utf-8' },
  { path: '/icon.svg', file: 'icon.svg', type: 'image/svg+xml' },
];

/**
 * The operator console at `GET /admin/console`: static files read once at start, holding no data. The
 * script sends the admin token in a header, never a cookie, so other sites cannot use it; the
 * Content-Security-Policy allows only our own files and calls to this origin. The shell's security
 * headers (helmet) apply too; these set the page's own policy and let files be kept.
 */
function consoleRoutes(): Router {
  const router = Router();
  for (const { path, file, type } of FILES) {
    const body = readFileSync(join(__dirname, '..', '..', 'console', file));
    router.get(`${CONSOLE_PATH}${path}`, (_req, res) => {
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      res.setHeader('Cache-Control', 'no-cache');
      res.send(body);
    });
  }
  return router;
}
