/** The lender's leads and webhook endpoints on the lender route, behind its key (`res.locals.lender`). */
import { Router, type Response } from 'express';
import {
  deleteWebhook,
  getLead,
  lenderWebhookOwner,
  listLeads,
  listWebhooks,
  registerLenderWebhook,
  type AuthenticatedLender,
  type DomainContext,
} from '@loanmatch/domain';
import { sendResult } from './errors';
import { queryValue } from './partner-routes';

const lenderOf = (res: Response): AuthenticatedLender => res.locals.lender;

export function leadRoutes(ctx: DomainContext): Router {
  const router = Router();
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
  router.get('/webhooks', async (_req, res) => {
    sendResult(res, await listWebhooks(ctx, lenderWebhookOwner(lenderOf(res))));
  });
  router.delete('/webhooks/:webhookId', async (req, res) => {
    const target = { ...lenderWebhookOwner(lenderOf(res)), webhookId: req.params.webhookId };
    sendResult(res, await deleteWebhook(ctx, target));
  });
  return router;
}
