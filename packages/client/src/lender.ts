/** For lenders, at `…/api/lender/v1`: what became of the referrals LoanMatch sent them. */
import { apiOf, sendWith, type Api } from './partner';
import { createTransport, dataOf, requireKey, type TransportOptions } from './transport';
import type { OutcomeEvent, PathsA } from './types';

export type LenderClientOptions = TransportOptions & { baseUrl: string; apiKey: string };
const LENDER_KEY = 'lender key LoanMatch issued (lm_lender_sandbox_… or lm_lender_live_…)';

export class LoanMatchLenderClient {
  private readonly api: Api<Pick<PathsA, '/outcomes'>>;

  constructor(options: LenderClientOptions) {
    const key = requireKey(options.apiKey, /^lm_lender_\S+$/, LENDER_KEY);
    const transport = createTransport(options.baseUrl, options);
    this.api = apiOf(transport, sendWith(transport, { Authorization: `Bearer ${key}` }));
  }

  /** Reports one event of a referral, in any order; `eventId` makes a retry answer as the first time. */
  reportOutcome(event: OutcomeEvent) {
    return dataOf(this.api.POST('/outcomes', { body: event }));
  }
}
