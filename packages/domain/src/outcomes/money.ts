/** Money is kept in whole cents from the moment it is read; dollars appear only at the edges. */

/** Whether a number of dollars is a whole number of cents (0.29 is; 1.005 is not). */
export function isWholeCents(dollars: number): boolean {
  return Number.isFinite(dollars) && Math.abs(dollars) < 1e13 && Number(dollars.toFixed(2)) === dollars;
}

export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function toDollars(cents: number): number {
  return cents / 100;
}

/** Counts with their sums in dollars, in the same places: the sums come just before `duplicates`. */
export function inDollars<T extends { fundedAmountCents: number; commissionCents: number; duplicates: number }>(
  row: T,
) {
  const { fundedAmountCents, commissionCents, duplicates, ...counts } = row;
  return { ...counts, fundedAmount: toDollars(fundedAmountCents), commission: toDollars(commissionCents), duplicates };
}

export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
