/**
 * A referral's lifecycle as its lender reports it. Events may arrive in any order; the outcome is what
 * they come to read in the order they occurred, and an event that would break that path is refused.
 */
import { commissionCents, withinClawback, type CommissionTerms } from './commission';

export const OUTCOME_TYPES = Object.freeze([
  'application_started',
  'approved',
  'declined',
  'funded',
  'withdrawn',
  'cancelled',
] as const);
export type OutcomeType = (typeof OUTCOME_TYPES)[number];

export const DECLINE_REASONS = Object.freeze([
  'credit_history',
  'affordability',
  'employment',
  'identity',
  'policy',
  'other',
] as const);
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** What may follow what: not every lender reports every stage, and an approval can still fall through. */
export const ALLOWED_NEXT: Readonly<Record<OutcomeType | 'none', readonly OutcomeType[]>> = Object.freeze({
  none: ['application_started', 'approved', 'declined', 'funded', 'withdrawn'],
  application_started: ['approved', 'declined', 'funded', 'withdrawn'],
  approved: ['funded', 'declined', 'withdrawn', 'cancelled'],
  funded: ['cancelled'],
  declined: [],
  withdrawn: [],
  cancelled: [],
});

/** Events of one instant are read in the order a loan moves through its stages. */
const STAGE: Readonly<Record<OutcomeType, number>> = {
  application_started: 0,
  approved: 1,
  declined: 2,
  withdrawn: 2,
  funded: 3,
  cancelled: 4,
};

export interface LifecycleEvent {
  type: OutcomeType;
  occurredAt: Date;
  fundedAmountCents: number | null;
  fundedAt: Date | null;
  /** Arrival order, the last tie-breaker. */
  seq: number;
}

export type Path =
  | { ok: true; events: LifecycleEvent[] }
  /** `from` cannot become `to.type`: `to` is the event at which the path breaks. */
  | { ok: false; from: OutcomeType | 'none'; to: LifecycleEvent };

export function lifecyclePath(events: readonly LifecycleEvent[]): Path {
  const ordered = [...events].sort(
    (a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || STAGE[a.type] - STAGE[b.type] || a.seq - b.seq,
  );
  let state: OutcomeType | 'none' = 'none';
  for (const event of ordered) {
    if (!ALLOWED_NEXT[state].includes(event.type)) return { ok: false, from: state, to: event };
    state = event.type;
  }
  return { ok: true, events: ordered };
}

export function transitionText(from: OutcomeType | 'none', to: OutcomeType): string {
  if (from === 'none') return `a referral cannot be ${to} first`;
  const allowed = ALLOWED_NEXT[from];
  const a = from === 'application_started' || from === 'approved' ? 'an' : 'a';
  const next =
    allowed.length === 0 ? `${from} is final` : `${a} ${from} referral may only become ${allowed.join(', ')}`;
  return `${a} ${from} referral cannot become ${to}; ${next}`;
}

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
