/**
 * The lender route on Variant A's listener: outcomes and leads under the lender base path, the lead
 * endpoints (from the listener's root: `/webhooks` is the partners'), and `lead.created`.
 */
import {
  LEAD_CREATED_EVENT,
  invalidReference,
  parsePageLimit,
  validateLenderWebhookRequest,
  validateOutcomeEvent,
} from '@loanmatch/domain';
import { LENDER_BASE_PATH } from '../auth';
import type { Events, PathGroup } from './document';
import { EXAMPLE_DAY, EXAMPLE_IDS, NO_STORE, REPLAYED, refusal } from './operations';
import type { Schema } from './schemas';

const { applicationId, offerId: reference, referralId, at } = EXAMPLE_IDS;

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
    reference,
    eventId: 'hb-20261120-0001',
    type: 'application_started',
    occurredAt: '2026-11-20T01:00:00Z',
  },
  declined: {
    reference,
    eventId: 'hb-20261120-0002',
    type: 'declined',
    occurredAt: '2026-11-20T02:00:00Z',
    declineReason: 'affordability',
  },
  funded: {
    reference,
    eventId: 'hb-20261121-0007',
    type: 'funded',
    occurredAt: '2026-11-21T04:30:00+10:00',
    fundedAmount: 15000,
    fundedAt: '2026-11-21T04:30:00+10:00',
  },
};

const SUMMARY = {
  reference,
  referralId,
  referredAt: at,
  attribution: 'owner',
  duplicateOf: null,
  product: { id: 'harbour-personal-fixed', name: 'Fixed Rate Personal Loan' },
};
const LEAD = {
  ...SUMMARY,
  offer: {
    interestRate: 9.49,
    comparisonRate: 10.12,
    loanAmount: 15000,
    loanTermMonths: 60,
    monthlyRepayment: 314.9,
    establishmentFee: 250,
    monthlyFee: 5,
    certainty: 'pre_qualified',
    conditions: [],
  },
  application: {
    applicationId,
    formType: 'personal',
    steps: { '1': { loanAmount: 15000 }, '2': { loanPurpose: 'debt_consolidation', loanTerm: 5 } },
  },
  applicant: { firstName: 'Jordan', lastName: 'Citizen', email: 'jordan@example.com', mobileNumber: '0412345678' },
  consent: { consentVersion: 'au-2026-11-23', givenAt: at, consentMarketing: false },
};

/** `POST /outcomes` and the leads, at the lender base path of Variant A's listener. */
export const LENDERS: PathGroup = {
  tag: {
    name: 'Lenders',
    description:
      'For lenders: each referral as a lead, pulled or pushed as `lead.created`, and what became of it. Served at `/api/lender/v1` on this listener, with a lender key.',
  },
  root: LENDER_BASE_PATH,
  security: [{ lenderKey: [] }],
  operations: {
    'POST /outcomes': {
      operationId: 'reportOutcome',
      summary: 'Report what became of a referral',
      description:
        'Events may arrive out of order: each is kept, and the outcome is the latest by `occurredAt`, provided each step in that order is allowed ' +
        '(a referral may start, be approved, declined, funded or withdrawn; an approval may still be declined, withdrawn or cancelled; a funded loan may only be cancelled); ' +
        'an event the lifecycle forbids where it falls is refused and nothing is stored. The same `eventId` again answers the first answer. ' +
        'A sandbox lender key reaches sandbox referrals only.',
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
    'GET /leads': {
      operationId: 'listLeads',
      summary: 'Your leads',
      description:
        'Referrals made to you after `since` (default and earliest: the retention, 30 days), newest first, in pages. Summaries: read each lead by its reference.',
      parameters: [
        { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time', maxLength: 40 } },
        'Limit',
        'Cursor',
      ],
      success: { description: 'A page of leads.', data: 'LeadList' },
      examples: { default: { leads: [SUMMARY], nextCursor: null } },
      errors: [refusal(parsePageLimit('500'))],
    },
    'GET /leads/{reference}': {
      operationId: 'getLead',
      summary: 'Read a lead',
      description:
        "The referral named by the `lm_ref` its tracking redirect gave you: the offer as it was matched, the application's steps 1-4, the applicant's details and the consent given. " +
        "A Variant B application's lead has the same shape. Another lender's reference, or an unknown one, is 404; a lead whose applicant's data was erased 410 `LEAD_ERASED`; one past its retention (30 days by default) 410 `LEAD_EXPIRED`. " +
        'Never a credit score or anything that reveals one. Every lead answered is recorded.',
      parameters: [{ name: 'reference', in: 'path', required: true, schema: { type: 'string', maxLength: 36 } }],
      success: { description: 'The lead.', data: 'Lead' },
      examples: { default: LEAD },
      errors: [
        refusal(invalidReference()),
        { code: 'NOT_FOUND', message: 'reference: names no lead of this lender' },
        'LEAD_ERASED',
        'LEAD_EXPIRED',
      ],
    },
  },
};

/** The lender's endpoints for `lead.created`. */
export const LENDER_WEBHOOKS: PathGroup = {
  tag: LENDERS.tag,
  root: '',
  security: LENDERS.security,
  operations: {
    [`POST ${LENDER_BASE_PATH}/webhooks`]: {
      operationId: 'registerLenderWebhook',
      summary: 'Register an endpoint for your leads',
      description:
        'With your lender key: `lead.created`, the lead as `GET /leads/{reference}` answers it, for each new referral, signed and retried as partners’ webhooks are. Answers the signing secret, shown this once.',
      body: { schema: 'LenderWebhookRequest', examples: { default: { url: 'https://lender.example.com/leads' } } },
      success: { status: 201, description: 'Registered.', data: 'RegisteredWebhook', headers: NO_STORE },
      errors: [refusal(validateLenderWebhookRequest({ url: '' })), 'WEBHOOK_LIMIT_REACHED'],
    },
    [`GET ${LENDER_BASE_PATH}/webhooks`]: {
      operationId: 'listLenderWebhooks',
      summary: 'Your lead endpoints',
      description: 'Oldest first, never a secret.',
      success: { description: 'The endpoints.', data: 'WebhookList' },
    },
    [`DELETE ${LENDER_BASE_PATH}/webhooks/{webhookId}`]: {
      operationId: 'deleteLenderWebhook',
      summary: 'Delete a lead endpoint',
      description: 'Nothing more is sent to it.',
      parameters: ['WebhookId'],
      success: { description: 'Deleted.', data: 'DeletedWebhook' },
      errors: [{ code: 'NOT_FOUND', message: 'Webhook not found' }],
    },
  },
};

/** What a lender's endpoint receives. */
export const LEAD_EVENTS: Events = {
  [LEAD_CREATED_EVENT]: {
    operationId: 'leadCreated',
    summary: 'A new lead',
    schema: 'LeadCreatedEvent',
    data: LEAD,
  },
};
