/**
 * The paths both front-ends share (under each one's base path and authentication): the consent wording,
 * the webhook routes, and at the listener's root the health checks and this reference. Also the
 * `webhooks` section: what a partner's endpoint receives.
 */
import {
  STATUS_CHANGED_EVENT,
  TEST_EVENT,
  listConsentTexts,
  parsePageLimit,
  validateWebhookRequest,
} from '@loanmatch/domain';
import type { PathGroup } from './document';
import { EXAMPLE_IDS, NO_STORE, refusal, type ErrorExample } from './operations';
import { ref, type Schema } from './schemas';

const { webhookId, at } = EXAMPLE_IDS;
const NOT_FOUND: ErrorExample = { code: 'NOT_FOUND', message: 'Webhook not found' };
const consents = listConsentTexts();

export const CONSENTS: PathGroup = {
  tag: {
    name: 'Consents',
    description: 'The consent wording to show applicants, by version; a credit check names the version it showed.',
  },
  operations: {
    'GET /consents': {
      operationId: 'listConsentTexts',
      summary: 'The consent wording, by version',
      description:
        'Show the current texts to the applicant, and send the version shown as `consentTextVersion` with the credit check (with `consentCapturedAt`, when the applicant agreed, and your own `consentReference`). Each check stores a consent record that lenders can rely on. Published wording never changes: new wording is a new version, and earlier versions stay accepted.',
      success: { description: 'The wording, newest version first.', data: 'ConsentTexts' },
      examples: consents.ok ? { default: consents.value } : undefined,
    },
  },
};

export const WEBHOOKS: PathGroup = {
  tag: {
    name: 'Webhooks',
    description: 'Status-change notifications: registration, and (section `webhooks`) what your endpoint receives.',
  },
  operations: {
    'POST /webhooks': {
      operationId: 'registerWebhook',
      summary: 'Register a webhook endpoint',
      description: 'Answers the endpoint and its signing secret, shown this once. A partner may have 10 endpoints.',
      body: {
        schema: 'WebhookRequest',
        examples: {
          default: { url: 'https://partner.example.com/loanmatch-webhooks', events: [STATUS_CHANGED_EVENT] },
        },
      },
      success: { status: 201, description: 'Registered.', data: 'RegisteredWebhook', headers: NO_STORE },
      errors: [refusal(validateWebhookRequest({ url: '' })), 'WEBHOOK_LIMIT_REACHED'],
    },
    'GET /webhooks': {
      operationId: 'listWebhooks',
      summary: 'List webhook endpoints',
      description: 'Oldest first, never a secret. A disabled endpoint says why.',
      success: { description: 'The endpoints.', data: 'WebhookList' },
    },
    'DELETE /webhooks/{webhookId}': {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook endpoint',
      description: 'Nothing more is sent to it; what was pending for it is cancelled.',
      parameters: ['WebhookId'],
      success: { description: 'Deleted.', data: 'DeletedWebhook' },
      errors: [NOT_FOUND],
    },
    'POST /webhooks/{webhookId}/rotate-secret': {
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret',
      description: 'During the 24 hours both secrets sign: `webhook-signature: v1,<new> v1,<old>`.',
      parameters: ['WebhookId'],
      success: { description: 'Rotated.', data: 'RotatedSecret', headers: NO_STORE },
      errors: [NOT_FOUND],
    },
    'POST /webhooks/{webhookId}/test': {
      operationId: 'sendTestEvent',
      summary: 'Send a test event',
      description:
        'Queues a `webhook.test` event for this endpoint alone, delivered, signed and retried like any other.',
      parameters: ['WebhookId'],
      success: { description: 'Queued.', data: 'QueuedTestEvent' },
      errors: [NOT_FOUND, 'WEBHOOK_DISABLED'],
    },
    'GET /webhooks/{webhookId}/deliveries': {
      operationId: 'listWebhookDeliveries',
      summary: 'Recent delivery attempts',
      description: "The endpoint's latest attempts, newest first, with how many deliveries wait.",
      parameters: ['WebhookId', 'Limit'],
      success: { description: 'The attempts.', data: 'DeliveryList' },
      errors: [NOT_FOUND, refusal(parsePageLimit('500'))],
    },
  },
};

export const SERVICE: PathGroup = {
  tag: { name: 'Service', description: 'Health checks and this reference.' },
  root: '',
  // No key, so none of the authenticated codes.
  security: [],
  operations: {
    'GET /healthz': {
      operationId: 'healthz',
      summary: 'The process is alive',
      description: 'Answers 200 while the process runs, whatever its database does.',
      success: { description: 'Alive.', data: 'Health' },
    },
    'GET /readyz': {
      operationId: 'readyz',
      summary: 'The process can reach its database',
      description: 'Answers 200 when the database answers, 503 otherwise: for a load balancer.',
      success: { description: 'Ready.', data: 'Health' },
      errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable' }],
    },
    'GET /openapi.json': {
      operationId: 'openApiDocument',
      summary: 'This OpenAPI 3.1 document',
      description: "Built at start from the validation schemas, with this listener's public address as its server.",
      success: { description: 'The document.', content: { 'application/json': { schema: { type: 'object' } } } },
    },
    'GET /docs': {
      operationId: 'referenceDocs',
      summary: 'This reference, as a web page',
      description: 'Swagger UI, served by this listener with every asset it needs.',
      success: {
        description: 'An HTML page that reads `/openapi.json`.',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
    },
  },
};

// ---------------------------------------------------------------------------------------------
// The `webhooks` section: what a partner's endpoint receives
// ---------------------------------------------------------------------------------------------

/** Event types, each with the operation of its delivery, its payload's schema component and an example payload. */
export type Events = Record<string, { operationId: string; summary: string; schema: string; data: unknown }>;

export const WEBHOOK_EVENTS: Events = {
  [STATUS_CHANGED_EVENT]: {
    operationId: 'applicationStatusChanged',
    summary: 'An application changed status',
    schema: 'StatusChangedEvent',
    data: { applicationId: EXAMPLE_IDS.applicationId, status: 'in_progress', previousStatus: 'draft', lastStep: 2 },
  },
  [TEST_EVENT]: {
    operationId: 'webhookTest',
    summary: 'A test event you asked for',
    schema: 'TestEvent',
    data: { webhookId },
  },
};

const signatureHeader = (name: string, pattern: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', pattern },
});
const SIGNATURE_HEADERS = [
  signatureHeader('webhook-id', '^evt_', "The event's id, the same on every retry: deduplicate on it."),
  signatureHeader(
    'webhook-timestamp',
    '^[0-9]+$',
    'Unix seconds of this attempt. Refuse one far from now (e.g. 5 minutes).',
  ),
  signatureHeader(
    'webhook-signature',
    '^v1,',
    'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the base64-decoded secret after `whsec_`. Two during the 24 hours after a rotation; accept either.',
  ),
];

/** The `webhooks` section: each event's delivery, signed, not authenticated by a scheme of this API (no lock). */
export function deliveries(events: Events): Record<string, Schema> {
  return Object.fromEntries(
    Object.entries(events).map(([type, { operationId, summary, schema, data }]) => [
      type,
      {
        post: {
          operationId,
          summary,
          description:
            'A `POST` to your registered URL, signed by the [Standard Webhooks](https://www.standardwebhooks.com/) scheme. At least once, in order per application; a 2xx within 10 seconds ends the delivery, anything else is retried for over 24 hours. `410 Gone` disables the endpoint.',
          tags: ['Webhooks'],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref(schema),
                examples: { default: { value: { type, timestamp: at, data } } },
              },
            },
          },
          responses: {
            '2XX': { description: 'Received: the delivery ends.' },
            '410': { description: 'Gone: the endpoint is disabled at once.' },
            default: {
              description:
                'Anything else: retried (immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h), never before a `Retry-After` you send.',
            },
          },
        },
      },
    ]),
  );
}
