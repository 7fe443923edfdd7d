/**
 * What both partner front-ends share: the app around a contract's routes, and the routes both mount behind
 * their own authentication, which leaves the partner in `res.locals.partner`: webhook registration, and the
 * partner's referrals and referral report. And the lender's leads and webhook endpoints on the lender
 * route, behind its key (`res.locals.lender`).
 */
import { Router, type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Redis } from 'ioredis';
import {
  createContractLifecycles,
  deleteWebhook,
  getLead,
  lenderWebhookOwner,
  listLeads,
  listReferrals,
  listWebhookDeliveries,
  listWebhooks,
  referralReport,
  registerLenderWebhook,
  registerWebhook,
  reportCsv,
  rotateWebhookSecret,
  sendTestEvent,
  type AuthenticatedLender,
  type AuthenticatedPartner,
  type Contract,
  type ContractLifecycles,
  type DomainContext,
} from '@loanmatch/domain';
import { contractLifecycle, servedDocument, type ContractUsage } from './contract-lifecycle';
import { sendData, sendResult } from './errors';
import type { Logger } from './logger';
import type { HttpMetrics } from './metrics';
import { docsRoutes, type DocumentOptions, type Schema } from './openapi';
import { createServiceApp } from './service-app';

/** Who the authentication middleware let in. */
export const partnerOf = (res: Response): AuthenticatedPartner => res.locals.partner;
export const lenderOf = (res: Response): AuthenticatedLender => res.locals.lender;
const partnerIdOf = (res: Response): string => partnerOf(res).partnerId;

/** What both partner front-ends are given. */
export interface PartnerAppDeps {
  ctx: DomainContext;
  logger: Logger;
  ping: () => Promise<boolean>;
  redis?: Redis;
  redisPrefix?: string;
  /** Request durations and rate-limit refusals, for `GET /metrics`. */
  metrics?: HttpMetrics;
  /** The contracts' schedules and brownouts; by default read from the database through a two-second copy. */
  lifecycles?: ContractLifecycles;
  /** Counts each partner request on the contract, per partner and day. */
  contractUsage?: ContractUsage;
}

/**
 * A partner front-end: the contract's document and its page first (a guess at them under the base path
 * gets 404 naming them, not 401), then the contract's routers, given the middleware that counts each
 * partner request and tells it the contract's schedule (mounted after the partner's authentication).
 */
export function createPartnerApp(
  deps: PartnerAppDeps,
  contract: {
    name: Contract;
    basePath: string;
    publicUrl: string;
    document: (options: DocumentOptions) => Schema;
    routes: (lifecycle: RequestHandler) => Parameters<typeof createServiceApp>[0]['routes'];
  },
): Express {
  const { name, basePath } = contract;
  const lifecycles = deps.lifecycles ?? createContractLifecycles(deps.ctx.db);
  const document = contract.document({ basePath, publicUrl: contract.publicUrl, environment: deps.ctx.env });
  return createServiceApp({
    contract: name,
    logger: deps.logger,
    ping: deps.ping,
    metrics: deps.metrics,
    routes: [
      { router: docsRoutes(servedDocument(document, name, lifecycles), basePath) },
      ...contract.routes(contractLifecycle(name, lifecycles, deps.contractUsage)),
    ],
  });
}

/** The partner asking, the application the path names, and the body. */
export const applicationTarget = (req: Request<{ applicationId: string }>, res: Response) => ({
  partnerId: partnerIdOf(res),
  applicationId: req.params.applicationId,
  body: req.body,
});

/** A credit check's input: its target, `Idempotency-Key` and `X-Sandbox-Score`. */
export const creditCheckInput = (req: Request<{ applicationId: string }>, res: Response) => ({
  ...applicationTarget(req, res),
  idempotencyKey: req.get('Idempotency-Key'),
  sandboxScore: req.get('X-Sandbox-Score'),
});

/** A query parameter as the domain takes it: a repeated one (`?from=a&from=b`) is no value it accepts. */
export function queryValue(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  return value === undefined ? undefined : typeof value === 'string' ? value : '';
}

/** `GET /webhooks` and `DELETE /webhooks/{webhookId}` of the endpoints' owner: a partner or a lender. */
function ownWebhookRoutes(ctx: DomainContext, ownerOf: (res: Response) => Parameters<typeof listWebhooks>[1]) {
  const router = Router();
  router.get('/webhooks', async (_req, res) => {
    sendResult(res, await listWebhooks(ctx, ownerOf(res)));
  });
  router.delete('/webhooks/:webhookId', async (req, res) => {
    sendResult(res, await deleteWebhook(ctx, { ...ownerOf(res), webhookId: req.params.webhookId }));
  });
  return router;
}

export function webhookRoutes(ctx: DomainContext): Router {
  const router = ownWebhookRoutes(ctx, (res) => ({ partnerId: partnerIdOf(res) }));
  const target = (req: Request<{ webhookId: string }>, res: Response) => ({
    partnerId: partnerIdOf(res),
    webhookId: req.params.webhookId,
  });
  router.post('/webhooks', async (req, res) => {
    sendResult(res, await registerWebhook(ctx, { partnerId: partnerIdOf(res), body: req.body }), 201);
  });
  router.post('/webhooks/:webhookId/rotate-secret', async (req, res) => {
    sendResult(res, await rotateWebhookSecret(ctx, target(req, res)));
  });
  router.post('/webhooks/:webhookId/test', async (req, res) => {
    sendResult(res, await sendTestEvent(ctx, target(req, res)));
  });
  router.get('/webhooks/:webhookId/deliveries', async (req, res) => {
    const limit = (req.query as Record<string, unknown>).limit;
    const query = { ...target(req, res), limit: typeof limit === 'string' ? limit : undefined };
    sendResult(res, await listWebhookDeliveries(ctx, query));
  });
  return router;
}

export function leadRoutes(ctx: DomainContext): Router {
  const router = ownWebhookRoutes(ctx, (res) => lenderWebhookOwner(lenderOf(res)));
  router.get('/leads', async (req, res) => {
    const [since, limit, cursor] = ['since', 'limit', 'cursor'].map((name) => queryValue(req, name));
    sendResult(res, await listLeads(ctx, { lender: lenderOf(res), since, limit, cursor }));
  });
  router.get('/leads/:reference', async (req, res) => {
    sendResult(res, await getLead(ctx, { lender: lenderOf(res), reference: req.params.reference }));
  });
  router.post('/webhooks', async (req, res) => {
    sendResult(res, await registerLenderWebhook(ctx, { lender: lenderOf(res), body: req.body }), 201);
  });
  return router;
}

export function referralRoutes(ctx: DomainContext): Router {
  const router = Router();
  router.get('/referrals', async (req, res) => {
    const query = { partnerId: partnerIdOf(res), limit: queryValue(req, 'limit'), cursor: queryValue(req, 'cursor') };
    sendResult(res, await listReferrals(ctx, query));
  });
  router.get('/reports/referrals', async (req, res) => {
    const result = await referralReport(ctx, {
      partnerId: partnerIdOf(res),
      query: { from: queryValue(req, 'from'), to: queryValue(req, 'to'), groupBy: queryValue(req, 'groupBy') },
    });
    if (!result.ok) return sendResult(res, result);
    const { window, report } = result.value;
    sendReport(req, res, { json: report, csv: () => reportCsv(report), name: `referrals_${window.from}_${window.to}` });
  });
  return router;
}

/** A report as JSON, or as a CSV download (`<name>.csv`) when the caller prefers text/csv. */
export function sendReport(req: Request, res: Response, report: { json: unknown; csv: () => string; name: string }) {
  res.setHeader('Vary', 'Accept');
  if (req.accepts('application/json', 'text/csv') !== 'text/csv') return sendData(res, 200, report.json);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${report.name}.csv"`);
  res.status(200).send(report.csv());
}
