/**
 * The operations of the referral's life after the click: the lender route on Variant A's listener, the
 * referrals list and the referral report on both contracts, and the `referral.outcome_changed` webhook.
 * Each contract passes its own `op` (its words for the codes every authenticated operation may answer).
 */
import {
  OUTCOME_CHANGED_EVENT,
  checkCursorText,
  parsePageLimit,
  reportGrouping,
  reportWindow,
  validateOutcomeEvent,
} from '@loanmatch/domain';
import { LENDER_BASE_PATH } from '../auth';
import { envelope, headerRef, paramRef, ref, refusal, EXAMPLE_IDS, type OperationSpec } from './operations';
import type { Schema } from './schemas';
import { delivery } from './webhook-paths';

type Op = (spec: OperationSpec) => Schema;

const { applicationId: APPLICATION_ID, at: AT } = EXAMPLE_IDS;
const REFERENCE = '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a';
const REFERRAL_ID = '5e4d3c2b-1a09-4f8e-8d7c-6b5a4f3e2d1c';
const TAGS = { campaign: 'spring-2026', channel: 'email' };
/** The day the examples' refusals are worked out on, so the documents do not change with the clock. */
const EXAMPLE_DAY = new Date('2026-11-25T00:00:00Z');

export const LENDER_SECURITY: Record<string, Schema> = {
  lenderKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'Lender key',
    description:
      'For lenders, on the lender route only: `Authorization: Bearer lm_lender_sandbox_…`. A partner key is refused there, and a lender key everywhere else.',
  },
};

export const LENDERS_TAG = {
  name: 'Lenders',
  description:
    'For lenders: each referral as a lead, pulled or pushed as `lead.created`, and what became of it. Served at `/api/lender/v1` on this listener, with a lender key.',
};

/** Request examples of the lender route: each is checked against its schema and the domain's validator by the tests. */
export const EXAMPLES_LENDER = {
  started: {
    reference: REFERENCE,
    eventId: 'hb-20261120-0001',
    type: 'application_started',
    occurredAt: '2026-11-20T01:00:00Z',
  },
  declined: {
    reference: REFERENCE,
    eventId: 'hb-20261120-0002',
    type: 'declined',
    occurredAt: '2026-11-20T02:00:00Z',
    declineReason: 'affordability',
  },
  funded: {
    reference: REFERENCE,
    eventId: 'hb-20261121-0007',
    type: 'funded',
    occurredAt: '2026-11-21T04:30:00+10:00',
    fundedAmount: 15000,
    fundedAt: '2026-11-21T04:30:00+10:00',
  },
};

/** The servers of the lender API on the listener whose root is `rootServers`. */
export const lenderServers = (rootServers: Schema[]): Schema[] =>
  rootServers.map((server) => ({
    ...server,
    url: `${String(server.url)}${LENDER_BASE_PATH}`,
    description: 'The lender API on this listener.',
  }));

/** `POST /outcomes`, served at the lender base path of the listener whose root is `rootServers`. */
export function lenderPaths(op: Op, rootServers: Schema[]): Record<string, Schema> {
  const servers = lenderServers(rootServers);
  return {
    '/outcomes': {
      servers,
      post: op({
        operationId: 'reportOutcome',
        summary: 'Report what became of a referral',
        description:
          "The referral is named by the `lm_ref` its tracking redirect gave you; another lender's reference, or none, is 404. " +
          'Events may arrive out of order: each is kept, and the outcome is the latest by `occurredAt`, provided each step in that order is allowed ' +
          '(a referral may start, be approved, declined, funded or withdrawn; an approval may still be declined, withdrawn or cancelled; a funded loan may only be cancelled). ' +
          'An event the lifecycle forbids where it falls is 409 `OUTCOME_TRANSITION_INVALID`, and nothing is stored. ' +
          'The same `eventId` again answers the first answer (`Idempotency-Replayed: true`); with other content, 422 `IDEMPOTENCY_KEY_REUSED`. ' +
          'A sandbox lender key reaches sandbox referrals only.',
        tags: ['Lenders'],
        security: [{ lenderKey: [] }],
        requestBody: { schema: ref('OutcomeEventRequest'), examples: EXAMPLES_LENDER },
        success: {
          status: 201,
          description: 'Recorded (or, with `Idempotency-Replayed: true`, recorded before).',
          data: ref('OutcomeRecorded'),
          headers: { 'Idempotency-Replayed': headerRef('IdempotencyReplayed') },
          examples: { default: { outcomeId: APPLICATION_ID, referralId: REFERRAL_ID, status: 'funded' } },
        },
        errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'OUTCOME_TRANSITION_INVALID', 'IDEMPOTENCY_KEY_REUSED'],
        examples: [
          refusal(validateOutcomeEvent({ ...EXAMPLES_LENDER.declined, declineReason: 'mood' }, EXAMPLE_DAY)),
          refusal(validateOutcomeEvent({ ...EXAMPLES_LENDER.started, fundedAmount: 100 }, EXAMPLE_DAY)),
          { code: 'UNAUTHORIZED', message: 'A valid lender key is required: send Authorization: Bearer <lender key>' },
          { code: 'NOT_FOUND', message: 'reference: names no referral of this lender' },
          {
            code: 'OUTCOME_TRANSITION_INVALID',
            message: 'type: a funded referral cannot become declined; a funded referral may only become cancelled',
          },
          {
            code: 'IDEMPOTENCY_KEY_REUSED',
            message: 'eventId: was already used for a different event; use a new eventId for a new event',
          },
          {
            code: 'RATE_LIMITED',
            message: 'Rate limit exceeded: 120 requests per minute; retry after the time in Retry-After',
          },
        ],
      }),
    },
  };
}

const REFERRAL_EXAMPLE = {
  referralId: REFERRAL_ID,
  applicationId: APPLICATION_ID,
  offerId: REFERENCE,
  lender: { id: 'harbour-bank', name: 'Harbour Bank' },
  product: { id: 'harbour-personal-fixed', name: 'Fixed Rate Personal Loan' },
  referredAt: AT,
  clientTags: TAGS,
  outcome: { status: 'funded', updatedAt: '2026-11-25T01:00:00.000Z', fundedAmount: 15000 },
  commission: { amount: 375, currency: 'AUD' },
};

const reportParameters: Schema[] = [
  {
    name: 'from',
    in: 'query',
    description: 'The first day, `YYYY-MM-DD` (UTC), included. Default: 29 days before `to`.',
    schema: { type: 'string', format: 'date', maxLength: 10 },
  },
  {
    name: 'to',
    in: 'query',
    description: 'The last day, `YYYY-MM-DD` (UTC), included; at most 366 days after `from`. Default: today.',
    schema: { type: 'string', format: 'date', maxLength: 10 },
  },
  {
    name: 'groupBy',
    in: 'query',
    description:
      '`day` (the default: every day of the window, zeros included), `lender`, `product`, or `tag:<key>` (the value of one of your `clientTags`).',
    schema: { type: 'string', pattern: '^(day|lender|product|tag:[A-Za-z0-9_.-]{1,32})$', maxLength: 36 },
  },
];

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
    },
  ],
};

/** `GET /referrals` and `GET /reports/referrals`, the same on both contracts (under each one's base path). */
export function referralPaths(op: Op): Record<string, Schema> {
  return {
    '/referrals': {
      get: op({
        operationId: 'listReferrals',
        summary: 'Referrals of your applicants',
        description:
          'Newest first, in pages; the cursor keeps pages stable while new clicks arrive. Each carries your `clientTags`, what the lender reported (`outcome`) and the commission it earned.',
        tags: ['Referrals'],
        parameters: [paramRef('Limit'), paramRef('Cursor')],
        success: {
          status: 200,
          description: 'A page of referrals.',
          data: ref('ReferralList'),
          examples: { default: { referrals: [REFERRAL_EXAMPLE], nextCursor: null } },
        },
        errors: ['VALIDATION_ERROR'],
        examples: [refusal(parsePageLimit('500')), refusal(checkCursorText('A'.repeat(101)))],
      }),
    },
    '/reports/referrals': {
      get: op({
        operationId: 'referralReport',
        summary: 'Your referrals and what became of them, grouped',
        description:
          'Referrals made in the window (whole days, UTC), grouped, with how many the lenders started, approved and declined, the funded loans that stand, their amount and your commission (AUD). ' +
          'JSON by default; with `Accept: text/csv`, CSV with the same columns (amounts with two decimals).',
        tags: ['Referrals'],
        parameters: reportParameters,
        success: {
          status: 200,
          description: 'The report.',
          content: {
            'application/json': {
              schema: envelope(ref('ReferralReport')),
              examples: { default: { value: { success: true, data: REPORT_EXAMPLE } } },
            },
            'text/csv': {
              schema: { type: 'string' },
              example:
                'group,referrals,started,approved,declined,funded,fundedAmount,commission\r\n2026-11-24,12,7,4,2,2,27500.00,612.50\r\n',
            },
          },
        },
        errors: ['VALIDATION_ERROR'],
        examples: [
          refusal(reportWindow({ from: '2026-11-02', to: '2026-11-01' }, EXAMPLE_DAY)),
          refusal(reportGrouping('week')),
        ],
      }),
    },
  };
}

export function lifecycleWebhookEvents(): Record<string, Schema> {
  return {
    [OUTCOME_CHANGED_EVENT]: delivery(
      'referralOutcomeChanged',
      "A referral's outcome changed",
      'ReferralOutcomeChangedEvent',
      {
        type: OUTCOME_CHANGED_EVENT,
        timestamp: AT,
        data: {
          referralId: REFERRAL_ID,
          applicationId: APPLICATION_ID,
          lenderId: 'harbour-bank',
          status: 'funded',
          previousStatus: 'approved',
          clientTags: TAGS,
        },
      },
    ),
  };
}
