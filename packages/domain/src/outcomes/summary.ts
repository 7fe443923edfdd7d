/**
 * What a referral's events come to (read in the order they occurred, a path `lifecyclePath` allowed): its
 * status and when the event that set it occurred, whether the application was ever started (any event)
 * and approved (approved or funded), the funding, and the partner's commission. A funded loan stands
 * unless a cancellation falls within the product's clawback period, which reverses the commission to 0;
 * the commission is null without a funded loan or without terms.
 */
import { commissionCents, withinClawback, type CommissionTerms } from './commission';
import type { LifecycleEvent } from './lifecycle';

/** `ordered`: a non-empty path, in the order the events occurred. `terms`: null when the product states none. */
export function summarise(ordered: readonly LifecycleEvent[], terms: CommissionTerms | null) {
  const last = ordered[ordered.length - 1];
  const funded = ordered.find((e) => e.type === 'funded');
  const cancelled = last.type === 'cancelled' ? last : undefined;
  const fundedAt = funded ? (funded.fundedAt ?? funded.occurredAt) : null;
  // Without terms there is no clawback period to outlast: a cancellation undoes the funding.
  const reversed =
    cancelled !== undefined &&
    (terms === null || withinClawback(terms, fundedAt ?? last.occurredAt, cancelled.occurredAt));
  const fundingStands = funded !== undefined && !reversed;
  const fundedAmountCents = funded?.fundedAmountCents ?? null;
  return {
    status: last.type,
    outcomeAt: last.occurredAt,
    started: true,
    approved: ordered.some((e) => e.type === 'approved' || e.type === 'funded'),
    fundedAmountCents,
    fundedAt,
    fundingStands,
    commissionCents:
      funded === undefined || terms === null || fundedAmountCents === null
        ? null
        : fundingStands
          ? commissionCents(terms, fundedAmountCents)
          : 0,
  };
}
