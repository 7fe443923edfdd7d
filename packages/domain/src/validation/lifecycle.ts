/** Validation of a lender's outcome event (lifecycle-schemas.ts), with the rules that relate its fields. */
import { fail, ok, type FieldViolation, type Result } from '../errors';
import type { DeclineReason, OutcomeType } from '../outcomes/lifecycle';
import { toCents } from '../outcomes/money';
import { outcomeEventSchema } from './lifecycle-schemas';
import { compile, DATE_TIME_TEXT, run } from './validate';

const OUTCOME_EVENT = compile(outcomeEventSchema, 'body');

/** How far ahead of our clock a lender's time may be (clocks differ); further is refused. */
export const OCCURRED_AT_TOLERANCE_MS = 5 * 60 * 1000;

export interface OutcomeEventRequest {
  reference: string;
  eventId: string;
  type: OutcomeType;
  occurredAt: Date;
  fundedAmountCents: number | null;
  fundedAt: Date | null;
  declineReason: DeclineReason | null;
}

const violation = (field: string, rule: string, text: string): FieldViolation => ({
  field,
  rule,
  message: `${field}: ${text}`,
});

/**
 * Validates an outcome event; the value is normalised (amounts in cents, times as dates). Funding fields
 * come only with `funded`, a decline reason only with `declined`; no time may be ahead of `now` by more
 * than `OCCURRED_AT_TOLERANCE_MS`.
 */
export function validateOutcomeEvent(body: unknown, now: Date): Result<OutcomeEventRequest> {
  const request = run(OUTCOME_EVENT, body);
  if (!request.ok) return request;
  const v = request.value as {
    reference: string;
    eventId: string;
    type: OutcomeType;
    occurredAt: string;
    fundedAmount?: number;
    fundedAt?: string;
    declineReason?: DeclineReason;
  };
  const violations: FieldViolation[] = [];
  if (v.type !== 'funded')
    for (const field of ['fundedAmount', 'fundedAt'] as const)
      if (v[field] !== undefined) violations.push(violation(field, 'onlyWhenFunded', 'is only for type funded'));
  if (v.type !== 'declined' && v.declineReason !== undefined)
    violations.push(violation('declineReason', 'onlyWhenDeclined', 'is only for type declined'));
  const latest = now.getTime() + OCCURRED_AT_TOLERANCE_MS;
  const occurredAt = new Date(v.occurredAt);
  const fundedAt = v.fundedAt === undefined ? null : new Date(v.fundedAt);
  for (const [field, at] of [
    ['occurredAt', occurredAt],
    ['fundedAt', fundedAt],
  ] as const)
    if (at && Number.isNaN(at.getTime())) violations.push(violation(field, 'format', DATE_TIME_TEXT));
    else if (at && at.getTime() > latest) violations.push(violation(field, 'notInFuture', 'must not be in the future'));
  if (violations.length > 0) return fail('VALIDATION_ERROR', violations[0].message, violations);
  return ok({
    reference: v.reference,
    eventId: v.eventId,
    type: v.type,
    occurredAt,
    fundedAmountCents: v.fundedAmount === undefined ? null : toCents(v.fundedAmount),
    fundedAt,
    declineReason: v.declineReason ?? null,
  });
}
