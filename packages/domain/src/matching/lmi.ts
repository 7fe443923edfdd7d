/**
 * Lenders mortgage insurance: the catalogue's premium tables (a percentage of the loan by LVR and loan
 * amount), the rules that make a table usable (no gaps, a higher LVR or a larger loan never cheaper, every
 * LVR and amount of the products that use it covered), and the look-ups matching makes.
 * LVR bounds are compared as `amount × 100` against `bound × value`, so that a loan exactly at a bound is
 * never taken for one a rounding error above it.
 */
import type { HomeProductDefinition, LmiTable, LmiTableDefinition } from './types';

export interface TableViolation {
  /** Path within the table or the product, e.g. `rows.1.lvrAbovePercent`. */
  readonly field: string;
  readonly rule: string;
  readonly text: string;
}

export function compileLmiTable(name: string, def: LmiTableDefinition): LmiTable {
  return {
    name,
    loanAmountUpTo: def.loanAmountUpTo,
    lvrAbove: def.rows.map((r) => r.lvrAbovePercent),
    lvrUpTo: def.rows.map((r) => r.lvrUpToPercent),
    premiumRate: def.rows.map((r) => r.premiumPercent.map((p) => p / 100)),
  };
}

/** What makes one table unusable on its own: a gap, a row or column out of order, a premium missing or cheaper than its neighbour's. */
export function lmiTableViolations(def: LmiTableDefinition): TableViolation[] {
  const out: TableViolation[] = [];
  const amounts = def.loanAmountUpTo;
  for (let c = 1; c < amounts.length; c++)
    if (amounts[c] <= amounts[c - 1])
      out.push({
        field: `loanAmountUpTo.${c}`,
        rule: 'lmiAmountsIncreasing',
        text: `(${amounts[c]}) must be above loanAmountUpTo.${c - 1} (${amounts[c - 1]})`,
      });
  def.rows.forEach((row, r) => {
    if (row.lvrUpToPercent <= row.lvrAbovePercent)
      out.push({
        field: `rows.${r}`,
        rule: 'lmiRowNotEmpty',
        text: `lvrUpToPercent (${row.lvrUpToPercent}) must be above lvrAbovePercent (${row.lvrAbovePercent})`,
      });
    if (row.premiumPercent.length !== amounts.length)
      out.push({
        field: `rows.${r}.premiumPercent`,
        rule: 'lmiPremiumForEveryAmount',
        text: `has ${row.premiumPercent.length} premiums for ${amounts.length} loan amounts in loanAmountUpTo: a gap in the table`,
      });
    for (let c = 1; c < row.premiumPercent.length; c++)
      if (row.premiumPercent[c] < row.premiumPercent[c - 1])
        out.push({
          field: `rows.${r}.premiumPercent.${c}`,
          rule: 'lmiLargerLoanNotCheaper',
          text: `(${row.premiumPercent[c]}) must not be below the premium of a smaller loan (${row.premiumPercent[c - 1]})`,
        });
    const previous = def.rows[r - 1];
    if (previous === undefined) return;
    if (row.lvrAbovePercent !== previous.lvrUpToPercent)
      out.push({
        field: `rows.${r}.lvrAbovePercent`,
        rule: 'lmiRowsContiguous',
        text: `(${row.lvrAbovePercent}) must equal rows.${r - 1}.lvrUpToPercent (${previous.lvrUpToPercent}): LVRs between them would have no premium`,
      });
    row.premiumPercent.forEach((premium, c) => {
      if (c < previous.premiumPercent.length && premium < previous.premiumPercent[c])
        out.push({
          field: `rows.${r}.premiumPercent.${c}`,
          rule: 'lmiHigherLvrNotCheaper',
          text: `(${premium}) must not be below the premium of a lower LVR (rows.${r - 1}: ${previous.premiumPercent[c]})`,
        });
    });
  });
  return out;
}

/** Whether `product` needs a table: some occupancy lends above the LVR where LMI starts. */
export function needsLmi(product: HomeProductDefinition): boolean {
  return highestLvr(product) > product.home.lmiAboveLvrPercent;
}

const highestLvr = (product: HomeProductDefinition): number =>
  Math.max(...Object.values(product.home.occupancy).map((o) => o?.maxLvrPercent ?? 0));

/** What a product needs of its table: every LVR it lends at with LMI, and every amount it lends. */
export function productLmiViolations(product: HomeProductDefinition, def: LmiTableDefinition): TableViolation[] {
  const out: TableViolation[] = [];
  const name = product.home.lmi?.table;
  const from = def.rows[0]?.lvrAbovePercent ?? Number.POSITIVE_INFINITY;
  const to = def.rows.at(-1)?.lvrUpToPercent ?? Number.NEGATIVE_INFINITY;
  const highest = highestLvr(product);
  if (from > product.home.lmiAboveLvrPercent || to < highest)
    out.push({
      field: 'home.lmi.table',
      rule: 'lmiTableCoversLvr',
      text: `LMI table ${name} covers LVRs above ${from}% up to ${to}%, not every LVR from lmiAboveLvrPercent (${product.home.lmiAboveLvrPercent}%) to the product's highest (${highest}%): a gap in the table`,
    });
  const largest = def.loanAmountUpTo.at(-1) ?? 0;
  if (largest < product.loanAmount.max)
    out.push({
      field: 'home.lmi.table',
      rule: 'lmiTableCoversAmount',
      text: `LMI table ${name} covers loans up to ${largest}, not the product's loanAmount.max (${product.loanAmount.max}): a gap in the table`,
    });
  return out;
}

/** The row of the table for a loan of `amount` against `value` (-1 when none holds its LVR). */
export function lmiRowOf(t: LmiTable, amount: number, value: number): number {
  const scaled = amount * 100;
  for (let r = 0; r < t.lvrUpTo.length; r++)
    if (scaled > t.lvrAbove[r] * value && scaled <= t.lvrUpTo[r] * value) return r;
  return -1;
}

/** The column of the table for a loan of `amount` (-1 when it is above the last). */
export function lmiColumnOf(t: LmiTable, amount: number): number {
  for (let c = 0; c < t.loanAmountUpTo.length; c++) if (amount <= t.loanAmountUpTo[c]) return c;
  return -1;
}

/** The row of the table for a loan of `amount` against `value`, and its premium as a fraction of the loan; none outside it. */
export function lmiCellOf(t: LmiTable, amount: number, value: number): { row: number; rate: number } | undefined {
  const row = lmiRowOf(t, amount, value);
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
