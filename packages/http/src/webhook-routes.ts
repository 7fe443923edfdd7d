import { Router, type Response } from 'express';
import {
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  registerWebhook,
  rotateWebhookSecret,
  sendTestEvent,
  type AuthenticatedPartner,
  type DomainContext,
} from '@loanmatch/domain';
import { sendResult } from './errors';

const partnerIdOf = (res: Response): string => (res.locals.partner as AuthenticatedPartner).partnerId;

/**
 * Webhook registration (CONTRACT.md "Webhooks"), the same on both front-ends: each mounts it behind its
 * own authentication, which leaves the partner in `res.locals.partner`.
 */
export function webhookRoutes(ctx: DomainContext): Router {
  const router = Router();

  router.post('/webhooks', async (req, res) => {
    const result = await registerWebhook(ctx, { partnerId: partnerIdOf(res), body: req.body });
    res.setHeader('Cache-Control', 'no-store'); // the answer holds the signing secret
    sendResult(res, result, 201);
  });

  router.get('/webhooks', async (_req, res) => {
    sendResult(res, await listWebhooks(ctx, { partnerId: partnerIdOf(res) }));
  });

  router.delete('/webhooks/:webhookId', async (req, res) => {
    sendResult(res, await deleteWebhook(ctx, { partnerId: partnerIdOf(res), webhookId: req.params.webhookId }));
  });

  router.post('/webhooks/:webhookId/rotate-secret', async (req, res) => {
    const result = await rotateWebhookSecret(ctx, { partnerId: partnerIdOf(res), webhookId: req.params.webhookId });
    res.setHeader('Cache-Control', 'no-store');
    sendResult(res, result);
  });

  router.post('/webhooks/:webhookId/test', async (req, res) => {
    sendResult(res, await sendTestEvent(ctx, { partnerId: partnerIdOf(res), webhookId: req.params.webhookId }));
  });

  router.get('/webhooks/:webhookId/deliveries', async (req, res) => {
    const limit = (req.query as Record<string, unknown>).limit;
    const result = await listWebhookDeliveries(ctx, {
      partnerId: partnerIdOf(res),
      webhookId: req.params.webhookId,
      limit: typeof limit === 'string' ? limit : undefined,
    });
    sendResult(res, result);
  });

  return router;
}
