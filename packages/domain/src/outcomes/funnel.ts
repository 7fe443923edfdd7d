/** The operators' funnel over a window of days, of one partner or of all, and per partner and lender for the console. */
import { findPartner, funnel, funnelByPartner } from '@loanmatch/db';
import type { DomainContext } from '../context';
import { fail, invalid, ok, violation, type Result } from '../errors';
import { canonicalUuid } from '../ids';
import { inDollars } from './money';
import { referralReport, reportWindow, type ReportQuery } from './referral-reports';

async function partnerOf(ctx: DomainContext, partnerId: string | undefined): Promise<Result<string | null>> {
  if (partnerId === undefined) return ok(null);
  const id = canonicalUuid(partnerId);
  if (!id) return invalid(violation('partnerId', 'format', 'must be the id of a partner'));
  return (await findPartner(ctx.db, id)) ? ok(id) : fail('NOT_FOUND', 'Partner not found');
}

export async function operatorFunnel(ctx: DomainContext, options: { query: ReportQuery & { partnerId?: string } }) {
  const window = reportWindow(options.query, ctx.clock());
  if (!window.ok) return window;
  const partner = await partnerOf(ctx, options.query.partnerId);
  if (!partner.ok) return partner;
  const counts = await funnel(ctx.db, {
    partnerId: partner.value,
    from: window.value.start,
    until: window.value.until,
  });
  return ok(inDollars(counts));
}

export async function operatorFunnelByPartner(ctx: DomainContext, options: { query: ReportQuery }) {
  const window = reportWindow(options.query, ctx.clock());
  if (!window.ok) return window;
  const rows = await funnelByPartner(ctx.db, { from: window.value.start, until: window.value.until });
  return ok({ partners: rows.map(inDollars) });
}

export async function operatorFunnelByLender(
  ctx: DomainContext,
  options: { query: ReportQuery & { partnerId?: string } },
) {
  const partner = await partnerOf(ctx, options.query.partnerId);
  if (!partner.ok) return partner;
  const report = await referralReport(ctx, {
    partnerId: partner.value,
    query: { from: options.query.from, to: options.query.to, groupBy: 'lender' },
  });
  if (!report.ok) return report;
  return ok({ lenders: report.value.report.rows.map(({ group, ...row }) => ({ lenderId: group ?? '', ...row })) });
}
