/**
 * Lenders mortgage insurance: the catalogue's premium tables (a percentage of the loan by LVR and amount) and
 * their look-ups. LVR bounds are compared as `amount × 100` against `bound × value`, exact at a bound.
 */
import type { HomeProductDefinition, LmiTableDefinition } from './catalogue-schema';

/** An LMI table with the premiums as fractions of the loan (`premiumRate[row][column]`). */
export type LmiTable = Readonly<ReturnType<typeof compileLmiTable>>;

export function compileLmiTable(name: string, def: LmiTableDefinition) {
  return {
    name,
    loanAmountUpTo: def.loanAmountUpTo,
    lvrAbove: def.rows.map((r) => r.lvrAbovePercent),
    lvrUpTo: def.rows.map((r) => r.lvrUpToPercent),
    premiumRate: def.rows.map((r) => r.premiumPercent.map((p) => p / 100)),
  };
}

/** Whether `product` needs a table: some occupancy lends above the LVR where LMI starts. */
export function needsLmi(product: HomeProductDefinition): boolean {
  return highestLvr(product) > product.home.lmiAboveLvrPercent;
}

export const highestLvr = (product: HomeProductDefinition): number =>
  Math.max(...Object.values(product.home.occupancy).map((o) => o?.maxLvrPercent ?? 0));

/** The column of the table for a loan of `amount` (-1 when it is above the last). */
export const lmiColumnOf = (t: LmiTable, amount: number): number =>
  t.loanAmountUpTo.findIndex((upTo) => amount <= upTo);

/** The row of the table for a loan of `amount` against `value`, and its premium as a fraction of the loan. */
export function lmiCellOf(t: LmiTable, amount: number, value: number): { row: number; rate: number } | undefined {
  const scaled = amount * 100;
  const row = t.lvrUpTo.findIndex((upTo, r) => scaled > t.lvrAbove[r] * value && scaled <= upTo * value);
  const column = lmiColumnOf(t, amount);
  return row < 0 || column < 0 ? undefined : { row, rate: t.premiumRate[row][column] };
}

/**
 * The largest loan whose amount plus its capitalised premium is at most `financedLimit`, for a property
 * of `value` and LMI above `aboveLvr` percent. Premiums never fall as the LVR or the amount rise (the
 * table's rules), so every smaller loan fits too; the answer is the best over the table's cells.
 */
export function largestLoanWithPremium(t: LmiTable, aboveLvr: number, value: number, financedLimit: number): number {
  let best = Math.min(financedLimit, (aboveLvr * value) / 100);
  for (let r = 0; r < t.lvrUpTo.length; r++) {
    const low = (Math.max(t.lvrAbove[r], aboveLvr) * value) / 100;
    const high = (t.lvrUpTo[r] * value) / 100;
    for (let c = 0; c < t.loanAmountUpTo.length; c++) {
      const cellLow = Math.max(low, c > 0 ? t.loanAmountUpTo[c - 1] : 0);
      const cellHigh = Math.min(high, t.loanAmountUpTo[c]);
      if (cellHigh <= cellLow) continue;
      const fits = Math.min(cellHigh, financedLimit / (1 + t.premiumRate[r][c]));
      if (fits > cellLow && fits > best) best = fits;
    }
  }
  return best;
}
