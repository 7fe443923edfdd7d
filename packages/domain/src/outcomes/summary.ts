/**
 * What a referral's events come to (read in the order they occurred, a path `lifecyclePath` allowed): its
 * status, whether the application reached started and approved, the funding, and the partner's
 * commission. A funded loan stands unless a cancellation falls within the product's clawback period, which
 * reverses the commission to 0.
 */
import { commissionCents, withinClawback, type CommissionTerms } from './commission';
import type { LifecycleEvent, OutcomeType } from './lifecycle';

export interface OutcomeSummary {
  status: OutcomeType;
  /** When the event that set the status occurred. */
  outcomeAt: Date;
  /** Any event means the lender has the application. */
  started: boolean;
  /** Approved at some point (approved or funded), whatever came after. */
  approved: boolean;
  fundedAmountCents: number | null;
  fundedAt: Date | null;
  /** Funded, and not cancelled within the clawback period. */
  fundingStands: boolean;
  /** Null without a funded loan or without terms; 0 once clawed back. */
  commissionCents: number | null;
}

/** `ordered`: a non-empty path, in the order the events occurred. `terms`: null when the product states none. */
export function summarise(ordered: readonly LifecycleEvent[], terms: CommissionTerms | null): OutcomeSummary {
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
