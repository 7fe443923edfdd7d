/**
 * The paths both front-ends share (under each one's base path and authentication): the consent wording,
 * the referrals and their report, the webhook routes, and at the listener's root the health checks and
 * this reference. Also the events a partner's endpoint receives.
 */
import {
  CLIENT_TAG_KEY_MAX_LENGTH,
  CLIENT_TAG_KEY_PATTERN,
  OUTCOME_CHANGED_EVENT,
  REPORT_MAX_DAYS,
  STATUS_CHANGED_EVENT,
  TEST_EVENT,
  checkCursorText,
  listConsentTexts,
  parsePageLimit,
  reportCsv,
  reportGrouping,
  reportWindow,
  validateWebhookRequest,
} from '@loanmatch/domain';
import type { Events, PathGroup } from './document';
import { EXAMPLE_DAY, EXAMPLE_IDS, NO_STORE, refusal, type ErrorExample } from './operations';
import type { Schema } from './schemas';

const { applicationId, offerId, referralId, webhookId, at } = EXAMPLE_IDS;
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

const TAGS = { campaign: 'spring-2026', channel: 'email' };

const REFERRAL_EXAMPLE = {
  referralId,
  applicationId,
  offerId,
  lender: { id: 'harbour-bank', name: 'Harbour Bank' },
  product: { id: 'harbour-personal-fixed', name: 'Fixed Rate Personal Loan' },
  referredAt: at,
  clientTags: TAGS,
  outcome: { status: 'funded', updatedAt: '2026-11-25T01:00:00.000Z', fundedAmount: 15000 },
  commission: { amount: 375, currency: 'AUD' },
  attribution: 'owner',
};
const REPORT_EXAMPLE = {
  rows: [
    {
      group: '2026-11-24',
      referrals: 12,
      started: 7,
      approved: 4,
      declined: 2,
      funded: 2,
      fundedAmount: 27500,
      commission: 612.5,
      duplicates: 1,
    },
  ],
};
const day = (name: string, description: string): Schema => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string', format: 'date', maxLength: 10 },
});

/** `GET /referrals` and `GET /reports/referrals`, the same on both contracts. */
export const REFERRALS: PathGroup = {
  tag: { name: 'Referrals' },
  operations: {
    'GET /referrals': {
      operationId: 'listReferrals',
      summary: 'Referrals of your applicants',
      description:
        'Newest first, in pages; the cursor keeps pages stable while new clicks arrive. Each carries your `clientTags`, what the lender reported (`outcome`), the commission it earned and its `attribution` (`duplicate` when another partner referred the same applicant to the lender first, within its ownership window).',
      parameters: ['Limit', 'Cursor'],
      success: { description: 'A page of referrals.', data: 'ReferralList' },
      examples: { default: { referrals: [REFERRAL_EXAMPLE], nextCursor: null } },
      errors: [refusal(parsePageLimit('500')), refusal(checkCursorText('A'.repeat(101)))],
    },
    'GET /reports/referrals': {
      operationId: 'referralReport',
      summary: 'Your referrals and what became of them, grouped',
      description:
        'Referrals made in the window (whole days, UTC), grouped, with how many the lenders started, approved and declined, the funded loans that stand, their amount, your commission (AUD) and the duplicates among them. ' +
        'JSON by default; with `Accept: text/csv`, CSV with the same columns (amounts with two decimals).',
      parameters: [
        day('from', 'The first day (UTC), included. Default: 29 days before `to`.'),
        day('to', `The last day (UTC), included; at most ${REPORT_MAX_DAYS} days after \`from\`. Default: today.`),
        {
          name: 'groupBy',
          in: 'query',
          description:
            '`day` (the default: every day of the window, zeros included), `lender`, `product`, or `tag:<key>` (the value of one of your `clientTags`).',
          schema: {
            type: 'string',
            pattern: `^(day|lender|product|tag:${CLIENT_TAG_KEY_PATTERN.slice(1, -1)})$`,
            maxLength: 'tag:'.length + CLIENT_TAG_KEY_MAX_LENGTH,
          },
        },
      ],
      success: {
        description: 'The report.',
        data: 'ReferralReport',
        content: { 'text/csv': { schema: { type: 'string' }, example: reportCsv(REPORT_EXAMPLE) } },
      },
      examples: { default: REPORT_EXAMPLE },
      errors: [
        refusal(reportWindow({ from: '2026-11-02', to: '2026-11-01' }, EXAMPLE_DAY)),
        refusal(reportGrouping('week')),
      ],
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

/** What a partner's endpoint receives. */
export const PARTNER_EVENTS: Events = {
  [STATUS_CHANGED_EVENT]: {
    operationId: 'applicationStatusChanged',
    summary: 'An application changed status',
    schema: 'StatusChangedEvent',
    data: { applicationId, status: 'in_progress', previousStatus: 'draft', lastStep: 2 },
  },
  [TEST_EVENT]: {
    operationId: 'webhookTest',
    summary: 'A test event you asked for',
    schema: 'TestEvent',
    data: { webhookId },
  },
  [OUTCOME_CHANGED_EVENT]: {
    operationId: 'referralOutcomeChanged',
    summary: "A referral's outcome changed",
    schema: 'ReferralOutcomeChangedEvent',
    data: {
      referralId,
      applicationId,
      lenderId: 'harbour-bank',
      status: 'funded',
      previousStatus: 'approved',
      clientTags: TAGS,
    },
  },
};
