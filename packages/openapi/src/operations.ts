/**
 * Operations both documents share (webhooks, health, the reference itself) and the helper that gives
 * every operation the same frame: `X-Request-Id` in and out, rate-limit headers after authentication,
 * and the error responses of its codes.
 */
import type { HttpErrorCode } from '@loanmatch/http';
import { STATUS_CHANGED_EVENT, TEST_EVENT } from '@loanmatch/domain';
import { envelope, errorResponses, headerRef, paramRef, ref, type ErrorOptions } from './components';
import type { Schema } from './schema-translation';

/** Every authenticated operation may also answer these. */
const ALWAYS: readonly HttpErrorCode[] = ['UNAUTHORIZED', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/** Operations with a JSON body may also answer these. */
const WITH_BODY: readonly HttpErrorCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE'];

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Schema[];
  requestBody?: { schema: Schema; examples?: Record<string, unknown>; required?: boolean; description?: string };
  /** The success answer: status, the `data` schema (or a whole body for non-JSON answers), headers, examples. */
  success: {
    status: number;
    description: string;
    data?: Schema;
    headers?: Record<string, Schema>;
    examples?: Record<string, unknown>;
    content?: Schema;
  };
  /** Codes of this operation beyond the ones every authenticated operation has. */
  errors?: readonly HttpErrorCode[];
  /** `false` for the public routes (tracking, health, reference): no key, no rate limit. */
  authenticated?: boolean;
  security?: Schema[];
}

const RATE_LIMIT_HEADERS = { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimitPolicy') };

export function operation(spec: OperationSpec): Schema {
  const authenticated = spec.authenticated ?? true;
  const codes: HttpErrorCode[] = [...(spec.errors ?? [])];
  if (authenticated) codes.push(...ALWAYS, ...(spec.requestBody ? WITH_BODY : []));
  else codes.push('INTERNAL_ERROR');
  const errorOptions: ErrorOptions = { codes: [...new Set(codes)], rateLimited: authenticated, authenticated };

  const successHeaders = {
    'X-Request-Id': headerRef('XRequestId'),
    ...(authenticated ? RATE_LIMIT_HEADERS : {}),
    ...spec.success.headers,
  };
  const successContent =
    spec.success.content ??
    (spec.success.data
      ? {
          'application/json': {
            schema: envelope(spec.success.data),
            ...(spec.success.examples
              ? { examples: mapExamples(spec.success.examples, (value) => ({ success: true, data: value })) }
              : {}),
          },
        }
      : undefined);

  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    ...(spec.security ? { security: spec.security } : authenticated ? {} : { security: [] }),
    parameters: [...(spec.parameters ?? []), paramRef('XRequestId')],
    ...(spec.requestBody
      ? {
          requestBody: {
            required: spec.requestBody.required ?? true,
            ...(spec.requestBody.description ? { description: spec.requestBody.description } : {}),
            content: {
              'application/json': {
                schema: spec.requestBody.schema,
                ...(spec.requestBody.examples
                  ? { examples: mapExamples(spec.requestBody.examples, (value) => value) }
                  : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [String(spec.success.status)]: {
        description: spec.success.description,
        headers: successHeaders,
        ...(successContent ? { content: successContent } : {}),
      },
      ...errorResponses(errorOptions),
    },
  };
}

function mapExamples(examples: Record<string, unknown>, wrap: (value: unknown) => unknown): Record<string, Schema> {
  return Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value: wrap(value) }]));
}

// ---------------------------------------------------------------------------------------------
// Examples of answers
// ---------------------------------------------------------------------------------------------

const APPLICATION_ID = '6f1c2b8e-3d4a-4f5b-9c7d-2e1f0a9b8c7d';
const WEBHOOK_ID = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';
const AT = '2026-11-22T03:20:00.000Z';
export const EXAMPLE_IDS = { applicationId: APPLICATION_ID, webhookId: WEBHOOK_ID, at: AT };

const webhookView = {
  webhookId: WEBHOOK_ID,
  url: 'https://partner.example.com/loanmatch-webhooks',
  events: [STATUS_CHANGED_EVENT],
  status: 'active',
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  lastSuccessAt: AT,
  previousSecretExpiresAt: null,
  createdAt: AT,
};
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4VwlWPtXbFw=';

// ---------------------------------------------------------------------------------------------
// Webhooks: the same routes on both front-ends (under each one's base path and authentication)
// ---------------------------------------------------------------------------------------------

export function webhookPaths(): Record<string, Schema> {
  const tags = ['Webhooks'];
  const byId = [paramRef('WebhookId')];
  return {
    '/webhooks': {
      post: operation({
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
      }),
      get: operation({
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
      delete: operation({
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description: 'Nothing more is sent to it; what was pending for it is cancelled.',
        tags,
        parameters: byId,
        success: {
          status: 200,
          description: 'Deleted.',
          data: ref('DeletedWebhook'),
          examples: { default: { webhookId: WEBHOOK_ID, deleted: true } },
        },
        errors: ['NOT_FOUND'],
      }),
    },
    '/webhooks/{webhookId}/rotate-secret': {
      post: operation({
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
            default: { webhookId: WEBHOOK_ID, secret: SECRET, previousSecretExpiresAt: '2026-11-23T03:20:00.000Z' },
          },
        },
        errors: ['NOT_FOUND'],
      }),
    },
    '/webhooks/{webhookId}/test': {
      post: operation({
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
            default: { webhookId: WEBHOOK_ID, eventId: 'evt_2f7d0c1e9b8a4c3d8e6f5a4b3c2d1e0f', type: TEST_EVENT },
          },
        },
        errors: ['NOT_FOUND', 'WEBHOOK_DISABLED'],
      }),
    },
    '/webhooks/{webhookId}/deliveries': {
      get: operation({
        operationId: 'listWebhookDeliveries',
        summary: 'Recent delivery attempts',
        tags,
        parameters: [...byId, paramRef('Limit')],
        success: {
          status: 200,
          description: 'Attempts, newest first, and how many deliveries are still pending.',
          data: ref('DeliveryList'),
          examples: {
            default: {
              webhookId: WEBHOOK_ID,
              pending: 1,
              deliveries: [
                {
                  eventId: 'evt_2f7d0c1e9b8a4c3d8e6f5a4b3c2d1e0f',
                  eventType: STATUS_CHANGED_EVENT,
                  attempt: 1,
                  attemptedAt: AT,
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
        timestamp: AT,
        data: { applicationId: APPLICATION_ID, status: 'in_progress', previousStatus: 'draft', lastStep: 2 },
      },
    ),
    [TEST_EVENT]: delivery('webhookTest', 'A test event you asked for', 'TestEvent', {
      type: TEST_EVENT,
      timestamp: AT,
      data: { webhookId: WEBHOOK_ID },
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Health and the reference itself: at the listener's root, no authentication
// ---------------------------------------------------------------------------------------------

export const ROOT_SERVER = [{ url: '/', description: "The listener's root, outside the versioned base path." }];

export function rootPaths(): Record<string, Schema> {
  const tags = ['Service'];
  const json = (schema: Schema) => ({ 'application/json': { schema } });
  return {
    '/healthz': {
      servers: ROOT_SERVER,
      get: operation({
        operationId: 'healthz',
        summary: 'The process is alive',
        tags,
        authenticated: false,
        success: { status: 200, description: 'Alive.', data: ref('Health'), examples: { default: { status: 'ok' } } },
      }),
    },
    '/readyz': {
      servers: ROOT_SERVER,
      get: operation({
        operationId: 'readyz',
        summary: 'The process can reach its database',
        tags,
        authenticated: false,
        success: {
          status: 200,
          description: 'Ready.',
          data: ref('Health'),
          examples: { default: { status: 'ready' } },
        },
        errors: ['SERVICE_UNAVAILABLE'],
      }),
    },
    '/openapi.json': {
      servers: ROOT_SERVER,
      get: operation({
        operationId: 'openApiDocument',
        summary: 'This OpenAPI 3.1 document',
        tags,
        authenticated: false,
        success: { status: 200, description: 'The document.', content: json({ type: 'object' }) },
      }),
    },
    '/docs': {
      servers: ROOT_SERVER,
      get: operation({
        operationId: 'referenceDocs',
        summary: 'This reference, as a web page',
        tags,
        authenticated: false,
        success: {
          status: 200,
          description: 'An HTML page that reads `/openapi.json`.',
          content: { 'text/html': { schema: { type: 'string' } } },
        },
      }),
    },
  };
}
