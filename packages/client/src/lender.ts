/**
 * For lenders: report what became of the referrals LoanMatch sent you, at `…/api/lender/v1` (the Variant A
 * listener), with `Authorization: Bearer <lender key>`. Every event carries your own `eventId`, so a retry
 * is always safe: the same event again is answered as the first time.
 */
import type { OutcomeEvent } from './requests';
import type { OutcomeRecorded } from './responses';
import { Transport, type RequestSpec, type TransportOptions } from './transport';

export interface LenderClientOptions extends TransportOptions {
  /** The lender API's address, e.g. `https://…/api/lender/v1`. */
  baseUrl: string;
  /** The lender key LoanMatch issued: `lm_lender_sandbox_…` or `lm_lender_live_…`. */
  apiKey: string;
}

export class LoanMatchLenderClient {
  private readonly transport: Transport;
  private readonly authorization: Record<string, string>;

  constructor(options: LenderClientOptions) {
    if (typeof options.apiKey !== 'string' || !/^lm_lender_\S+$/.test(options.apiKey))
      throw new TypeError('apiKey must be the lender key LoanMatch issued (lm_lender_sandbox_… or lm_lender_live_…)');
    this.transport = new Transport(options.baseUrl, options);
    this.authorization = { Authorization: `Bearer ${options.apiKey}` };
  }

  /**
   * Reports one event of a referral (answers 201's `data`). Events may be sent in any order; one the
   * referral's lifecycle forbids where it falls is refused with `OUTCOME_TRANSITION_INVALID`.
   */
  reportOutcome(event: OutcomeEvent): Promise<OutcomeRecorded> {
    return this.call({ method: 'POST', path: '/outcomes', body: event, repeatable: true });
  }

  private call<T>(spec: RequestSpec): Promise<T> {
    return this.transport.send<T>(spec, async () => this.authorization);
  }
}
