/**
 * The referral's life after the click in the documents (CONTRACT.md "Referral lifecycle"): the lender
 * route on Variant A's listener, and the schemas of its request and answer. The request schema is the
 * domain's own, translated, so a bound changed there is a bound changed here.
 */
import { DECLINE_REASONS, OUTCOME_TYPES, outcomeEventSchema } from '@loanmatch/domain';
import { LENDER_BASE_PATH } from '@loanmatch/http';
import { headerRef, ref, uuid } from './components';
import { EXAMPLE_IDS, operation } from './operations';
import { toOpenApiSchema, type Schema } from './schema-translation';

const REFERENCE = '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a';
const REFERRAL_ID = '5e4d3c2b-1a09-4f8e-8d7c-6b5a4f3e2d1c';

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
    'For lenders: what became of each referral. Served at `/api/lender/v1` on this listener, with a lender key.',
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

export const LIFECYCLE_SCHEMAS: Record<string, Schema> = {
  OutcomeEventRequest: {
    ...toOpenApiSchema(outcomeEventSchema),
    description:
      '`reference` is the `lm_ref` the tracking redirect added to your address. `eventId` is yours, unique among your events: sending it again answers the first answer. ' +
      `\`type\` is one of ${OUTCOME_TYPES.map((t) => `\`${t}\``).join(', ')}; \`declined\` takes a \`declineReason\` (${DECLINE_REASONS.map((r) => `\`${r}\``).join(', ')}), \`funded\` takes \`fundedAmount\` (AUD, to the cent) and \`fundedAt\`. ` +
      'Times carry their offset and may be at most 5 minutes ahead of ours. Events may be sent in any order.',
  },
  OutcomeRecorded: {
    type: 'object',
    properties: {
      outcomeId: uuid,
      referralId: uuid,
      status: {
        type: 'string',
        enum: [...OUTCOME_TYPES],
        description: "The referral's outcome with this event counted: the latest by `occurredAt`.",
      },
    },
    required: ['outcomeId', 'referralId', 'status'],
  },
};

export function lenderPaths(): Record<string, Schema> {
  return {
    '/outcomes': {
      servers: [{ url: LENDER_BASE_PATH, description: 'The lender API on this listener.' }],
      post: operation({
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
          examples: { default: { outcomeId: EXAMPLE_IDS.applicationId, referralId: REFERRAL_ID, status: 'funded' } },
        },
        errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'OUTCOME_TRANSITION_INVALID', 'IDEMPOTENCY_KEY_REUSED'],
      }),
    },
  };
}
