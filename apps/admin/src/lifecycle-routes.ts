/**
 * The admin routes of the referral's life after the click (CONTRACT.md "Referral lifecycle"): lenders and
 * their keys. Mounted by the admin router behind the admin token; routes parse, call one domain function,
 * and render.
 */
import { Router } from 'express';
import { issueLenderKey, listLenders, type DomainContext } from '@loanmatch/domain';
import { sendResult } from '@loanmatch/http';

export function lifecycleRoutes(ctx: DomainContext): Router {
  const router = Router();
  router.get('/lenders', async (_req, res) => sendResult(res, await listLenders(ctx)));
  router.post('/lenders/:lenderId/keys', async (req, res) => {
    const result = await issueLenderKey(ctx, { lenderId: req.params.lenderId, body: req.body });
    res.setHeader('Cache-Control', 'no-store'); // the answer holds the key
    sendResult(res, result, 201);
  });
  return router;
}
