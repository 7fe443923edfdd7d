/**
 * The admin routes of the referral's life after the click (CONTRACT.md "Referral lifecycle"): lenders and
 * their keys, sandbox simulation of a lender's outcomes, and the funnel operators see (with, for the console's charts, the funnel per partner and per
 * lender). Mounted by the admin router behind the admin token; routes parse, call one domain function,
 * and render.
 */
import { Router, type Request } from 'express';
import {
  issueLenderKey,
  listLenders,
  operatorFunnel,
  operatorFunnelByLender,
  operatorFunnelByPartner,
  simulateOutcome,
  type DomainContext,
} from '@loanmatch/domain';
import { sendResult } from '@loanmatch/http';

/** A query parameter as the domain takes it: a repeated one is no value it accepts. */
const queryValue = (req: Request, name: string): string | undefined => {
  const value = (req.query as Record<string, unknown>)[name];
  return value === undefined ? undefined : typeof value === 'string' ? value : '';
};
const funnelQuery = (req: Request) => ({
  from: queryValue(req, 'from'),
  to: queryValue(req, 'to'),
  partnerId: queryValue(req, 'partnerId'),
});

export function lifecycleRoutes(ctx: DomainContext): Router {
  const router = Router();
  router.get('/lenders', async (_req, res) => sendResult(res, await listLenders(ctx)));
  router.post('/lenders/:lenderId/keys', async (req, res) => {
    const result = await issueLenderKey(ctx, { lenderId: req.params.lenderId, body: req.body });
    res.setHeader('Cache-Control', 'no-store'); // the answer holds the key
    sendResult(res, result, 201);
  });

  // Sandbox: a lender's outcome, as the referral's own lender would report it, for partners to test against.
  router.post('/sandbox/outcomes', async (req, res) =>
    sendResult(res, await simulateOutcome(ctx, { body: req.body }), 201),
  );

  router.get('/reports/funnel', async (req, res) =>
    sendResult(res, await operatorFunnel(ctx, { query: funnelQuery(req) })),
  );
  router.get('/reports/funnel/partners', async (req, res) =>
    sendResult(res, await operatorFunnelByPartner(ctx, { query: funnelQuery(req) })),
  );
  router.get('/reports/funnel/lenders', async (req, res) =>
    sendResult(res, await operatorFunnelByLender(ctx, { query: funnelQuery(req) })),
  );
  return router;
}
