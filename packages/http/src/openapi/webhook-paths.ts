/**
 * The webhook routes, the same on both front-ends (under each one's base path and authentication), and
 * the `webhooks` section: what a partner's endpoint receives.
 */
import { STATUS_CHANGED_EVENT, TEST_EVENT, parsePageLimit, validateWebhookRequest } from '@loanmatch/domain';
import {
  EXAMPLE_IDS,
  headerRef,
  operation,
  paramRef,
  ref,
  refusal,
  type Contract,
  type ErrorExample,
  type OperationSpec,
} from './operations';
import type { Schema } from './schemas';

const NOT_FOUND: ErrorExample = { code: 'NOT_FOUND', message: 'Webhook not found' };

const webhookView = {
  webhookId: EXAMPLE_IDS.webhookId,
  url: 'https://partner.example.com/loanmatch-webhooks',
  events: [STATUS_CHANGED_EVENT],
  status: 'active',
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  lastSuccessAt: EXAMPLE_IDS.at,
  previousSecretExpiresAt: null,
  createdAt: EXAMPLE_IDS.at,
};
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4VwlWPtXbFw=';

export function webhookPaths(contract: Contract): Record<string, Schema> {
  const op = (spec: OperationSpec) => operation(spec, contract);
  const tags = ['Webhooks'];
  const byId = [paramRef('WebhookId')];
  return {
    '/webhooks': {
      post: op({
        operationId: 'registerWebhook',
        summary: 'Register a webhook endpoint',
        description: 'Answers the endpoint and its signing secret, shown this once. A partner may have 10 endpoints.',
        tags,
        requestBody: {
          schema: ref('WebhookRequest'),
          examples: {
            default: { url: 'https://partner.example.com/loanmatch-webhooks', events: [STATUS_CHANGED_EVENT] },
          },
        },
        success: {
          status: 201,
          description: 'Registered.',
          data: ref('RegisteredWebhook'),
          headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
          examples: { default: { ...webhookView, lastSuccessAt: null, secret: SECRET } },
        },
        errors: ['VALIDATION_ERROR', 'WEBHOOK_LIMIT_REACHED'],
        examples: [refusal(validateWebhookRequest({ url: '' }))],
      }),
      get: op({
        operationId: 'listWebhooks',
        summary: 'List webhook endpoints',
        description: 'Oldest first, never a secret. A disabled endpoint says why.',
        tags,
        success: {
          status: 200,
          description: 'The endpoints.',
          data: ref('WebhookList'),
          examples: { default: { webhooks: [webhookView] } },
        },
      }),
    },
    '/webhooks/{webhookId}': {
      delete: op({
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: 'Nothing more is sent to it; what was pending for it is cancelled.',
        tags,
        parameters: byId,
        success: {
          status: 200,
          description: 'Deleted.',
          data: ref('DeletedWebhook'),
          examples: { default: { webhookId: EXAMPLE_IDS.webhookId, deleted: true } },
        },
        errors: ['NOT_FOUND'],
        examples: [NOT_FOUND],
      }),
    },
    '/webhooks/{webhookId}/rotate-secret': {
      post: op({
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'A new secret, shown once; the old one keeps signing beside it for 24 hours (`webhook-signature: v1,<new> v1,<old>`).',
        tags,
        parameters: byId,
        success: {
          status: 200,
          description: 'Rotated.',
          data: ref('RotatedSecret'),
          headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
          examples: {
            default: {
              webhookId: EXAMPLE_IDS.webhookId,
              secret: SECRET,
              previousSecretExpiresAt: '2026-11-23T03:20:00.000Z',
            },
          },
        },
        errors: ['NOT_FOUND'],
        examples: [NOT_FOUND],
      }),
    },
    '/webhooks/{webhookId}/test': {
      post: op({
        operationId: 'sendTestEvent',
        summary: 'Send a test event',
        description:
          'Queues a `webhook.test` event for this endpoint alone, delivered, signed and retried like any other.',
        tags,
        parameters: byId,
        success: {
          status: 200,
          description: 'Queued.',
          data: ref('QueuedTestEvent'),
          examples: {
            default: {
              webhookId: EXAMPLE_IDS.webhookId,
              eventId: 'evt_2f7d0c1e9b8a4c3d8e6f5a4b3c2d1e0f',
              type: TEST_EVENT,
            },
          },
        },
        errors: ['NOT_FOUND', 'WEBHOOK_DISABLED'],
        examples: [NOT_FOUND],
      }),
    },
    '/webhooks/{webhookId}/deliveries': {
      get: op({
        operationId: 'listWebhookDeliveries',
        summary: 'Recent delivery attempts',
        description:
          "The endpoint's latest attempts, newest first (`limit`, default 50), with how many deliveries wait.",
        tags,
        parameters: [...byId, paramRef('Limit')],
        success: {
          status: 200,
          description: 'Attempts, newest first, and how many deliveries are still pending.',
          data: ref('DeliveryList'),
          examples: {
            default: {
              webhookId: EXAMPLE_IDS.webhookId,
              pending: 1,
              deliveries: [
                {
                  eventId: 'evt_2f7d0c1e9b8a4c3d8e6f5a4b3c2d1e0f',
                  eventType: STATUS_CHANGED_EVENT,
                  attempt: 1,
                  attemptedAt: EXAMPLE_IDS.at,
                  status: 'failed',
                  responseStatus: 500,
                  durationMs: 41,
                  error: 'http_500',
                  nextRetryAt: '2026-11-22T03:20:05.000Z',
                },
              ],
            },
          },
        },
        errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
        examples: [NOT_FOUND, refusal(parsePageLimit('500'))],
      }),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The `webhooks` section: what a partner's endpoint receives
// ---------------------------------------------------------------------------------------------

const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event's id, the same on every retry: deduplicate on it.",
    schema: { type: 'string', pattern: '^evt_' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt. Refuse one far from now (e.g. 5 minutes).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the base64-decoded secret after `whsec_`. Two during the 24 hours after a rotation; accept either.',
    schema: { type: 'string', pattern: '^v1,' },
  },
];

export function delivery(operationId: string, summary: string, schema: string, example: unknown): Schema {
  return {
    post: {
      operationId,
      summary,
      description:
        'A `POST` to your registered URL, signed by the [Standard Webhooks](https://www.standardwebhooks.com/) scheme. At least once, in order per application; a 2xx within 10 seconds ends the delivery, anything else is retried for over 24 hours. `410 Gone` disables the endpoint.',
      tags: ['Webhooks'],
      // Signed, not authenticated by a scheme of this API: no lock in the reference.
      security: [],
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(schema), examples: { default: { value: example } } } },
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
  };
}

export function webhookEvents(): Record<string, Schema> {
  return {
    [STATUS_CHANGED_EVENT]: delivery(
      'applicationStatusChanged',
      'An application changed status',
      'StatusChangedEvent',
      {
        type: STATUS_CHANGED_EVENT,
        timestamp: EXAMPLE_IDS.at,
        data: { applicationId: EXAMPLE_IDS.applicationId, status: 'in_progress', previousStatus: 'draft', lastStep: 2 },
      },
    ),
    [TEST_EVENT]: delivery('webhookTest', 'A test event you asked for', 'TestEvent', {
      type: TEST_EVENT,
      timestamp: EXAMPLE_IDS.at,
      data: { webhookId: EXAMPLE_IDS.webhookId },
    }),
  };
}
