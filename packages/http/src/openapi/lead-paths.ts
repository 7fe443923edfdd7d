/** The lender's leads, its endpoints (from the listener's root: `/webhooks` is the partners') and `lead.created`. */
import { LEAD_CREATED_EVENT, invalidReference, parsePageLimit, validateLenderWebhookRequest } from '@loanmatch/domain';
import { LENDER_BASE_PATH } from '../auth';
import type { PathGroup } from './document';
import { LENDERS } from './lifecycle';
import { EXAMPLE_IDS, NO_STORE, refusal } from './operations';
import type { EventSpec } from './webhook-paths';

const REFERENCE = '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a';
const security = [{ lenderKey: [] }];
const SUMMARY = {
  reference: REFERENCE,
  referralId: '5e4d3c2b-1a09-4f8e-8d7c-6b5a4f3e2d1c',
  referredAt: EXAMPLE_IDS.at,
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
    applicationId: EXAMPLE_IDS.applicationId,
    formType: 'personal',
    steps: { '1': { loanAmount: 15000 }, '2': { loanPurpose: 'debt_consolidation', loanTerm: 5 } },
  },
  applicant: { firstName: 'Jordan', lastName: 'Citizen', email: 'jordan@example.com', mobileNumber: '0412345678' },
  consent: { consentVersion: 'au-2026-11-23', givenAt: EXAMPLE_IDS.at, consentMarketing: false },
};

/** `GET /leads` and `GET /leads/{reference}`, beside `POST /outcomes`. */
export const LEAD_OPERATIONS: PathGroup['operations'] = {
  'GET /leads': {
    operationId: 'listLeads',
    summary: 'Your leads',
    description:
      'Referrals made to you after `since` (default and earliest: the retention, 30 days), newest first, in pages. Summaries: read each lead by its reference.',
    security,
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
    security,
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
};

/** The lender's endpoints for `lead.created`. */
export const LENDER_WEBHOOKS: PathGroup = {
  tag: LENDERS.tag,
  root: '',
  operations: {
    [`POST ${LENDER_BASE_PATH}/webhooks`]: {
      operationId: 'registerLenderWebhook',
      summary: 'Register an endpoint for your leads',
      description:
        'With your lender key: `lead.created`, the lead as `GET /leads/{reference}` answers it, for each new referral, signed and retried as partners’ webhooks are. Answers the signing secret, shown this once.',
      security,
      body: { schema: 'LenderWebhookRequest', examples: { default: { url: 'https://lender.example.com/leads' } } },
      success: { status: 201, description: 'Registered.', data: 'RegisteredWebhook', headers: NO_STORE },
      errors: [refusal(validateLenderWebhookRequest({ url: '' })), 'WEBHOOK_LIMIT_REACHED'],
    },
    [`GET ${LENDER_BASE_PATH}/webhooks`]: {
      operationId: 'listLenderWebhooks',
      summary: 'Your lead endpoints',
      description: 'Oldest first, never a secret.',
      security,
      success: { description: 'The endpoints.', data: 'WebhookList' },
    },
    [`DELETE ${LENDER_BASE_PATH}/webhooks/{webhookId}`]: {
      operationId: 'deleteLenderWebhook',
      summary: 'Delete a lead endpoint',
      description: 'Nothing more is sent to it.',
      security,
      parameters: ['WebhookId'],
      success: { description: 'Deleted.', data: 'DeletedWebhook' },
      errors: [{ code: 'NOT_FOUND', message: 'Webhook not found' }],
    },
  },
};

/** What a lender's endpoint receives. */
export const LEAD_EVENTS: EventSpec[] = [
  {
    type: LEAD_CREATED_EVENT,
    operationId: 'leadCreated',
    summary: 'A new lead',
    schema: 'LeadCreatedEvent',
    data: LEAD,
  },
];
