/**
 * The lender's leads on the lender route of Variant A's listener, its webhook endpoints (documented from
 * the listener's root: `/webhooks` under the partner base path is the partners'), and `lead.created`.
 */
import { LEAD_CREATED_EVENT, invalidLeadEvents, invalidReference, parsePageLimit } from '@loanmatch/domain';
import { LENDER_BASE_PATH } from '../auth';
import { EXAMPLE_IDS, headerRef, paramRef, ref, refusal, type OperationSpec } from './operations';
import { lenderServers } from './lifecycle';
import type { Schema } from './schemas';
import { delivery } from './webhook-paths';

type Op = (spec: OperationSpec) => Schema;

const REFERENCE = '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a';
const tags = ['Lenders'];
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
const NOT_FOUND = { code: 'NOT_FOUND', message: 'reference: names no lead of this lender' } as const;

export function leadPaths(op: Op, rootServers: Schema[]): Record<string, Schema> {
  const servers = lenderServers(rootServers);
  const webhookPath = (path: string, item: Schema) => ({
    [`${LENDER_BASE_PATH}${path}`]: { servers: rootServers, ...item },
  });
  return {
    '/leads': {
      servers,
      get: op({
        operationId: 'listLeads',
        summary: 'Your leads',
        description:
          'Referrals made to you after `since` (default and earliest: the retention, 30 days), newest first, in pages. Summaries: read each lead by its reference.',
        tags,
        security,
        parameters: [
          { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time', maxLength: 40 } },
          paramRef('Limit'),
          paramRef('Cursor'),
        ],
        success: {
          status: 200,
          description: 'A page of leads.',
          data: ref('LeadList'),
          examples: { default: { leads: [SUMMARY], nextCursor: null } },
        },
        errors: ['VALIDATION_ERROR'],
        examples: [refusal(parsePageLimit('500'))],
      }),
    },
    '/leads/{reference}': {
      servers,
      get: op({
        operationId: 'getLead',
        summary: 'Read a lead',
        description:
          "The referral named by the `lm_ref` its tracking redirect gave you: the offer as it was matched, the application's steps 1-4, the applicant's details and the consent given. " +
          "A Variant B application's lead has the same shape. Another lender's reference, or an unknown one, is 404; a lead whose applicant's data was erased 410 `LEAD_ERASED`; one past its retention (30 days by default) 410 `LEAD_EXPIRED`. " +
          'Never a credit score or anything that reveals one. Every lead answered is recorded.',
        tags,
        security,
        parameters: [
          { name: 'reference', in: 'path', required: true, description: 'The `lm_ref`.', schema: { type: 'string' } },
        ],
        success: { status: 200, description: 'The lead.', data: ref('Lead'), examples: { default: LEAD } },
        errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'LEAD_ERASED', 'LEAD_EXPIRED'],
        examples: [refusal(invalidReference()), NOT_FOUND],
      }),
    },
    ...webhookPath('/webhooks', {
      post: op({
        operationId: 'registerLenderWebhook',
        summary: 'Register an endpoint for your leads',
        description:
          'On the lender route, with your lender key: `lead.created`, the lead as `GET /leads/{reference}` answers it, for each new referral, signed and retried as partners’ webhooks are. Answers the signing secret, shown this once.',
        tags,
        security,
        requestBody: {
          schema: {
            type: 'object',
            required: ['url'],
            properties: {
              url: { type: 'string', maxLength: 2048 },
              events: { type: 'array', items: { const: LEAD_CREATED_EVENT }, minItems: 1, maxItems: 20 },
            },
          },
          examples: { default: { url: 'https://lender.example.com/loanmatch-leads' } },
        },
        success: {
          status: 201,
          description: 'Registered.',
          data: ref('RegisteredWebhook'),
          headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
        },
        errors: ['VALIDATION_ERROR', 'WEBHOOK_LIMIT_REACHED'],
        examples: [refusal(invalidLeadEvents())],
      }),
      get: op({
        operationId: 'listLenderWebhooks',
        summary: 'Your lead endpoints',
        description: 'Oldest first, never a secret.',
        tags,
        security,
        success: { status: 200, description: 'The endpoints.', data: ref('WebhookList') },
      }),
    }),
    ...webhookPath('/webhooks/{webhookId}', {
      delete: op({
        operationId: 'deleteLenderWebhook',
        summary: 'Delete a lead endpoint',
        description: 'Nothing more is sent to it.',
        tags,
        security,
        parameters: [paramRef('WebhookId')],
        success: { status: 200, description: 'Deleted.', data: ref('DeletedWebhook') },
        errors: ['NOT_FOUND'],
        examples: [{ code: 'NOT_FOUND', message: 'Webhook not found' }],
      }),
    }),
  };
}

/** What a lender's endpoint receives. */
export const leadWebhookEvents = (): Record<string, Schema> => ({
  [LEAD_CREATED_EVENT]: delivery('leadCreated', 'A new lead', 'LeadCreatedEvent', {
    type: LEAD_CREATED_EVENT,
    timestamp: EXAMPLE_IDS.at,
    data: LEAD,
  }),
});
