/**
 * The catalogue's rules between values, checked once its JSON Schema passed: ids unique and known, min ≤ max,
 * bands priced in order, LMI tables without gaps. Each violation names its owner and the rule.
 */
import type { FieldViolation } from '../errors';
import { commissionViolations } from '../outcomes/commission';
import { highestLvr, needsLmi } from './lmi';
import {
  BANDS_BEST_FIRST,
  type CatalogueFile,
  type HomeProductDefinition,
  type LmiTableDefinition,
} from './catalogue-schema';

type Add = (field: string, rule: string, text: string) => void;

/** `owner` reads `product <id>`, `lender <id>`, `serviceability policy <id>`, `LMI table <name>` or `catalogue`. */
export function violation(owner: string, field: string, rule: string, text: string): FieldViolation {
  const where = field === '' ? owner : `${owner}: ${field}`;
  const cut = owner.lastIndexOf(' ');
  const root = cut < 0 ? '' : `${owner.slice(0, cut).replace(/ /g, '_')}[${owner.slice(cut + 1)}]`;
  return { field: [root, field].filter((s) => s !== '').join('.') || 'catalogue', rule, message: `${where}: ${text}` };
}

export function semanticViolations(file: CatalogueFile): FieldViolation[] {
  const out: FieldViolation[] = [];
  const adder =
    (owner: string): Add =>
    (field, rule, text) =>
      out.push(violation(owner, field, rule, text));
  for (const [name, table] of Object.entries(file.lmiTables)) lmiTableViolations(table, adder(`LMI table ${name}`));
  const lenderIds = new Set<string>();
  for (const lender of file.lenders) {
    if (lenderIds.has(lender.id)) adder(`lender ${lender.id}`)('id', 'unique', 'appears more than once');
    lenderIds.add(lender.id);
  }
  const productIds = new Set<string>();
  for (const p of file.products) {
    const add = adder(`product ${p.id}`);
    if (productIds.has(p.id)) add('id', 'unique', 'appears more than once');
    productIds.add(p.id);
    if (!lenderIds.has(p.lenderId)) add('lenderId', 'lenderExists', `no lender ${p.lenderId} in the catalogue`);
    if (!Object.hasOwn(file.serviceabilityPolicies, p.serviceability))
      add('serviceability', 'policyExists', `no serviceability policy ${p.serviceability} in the catalogue`);
    for (const name of ['loanAmount', 'loanTermYears'] as const) {
      const { min, max } = p[name];
      if (min > max) add(name, 'minNotAboveMax', `min (${min}) must not exceed max (${max})`);
    }
    // Every band at or above the minimum band is priced, every band below it declined, and a worse band is never cheaper.
    const minRank = BANDS_BEST_FIRST.indexOf(p.minimumBand);
    let previous: { band: string; rate: number } | undefined;
    BANDS_BEST_FIRST.forEach((band, rank) => {
      const rate = p.rates[band];
      const field = `rates.${band}`;
      if (rank <= minRank && rate === 'decline')
        add(field, 'pricedAtOrAboveMinimumBand', `must be priced: ${band} is at or above minimumBand ${p.minimumBand}`);
      if (rank > minRank && rate !== 'decline')
        add(field, 'declinedBelowMinimumBand', `must be "decline": ${band} is below minimumBand ${p.minimumBand}`);
      if (typeof rate !== 'number') return;
      if (previous !== undefined && rate < previous.rate) {
        const text = `${rate} must not be below rates.${previous.band} (${previous.rate}): a worse band is never cheaper`;
        add(field, 'worseBandNotCheaper', text);
      }
      previous = { band, rate };
    });
    if (p.loanType === 'home') {
      const hasIo = p.home.repaymentTypes.includes('interest_only');
      const io = p.home.interestOnly;
      if (hasIo && io === undefined)
        add('home.interestOnly', 'interestOnlyTerms', 'is required when repaymentTypes has interest_only');
      if (!hasIo && io !== undefined)
        add('home.interestOnly', 'interestOnlyTerms', 'is set but repaymentTypes has no interest_only');
      if (hasIo && io !== undefined && io.maxYears >= p.loanTermYears.max) {
        const text = `(${io.maxYears}) must be less than loanTermYears.max (${p.loanTermYears.max})`;
        add('home.interestOnly.maxYears', 'interestOnlyShorterThanTerm', text);
      }
      const lmi = p.home.lmi;
      if (lmi === undefined) {
        if (needsLmi(p)) {
          const text = `is required: an occupancy lends above lmiAboveLvrPercent (${p.home.lmiAboveLvrPercent}%), so its premium needs a table`;
          add('home.lmi', 'lmiTableRequired', text);
        }
      } else if (!Object.hasOwn(file.lmiTables, lmi.table))
        add('home.lmi.table', 'lmiTableExists', `no LMI table ${lmi.table} in the catalogue`);
      else if (needsLmi(p)) productLmiViolations(p, file.lmiTables[lmi.table], add);
    }
    if (p.commission) commissionViolations(p.commission, add);
    if (p.loanType === 'car' && p.car.balloon.maxPercent > 0 && p.car.balloon.maxTermYears < p.loanTermYears.min) {
      const text = `(${p.car.balloon.maxTermYears}) allows a balloon on no term of the product (loanTermYears.min ${p.loanTermYears.min})`;
      add('car.balloon.maxTermYears', 'balloonTermReachable', text);
    }
  }
  return out;
}

/** What makes one LMI table unusable on its own: a gap, a row or column out of order, a premium missing or cheaper than its neighbour's. */
function lmiTableViolations(def: LmiTableDefinition, add: Add): void {
  const amounts = def.loanAmountUpTo;
  for (let c = 1; c < amounts.length; c++)
    if (amounts[c] <= amounts[c - 1]) {
      const text = `(${amounts[c]}) must be above loanAmountUpTo.${c - 1} (${amounts[c - 1]})`;
      add(`loanAmountUpTo.${c}`, 'lmiAmountsIncreasing', text);
    }
  def.rows.forEach((row, r) => {
    const premiums = row.premiumPercent;
    if (row.lvrUpToPercent <= row.lvrAbovePercent) {
      const text = `lvrUpToPercent (${row.lvrUpToPercent}) must be above lvrAbovePercent (${row.lvrAbovePercent})`;
      add(`rows.${r}`, 'lmiRowNotEmpty', text);
    }
    if (premiums.length !== amounts.length) {
      const text = `has ${premiums.length} premiums for ${amounts.length} loan amounts in loanAmountUpTo: a gap in the table`;
      add(`rows.${r}.premiumPercent`, 'lmiPremiumForEveryAmount', text);
    }
    for (let c = 1; c < premiums.length; c++)
      if (premiums[c] < premiums[c - 1]) {
        const text = `(${premiums[c]}) must not be below the premium of a smaller loan (${premiums[c - 1]})`;
        add(`rows.${r}.premiumPercent.${c}`, 'lmiLargerLoanNotCheaper', text);
      }
    const previous = def.rows[r - 1];
    if (previous === undefined) return;
    if (row.lvrAbovePercent !== previous.lvrUpToPercent) {
      const text = `(${row.lvrAbovePercent}) must equal rows.${r - 1}.lvrUpToPercent (${previous.lvrUpToPercent}): LVRs between them would have no premium`;
      add(`rows.${r}.lvrAbovePercent`, 'lmiRowsContiguous', text);
    }
    premiums.forEach((premium, c) => {
      if (c < previous.premiumPercent.length && premium < previous.premiumPercent[c]) {
        const text = `(${premium}) must not be below the premium of a lower LVR (rows.${r - 1}: ${previous.premiumPercent[c]})`;
        add(`rows.${r}.premiumPercent.${c}`, 'lmiHigherLvrNotCheaper', text);
      }
    });
  });
}

/** What a product needs of its table: every LVR it lends at with LMI, and every amount it lends. */
function productLmiViolations(product: HomeProductDefinition, def: LmiTableDefinition, add: Add): void {
  const name = product.home.lmi?.table;
  const from = def.rows[0]?.lvrAbovePercent ?? Number.POSITIVE_INFINITY;
  const to = def.rows.at(-1)?.lvrUpToPercent ?? Number.NEGATIVE_INFINITY;
  const highest = highestLvr(product);
  const above = product.home.lmiAboveLvrPercent;
  if (from > above || to < highest) {
    const text = `LMI table ${name} covers LVRs above ${from}% up to ${to}%, not every LVR from lmiAboveLvrPercent (${above}%) to the product's highest (${highest}%): a gap in the table`;
    add('home.lmi.table', 'lmiTableCoversLvr', text);
  }
  const largest = def.loanAmountUpTo.at(-1) ?? 0;
  if (largest < product.loanAmount.max) {
    const text = `LMI table ${name} covers loans up to ${largest}, not the product's loanAmount.max (${product.loanAmount.max}): a gap in the table`;
    add('home.lmi.table', 'lmiTableCoversAmount', text);
  }
}
