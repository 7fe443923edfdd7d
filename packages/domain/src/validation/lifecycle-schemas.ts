/**
 * A lender's outcome event (`POST /api/lender/v1/outcomes`, CONTRACT.md "Referral lifecycle"): the one
 * place its fields' rules are written. The reference names a referral (the `lm_ref` its tracking redirect
 * gave the lender); the event id is the lender's own, unique per lender, and makes a retry safe.
 */
import { deepFreeze } from '../deep-freeze';
import { DECLINE_REASONS, OUTCOME_TYPES } from '../outcomes/lifecycle';
import type { JsonSchema, ObjectSchema } from './schema-builders';

/** Funded amounts: a cent up to the largest loan any product may write. */
export const FUNDED_AMOUNT_BOUNDS = Object.freeze({ minimum: 0.01, maximum: 10_000_000 });

const timestamp: JsonSchema = { type: 'string', format: 'date-time', maxLength: 40 };
const whenType = (type: string, required: string[]): JsonSchema => ({
  if: { properties: { type: { const: type } }, required: ['type'] },
  then: { required, 'x-message': `is required when type is ${type}` },
});

export const outcomeEventSchema: ObjectSchema = {
  type: 'object',
  properties: {
    reference: { type: 'string', minLength: 1, maxLength: 100 },
    eventId: {
      type: 'string',
      minLength: 1,
      maxLength: 128,
      pattern: '^[\\x21-\\x7e]+$',
      'x-message': { pattern: 'must be printable ASCII without spaces' },
    },
    type: { type: 'string', enum: OUTCOME_TYPES },
    occurredAt: timestamp,
    fundedAmount: { type: 'number', ...FUNDED_AMOUNT_BOUNDS, 'x-cents': true },
    fundedAt: timestamp,
    declineReason: { type: 'string', enum: DECLINE_REASONS },
  },
  required: ['reference', 'eventId', 'type', 'occurredAt'],
  additionalProperties: false,
  allOf: [whenType('funded', ['fundedAmount', 'fundedAt']), whenType('declined', ['declineReason'])],
  'x-message': { type: 'must be a JSON object' },
};

deepFreeze(outcomeEventSchema);
