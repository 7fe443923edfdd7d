/** What both partner clients share, on routes both contracts serve alike; and webhook signature checks. */
import createClient, { type Client } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import { dataOf, type Transport } from './transport';
import type { CreditCheckOptions, PathsA, ReferralReportQuery, RegisterWebhookRequest, WebhookEvent } from './types';

export type Api<P extends {}> = Client<P, 'application/json'>;
/** Sends a request; `repeatable`: safe to send twice after a 5xx or a lost connection (docs/adr/0087). */
export type Send = (request: Request, repeatable: boolean) => Promise<Response>;
export type WebhooksApi = ReturnType<typeof webhooksApi>;
export type ReportsApi = ReturnType<typeof reportsApi>;
type SharedPath = '/referrals' | '/consents' | '/reports/referrals' | Extract<keyof PathsA, `/webhooks${string}`>;
type Shared = Pick<PathsA, SharedPath>;

/** A client of `P` through `send`, repeatable unless a call passes a `fetch` of its own. */
export const apiOf = <P extends {}>(transport: Transport, send: Send): Api<P> =>
  createClient<P, 'application/json'>({ baseUrl: transport.baseUrl, fetch: (request) => send(request, true) });

export function sendWith(transport: Transport, headers: Record<string, string>): Send {
  return (request, repeatable) => transport.send(request, async () => headers, repeatable);
}

export class PartnerClient<P extends {}> {
  readonly webhooks: WebhooksApi;
  readonly reports: ReportsApi;
  protected readonly api: Api<P>;
  private readonly shared: Api<Shared>;
  private readonly transport: Transport;

  constructor(transport: Transport, send: Send) {
    this.transport = transport;
    this.api = apiOf<P>(transport, send);
    this.shared = apiOf<Shared>(transport, send);
    this.webhooks = webhooksApi(this.shared, (request) => send(request, false));
    this.reports = reportsApi(this.shared);
  }

  /** Your referrals, newest first, with their `clientTags`, `outcome` and `commission`; `limit` 1-100 (default 50). */
  listReferrals(options: { cursor?: string; limit?: number } = {}) {
    const query = { limit: options.limit, cursor: options.cursor };
    return dataOf(this.shared.GET('/referrals', { params: { query } }));
  }

  /** The consent wording to show applicants, by version: send the version shown. */
  consents() {
    return dataOf(this.shared.GET('/consents'));
  }

  /** The `Idempotency-Key` and sandbox score headers of a call: the key the caller's, or one made for it. */
  protected headersOf(options: CreditCheckOptions) {
    const key = options.idempotencyKey ?? this.transport.newIdempotencyKey();
    return { 'Idempotency-Key': key, 'X-Sandbox-Score': options.sandboxScore };
  }
}

/** `once` sends what a retry could do twice: a second endpoint, rotation or test event. */
function webhooksApi(api: Api<Shared>, once: (request: Request) => Promise<Response>) {
  const byId = (webhookId: string) => ({ params: { path: { webhookId } } });
  return {
    /** Answers the signing secret, shown this once. */
    register: (request: RegisterWebhookRequest) => dataOf(api.POST('/webhooks', { body: request, fetch: once })),
    list: () => dataOf(api.GET('/webhooks')),
    /** A retry after a delete that went through answers `NOT_FOUND`. */
    delete: (webhookId: string) => dataOf(api.DELETE('/webhooks/{webhookId}', byId(webhookId))),
    rotateSecret: (id: string) => dataOf(api.POST('/webhooks/{webhookId}/rotate-secret', { ...byId(id), fetch: once })),
    sendTest: (id: string) => dataOf(api.POST('/webhooks/{webhookId}/test', { ...byId(id), fetch: once })),
    listDeliveries: (webhookId: string, { limit }: { limit?: number } = {}) =>
      dataOf(api.GET('/webhooks/{webhookId}/deliveries', { params: { path: { webhookId }, query: { limit } } })),
  };
}

function reportsApi(api: Api<Shared>) {
  const csv = { headers: { Accept: 'text/csv' }, parseAs: 'text' } as const;
  return {
    /** Referrals made in the window and what became of them, grouped; amounts in AUD. */
    referrals: (query: ReferralReportQuery = {}) => dataOf(api.GET('/reports/referrals', { params: { query } })),
    /** The same report as CSV text: a header row, then a row each, amounts with two decimals. */
    referralsCsv: async (query: ReferralReportQuery = {}) =>
      (await api.GET('/reports/referrals', { params: { query }, ...csv })).data ?? '',
  };
}

/** The event of a webhook delivery whose signature and timestamp hold (Standard Webhooks); throws otherwise. */
export function verifyWebhook(secret: string, rawBody: string, headers: Record<string, string | string[] | undefined>) {
  return new Webhook(secret).verify(rawBody, headers as Record<string, string>) as WebhookEvent;
}
