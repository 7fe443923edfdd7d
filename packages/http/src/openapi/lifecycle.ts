/**
 * The referral's life after the click: the referrals list and the referral report on both contracts, the
 * lender route on Variant A's listener, and the `referral.outcome_changed` webhook.
 */
import {
  CLIENT_TAG_KEY_MAX_LENGTH,
  CLIENT_TAG_KEY_PATTERN,
  OUTCOME_CHANGED_EVENT,
  REPORT_MAX_DAYS,
  checkCursorText,
  parsePageLimit,
  reportCsv,
  reportGrouping,
  reportWindow,
  validateOutcomeEvent,
} from '@loanmatch/domain';
import { LENDER_BASE_PATH } from '../auth';
import type { PathGroup } from './document';
import { EXAMPLE_IDS, REPLAYED, envelope, ref, refusal } from './operations';
import type { Schema } from './schemas';
import type { EventSpec } from './webhook-paths';

const { applicationId, at } = EXAMPLE_IDS;
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

/** `POST /outcomes`, at the lender base path of Variant A's listener. */
export const LENDERS: PathGroup = {
  tag: {
    name: 'Lenders',
    description:
      'For lenders: each referral as a lead, pulled or pushed as `lead.created`, and what became of it. Served at `/api/lender/v1` on this listener, with a lender key.',
  },
  root: LENDER_BASE_PATH,
  operations: {
    'POST /outcomes': {
      operationId: 'reportOutcome',
      summary: 'Report what became of a referral',
      description:
        'Events may arrive out of order: each is kept, and the outcome is the latest by `occurredAt`, provided each step in that order is allowed ' +
        '(a referral may start, be approved, declined, funded or withdrawn; an approval may still be declined, withdrawn or cancelled; a funded loan may only be cancelled); ' +
        'an event the lifecycle forbids where it falls is refused and nothing is stored. The same `eventId` again answers the first answer. ' +
        'A sandbox lender key reaches sandbox referrals only.',
      security: [{ lenderKey: [] }],
      body: { schema: 'OutcomeEventRequest', examples: EXAMPLES_LENDER },
      success: {
        status: 201,
        description: 'Recorded (or, with `Idempotency-Replayed: true`, recorded before).',
        data: 'OutcomeRecorded',
        headers: REPLAYED,
      },
      errors: [
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
      ],
    },
  },
};

const REFERRAL_EXAMPLE = {
  referralId: REFERRAL_ID,
  applicationId,
  offerId: REFERENCE,
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
        content: {
          'application/json': {
            schema: envelope(ref('ReferralReport')),
            examples: { default: { value: { success: true, data: REPORT_EXAMPLE } } },
          },
          'text/csv': { schema: { type: 'string' }, example: reportCsv(REPORT_EXAMPLE) },
        },
      },
      errors: [
        refusal(reportWindow({ from: '2026-11-02', to: '2026-11-01' }, EXAMPLE_DAY)),
        refusal(reportGrouping('week')),
      ],
    },
  },
};

export const LIFECYCLE_EVENTS: EventSpec[] = [
  {
    type: OUTCOME_CHANGED_EVENT,
    operationId: 'referralOutcomeChanged',
    summary: "A referral's outcome changed",
    schema: 'ReferralOutcomeChangedEvent',
    data: {
      referralId: REFERRAL_ID,
      applicationId,
      lenderId: 'harbour-bank',
      status: 'funded',
      previousStatus: 'approved',
      clientTags: TAGS,
    },
  },
];
