/**
 * The catalogue's rules between values, checked once its JSON Schema passed: ids unique and known, min ≤
 * max, every band priced or declined and a worse band never cheaper, interest-only terms present, LMI
 * tables without gaps and covering the products that use them. Each violation names its owner (`product
 * <id>`, `lender <id>`, `LMI table <name>`) and the rule.
 */
import type { FieldViolation } from '../errors';
import { commissionViolations } from '../outcomes/commission';
import { lmiTableViolations, needsLmi, productLmiViolations } from './lmi';
import { BANDS_BEST_FIRST, type CatalogueFile } from './types';

/** `owner` reads `product <id>`, `lender <id>`, `serviceability policy <id>`, `LMI table <name>` or `catalogue`. */
export function violation(owner: string, field: string, rule: string, text: string): FieldViolation {
  const where = field === '' ? owner : `${owner}: ${field}`;
  const cut = owner.lastIndexOf(' ');
  const root = cut < 0 ? '' : `${owner.slice(0, cut).replace(/ /g, '_')}[${owner.slice(cut + 1)}]`;
  return { field: [root, field].filter((s) => s !== '').join('.') || 'catalogue', rule, message: `${where}: ${text}` };
}

export function semanticViolations(file: CatalogueFile): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const [name, table] of Object.entries(file.lmiTables))
    for (const v of lmiTableViolations(table)) out.push(violation(`LMI table ${name}`, v.field, v.rule, v.text));
  const lenderIds = new Set<string>();
  for (const lender of file.lenders) {
    if (lenderIds.has(lender.id)) out.push(violation(`lender ${lender.id}`, 'id', 'unique', 'appears more than once'));
    lenderIds.add(lender.id);
  }
  const productIds = new Set<string>();
  for (const p of file.products) {
    const owner = `product ${p.id}`;
    const add = (field: string, rule: string, text: string) => out.push(violation(owner, field, rule, text));
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
      if (rank <= minRank && rate === 'decline')
        add(
          `rates.${band}`,
          'pricedAtOrAboveMinimumBand',
          `must be priced: ${band} is at or above minimumBand ${p.minimumBand}`,
        );
      if (rank > minRank && rate !== 'decline')
        add(
          `rates.${band}`,
          'declinedBelowMinimumBand',
          `must be "decline": ${band} is below minimumBand ${p.minimumBand}`,
        );
      if (typeof rate === 'number') {
        if (previous !== undefined && rate < previous.rate)
          add(
            `rates.${band}`,
            'worseBandNotCheaper',
            `${rate} must not be below rates.${previous.band} (${previous.rate}): a worse band is never cheaper`,
          );
        previous = { band, rate };
      }
    });
    if (p.loanType === 'home') {
      const hasIo = p.home.repaymentTypes.includes('interest_only');
      if (hasIo && p.home.interestOnly === undefined)
        add('home.interestOnly', 'interestOnlyTerms', 'is required when repaymentTypes has interest_only');
      if (!hasIo && p.home.interestOnly !== undefined)
        add('home.interestOnly', 'interestOnlyTerms', 'is set but repaymentTypes has no interest_only');
      if (hasIo && p.home.interestOnly !== undefined && p.home.interestOnly.maxYears >= p.loanTermYears.max)
        add(
          'home.interestOnly.maxYears',
          'interestOnlyShorterThanTerm',
          `(${p.home.interestOnly.maxYears}) must be less than loanTermYears.max (${p.loanTermYears.max})`,
        );
    }
    if (p.loanType === 'home') {
      const lmi = p.home.lmi;
      if (lmi === undefined) {
        if (needsLmi(p))
          add(
            'home.lmi',
            'lmiTableRequired',
            `is required: an occupancy lends above lmiAboveLvrPercent (${p.home.lmiAboveLvrPercent}%), so its premium needs a table`,
          );
      } else if (!Object.hasOwn(file.lmiTables, lmi.table))
        add('home.lmi.table', 'lmiTableExists', `no LMI table ${lmi.table} in the catalogue`);
      else if (needsLmi(p))
        for (const v of productLmiViolations(p, file.lmiTables[lmi.table])) add(v.field, v.rule, v.text);
    }
    if (p.commission) commissionViolations(p.commission, add);
    if (p.loanType === 'car' && p.car.balloon.maxPercent > 0 && p.car.balloon.maxTermYears < p.loanTermYears.min)
      add(
        'car.balloon.maxTermYears',
        'balloonTermReachable',
        `(${p.car.balloon.maxTermYears}) allows a balloon on no term of the product (loanTermYears.min ${p.loanTermYears.min})`,
      );
  }
  return out;
}
