/**
 * A partner's referrals (`GET /referrals`) and referral report (`GET /reports/referrals`), the same on
 * both contracts: each client hands the report the way it sends an authenticated call.
 */
import type { ReferralReportQuery } from './requests';
import type { ReferralReport } from './responses';
import type { RequestSpec } from './transport';

/** `GET /referrals`, the same on both contracts: a page of the partner's referrals, newest first. */
export function referralPageRequest(options: { cursor?: string; limit?: number }): RequestSpec {
  return {
    method: 'GET',
    path: '/referrals',
    query: { limit: options.limit, cursor: options.cursor },
    repeatable: true,
  };
}

export class ReportsApi {
  constructor(private readonly call: <T>(spec: RequestSpec) => Promise<T>) {}

  /** Referrals made in the window and what became of them, grouped; amounts in AUD. */
  referrals(query: ReferralReportQuery = {}): Promise<ReferralReport> {
    return this.call({ method: 'GET', path: '/reports/referrals', query: { ...query }, repeatable: true });
  }

  /** The same report as CSV text (`Accept: text/csv`): a header row, then a row each, amounts with two decimals. */
  referralsCsv(query: ReferralReportQuery = {}): Promise<string> {
    return this.call({
      method: 'GET',
      path: '/reports/referrals',
      query: { ...query },
      accept: 'text/csv',
      repeatable: true,
    });
  }
}
