/**
 * Webhook registration (README "Webhooks"), the same routes on both front-ends; each client hands in
 * its own authenticated `call`.
 */
import type { RegisterWebhookRequest } from './requests';
import type {
  DeletedWebhook,
  DeliveryLog,
  RegisteredWebhook,
  RotatedSecret,
  TestEvent,
  WebhookList,
} from './responses';
import { segment, type RequestSpec } from './transport';

export type Call = <T>(spec: RequestSpec) => Promise<T>;

export class WebhooksApi {
  constructor(private readonly call: Call) {}

  /** Answers the signing secret, shown this once. Never retried after a 5xx or a lost connection: a second endpoint could be made. */
  register(request: RegisterWebhookRequest): Promise<RegisteredWebhook> {
    return this.call({ method: 'POST', path: '/webhooks', body: request, repeatable: false });
  }

  list(): Promise<WebhookList> {
    return this.call({ method: 'GET', path: '/webhooks', repeatable: true });
  }

  /** Retried like any DELETE; a retry after a delete that went through answers `NOT_FOUND`. */
  delete(webhookId: string): Promise<DeletedWebhook> {
    return this.call({ method: 'DELETE', path: `/webhooks/${segment(webhookId)}`, repeatable: true });
  }

  /** Never retried after a 5xx or a lost connection: a second rotation would drop the secret in use at once. */
  rotateSecret(webhookId: string): Promise<RotatedSecret> {
    return this.call({ method: 'POST', path: `/webhooks/${segment(webhookId)}/rotate-secret`, repeatable: false });
  }

  sendTest(webhookId: string): Promise<TestEvent> {
    return this.call({ method: 'POST', path: `/webhooks/${segment(webhookId)}/test`, repeatable: false });
  }

  /** Recent attempts, newest first; `limit` 1-100 (default 50). */
  listDeliveries(webhookId: string, options: { limit?: number } = {}): Promise<DeliveryLog> {
    return this.call({
      method: 'GET',
      path: `/webhooks/${segment(webhookId)}/deliveries`,
      query: { limit: options.limit },
      repeatable: true,
    });
  }
}
