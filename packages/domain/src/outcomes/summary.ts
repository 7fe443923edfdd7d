import { commissionCents, withinClawback, type CommissionTerms } from './commission';
import type { LifecycleEvent } from './lifecycle';

/**
 * What a path `lifecyclePath` allowed (non-empty) comes to. A funded loan stands unless a cancellation
 * falls within the clawback period, which reverses the commission to 0; null without funding or terms.
 */
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
