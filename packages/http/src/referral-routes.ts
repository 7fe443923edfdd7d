import { Router, type Request, type Response } from 'express';
import {
  listReferrals,
  referralReport,
  reportCsv,
  type AuthenticatedPartner,
  type DomainContext,
} from '@loanmatch/domain';
import { sendData, sendResult } from './errors';

const partnerIdOf = (res: Response): string => (res.locals.partner as AuthenticatedPartner).partnerId;

/** A query parameter as the domain takes it: a repeated one (`?from=a&from=b`) is no value it accepts. */
const queryValue = (req: Request, name: string): string | undefined => {
  const value = (req.query as Record<string, unknown>)[name];
  return value === undefined ? undefined : typeof value === 'string' ? value : '';
};

/** The report as CSV when the caller asks for it (`Accept: text/csv`); JSON otherwise. */
const wantsCsv = (req: Request): boolean => req.accepts('application/json', 'text/csv') === 'text/csv';

/**
 * A partner's referrals and its referral report (CONTRACT.md "Referral lifecycle"), the same on both
 * front-ends: each mounts it behind its own authentication, which leaves the partner in `res.locals.partner`.
 */
export function referralRoutes(ctx: DomainContext): Router {
  const router = Router();

  router.get('/referrals', async (req, res) => {
    const result = await listReferrals(ctx, {
      partnerId: partnerIdOf(res),
      limit: queryValue(req, 'limit'),
      cursor: queryValue(req, 'cursor'),
    });
    sendResult(res, result);
  });

  router.get('/reports/referrals', async (req, res) => {
    const result = await referralReport(ctx, {
      partnerId: partnerIdOf(res),
      query: { from: queryValue(req, 'from'), to: queryValue(req, 'to'), groupBy: queryValue(req, 'groupBy') },
    });
    if (!result.ok) return sendResult(res, result);
    res.setHeader('Vary', 'Accept');
    if (!wantsCsv(req)) return sendData(res, 200, result.value.report);
    const { from, to } = result.value.window;
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="referrals_${from}_${to}.csv"`);
    res.status(200).send(reportCsv(result.value.report));
  });

  return router;
}
