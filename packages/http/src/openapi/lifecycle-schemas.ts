/**
 * The schemas of the referral's life after the click (CONTRACT.md "Referral lifecycle"): the lender's event
 * (the domain's own schema, translated) and its answer, what `GET /referrals` adds to a referral, the
 * referral report, and the `referral.outcome_changed` webhook. Answers are checked against them by the
 * front-ends' conformance tests.
 */
import {
  CLIENT_TAGS_MAX_ENTRIES,
  DECLINE_REASONS,
  OUTCOME_TYPES,
  clientTagsSchema,
  outcomeEventSchema,
} from '@loanmatch/domain';
import { dateTime, nullable, uuid } from './components';
import { toOpenApiSchema, type Schema } from './schema-translation';

const object = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  ...extra,
});
const outcomeStatus: Schema = { type: 'string', enum: [...OUTCOME_TYPES] };
const count: Schema = { type: 'integer', format: 'int32', minimum: 0 };
const amount = (description: string): Schema => ({ type: 'number', minimum: 0, description });
const clientTags: Schema = {
  type: 'object',
  additionalProperties: { type: 'string' },
  maxProperties: CLIENT_TAGS_MAX_ENTRIES,
  description: 'Your `clientTags` of the application; `{}` when none.',
};

/** What `GET /referrals` adds to each referral. */
export const REFERRAL_LIFECYCLE_PROPERTIES: Record<string, Schema> = {
  clientTags,
  outcome: nullable(
    object(
      {
        status: outcomeStatus,
        updatedAt: { ...dateTime, description: 'When the event that set the status occurred.' },
        fundedAmount: nullable(amount('AUD, to the cent; null until funded.')),
      },
      { description: 'What the lender reported: the latest status by when it occurred. Null until it reports.' },
    ),
  ),
  commission: nullable(
    object(
      { amount: amount('AUD, to the cent; 0 once clawed back.'), currency: { const: 'AUD' } },
      {
        description:
          'What the funded loan earns you, by the terms of the offer followed. Null until funded; 0 once a cancellation within the clawback period reversed it.',
      },
    ),
  ),
};

export const LIFECYCLE_SCHEMAS: Record<string, Schema> = {
  ClientTags: { ...toOpenApiSchema(clientTagsSchema), title: 'Your attribution' },
  OutcomeEventRequest: {
    ...toOpenApiSchema(outcomeEventSchema),
    description:
      '`reference` is the `lm_ref` the tracking redirect added to your address. `eventId` is yours, unique among your events: sending it again answers the first answer. ' +
      `\`type\` is one of ${OUTCOME_TYPES.map((t) => `\`${t}\``).join(', ')}; \`declined\` takes a \`declineReason\` (${DECLINE_REASONS.map((r) => `\`${r}\``).join(', ')}), \`funded\` takes \`fundedAmount\` (AUD, to the cent) and \`fundedAt\`. ` +
      'Times carry their offset and may be at most 5 minutes ahead of ours. Events may be sent in any order.',
  },
  OutcomeRecorded: object({
    outcomeId: uuid,
    referralId: uuid,
    status: {
      ...outcomeStatus,
      description: "The referral's outcome with this event counted: the latest by `occurredAt`.",
    },
  }),
  ReferralReportRow: object(
    {
      group: nullable({
        type: 'string',
        description:
          'The day (`YYYY-MM-DD`, UTC), lender id, product id or tag value; null for referrals without the tag.',
      }),
      referrals: count,
      started: { ...count, description: 'The lender reported the application (any event).' },
      approved: { ...count, description: 'Approved at some point (approved or funded).' },
      declined: { ...count, description: 'Declined now.' },
      funded: { ...count, description: 'Funded loans that stand (not cancelled within the clawback period).' },
      fundedAmount: amount('The sum of those loans, AUD.'),
      commission: amount('What they earn you, AUD.'),
    },
    { description: 'Referrals made in the window, in this group, and what became of them.' },
  ),
  ReferralReport: object({ rows: { type: 'array', items: { $ref: '#/components/schemas/ReferralReportRow' } } }),
  ReferralOutcomeChangedEvent: object({
    type: { const: 'referral.outcome_changed' },
    timestamp: dateTime,
    data: object({
      referralId: uuid,
      applicationId: uuid,
      lenderId: { type: 'string' },
      status: outcomeStatus,
      previousStatus: { type: ['string', 'null'], enum: [...OUTCOME_TYPES, null], description: 'null for the first.' },
      clientTags,
    }),
  }),
};
