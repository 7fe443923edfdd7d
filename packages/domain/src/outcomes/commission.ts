/** A product's commission per funded loan, with a clawback period; worked in whole cents and basis points. */
import { Type, type Static } from '@sinclair/typebox';
import { isWholeCents, toCents } from './money';

/** As a referral keeps it, from the offer the applicant followed. */
export type CommissionTerms = {
  fixedCents: number;
  basisPoints: number;
  capCents: number | null;
  clawbackDays: number;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** As the catalogue states it, in dollars and percent. */
export const commissionSchema = Type.Object(
  {
    fixed: Type.Optional(Type.Number({ minimum: 0, maximum: 100000 })),
    percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    cap: Type.Optional(Type.Number({ minimum: 0, maximum: 1000000 })),
    clawbackDays: Type.Integer({ minimum: 0, maximum: 3650 }),
  },
  { additionalProperties: false },
);
export type CommissionDefinition = Static<typeof commissionSchema>;

/** The rules between its values (checked after the schema). */
export function commissionViolations(
  commission: CommissionDefinition,
  add: (field: string, rule: string, text: string) => void,
): void {
  if (commission.fixed === undefined && commission.percent === undefined)
    add('commission', 'fixedOrPercent', 'must state a fixed amount, a percent, or both');
  for (const name of ['fixed', 'percent', 'cap'] as const) {
    const value = commission[name];
    if (value !== undefined && !isWholeCents(value))
      add(`commission.${name}`, 'twoDecimals', 'must have at most two decimal places');
  }
  if (commission.percent !== undefined && commission.cap === undefined)
    add('commission.cap', 'capWithPercent', 'is required when percent is given');
  if (commission.cap !== undefined && commission.fixed !== undefined && commission.cap < commission.fixed)
    add('commission.cap', 'capNotBelowFixed', `(${commission.cap}) must not be below fixed (${commission.fixed})`);
}

export function commissionTerms(commission: CommissionDefinition): CommissionTerms {
  return {
    fixedCents: toCents(commission.fixed ?? 0),
    basisPoints: Math.round((commission.percent ?? 0) * 100),
    capCents: commission.cap === undefined ? null : toCents(commission.cap),
    clawbackDays: commission.clawbackDays,
  };
}

/** The commission a funded loan of `fundedCents` earns: fixed + percentage (nearest cent, halves up), capped. */
export function commissionCents(terms: CommissionTerms, fundedCents: number): number {
  const percentage = Math.floor((fundedCents * terms.basisPoints + 5000) / 10000);
  const total = terms.fixedCents + percentage;
  return terms.capCents === null ? total : Math.min(total, terms.capCents);
}

export function withinClawback(terms: CommissionTerms, fundedAt: Date, cancelledAt: Date): boolean {
  return cancelledAt.getTime() - fundedAt.getTime() <= terms.clawbackDays * DAY_MS;
}
