/** For lenders, at `…/api/lender/v1`: their leads, pulled or pushed, and what became of the referrals LoanMatch sent them. */
import { apiOf, sendWith, verifyWebhook, type Api } from './partner';
import { createTransport, dataOf, requireKey, type TransportOptions } from './transport';
import type { LenderWebhookRequest, OutcomeEvent, PathsA } from './types';

export type LenderClientOptions = TransportOptions & { baseUrl: string; apiKey: string };
const LENDER_KEY = 'lender key LoanMatch issued (lm_lender_sandbox_… or lm_lender_live_…)';
/** The lender route's paths, relative to its base (the document names the webhook paths from the listener's root). */
type LenderPaths = Pick<PathsA, '/outcomes' | '/leads' | '/leads/{reference}'> & {
  '/webhooks': PathsA['/api/lender/v1/webhooks'];
  '/webhooks/{webhookId}': PathsA['/api/lender/v1/webhooks/{webhookId}'];
};

export class LoanMatchLenderClient {
  private readonly api: Api<LenderPaths>;
  /** Sends once: a retry could register a second endpoint. */
  private readonly once: (request: Request) => Promise<Response>;

  constructor(options: LenderClientOptions) {
    const key = requireKey(options.apiKey, /^lm_lender_\S+$/, LENDER_KEY);
    const transport = createTransport(options.baseUrl, options);
    const send = sendWith(transport, { Authorization: `Bearer ${key}` });
    this.api = apiOf(transport, send);
    this.once = (request) => send(request, false);
  }

  /** Reports one event of a referral, in any order; `eventId` makes a retry answer as the first time. */
  reportOutcome(event: OutcomeEvent) {
    return dataOf(this.api.POST('/outcomes', { body: event }));
  }

  /** The lead of a referral, by the `lm_ref` its redirect carried. */
  lead(reference: string) {
    return dataOf(this.api.GET('/leads/{reference}', { params: { path: { reference } } }));
  }

  /** Your leads after `since` (ISO time), newest first; `limit` 1-100 (default 50). */
  leads(query: { since?: string; limit?: number; cursor?: string } = {}) {
    return dataOf(this.api.GET('/leads', { params: { query } }));
  }

  /** Endpoints that receive `lead.created`; `register` answers the signing secret, shown this once. */
  readonly webhooks = {
    register: (body: LenderWebhookRequest) => dataOf(this.api.POST('/webhooks', { body, fetch: this.once })),
    list: () => dataOf(this.api.GET('/webhooks')),
    delete: (webhookId: string) =>
      dataOf(this.api.DELETE('/webhooks/{webhookId}', { params: { path: { webhookId } } })),
  };

  /** The `lead.created` event of a delivery whose signature and timestamp hold; throws otherwise. */
  static verifyWebhook = verifyWebhook;
}
