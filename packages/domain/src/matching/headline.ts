/**
 * The one-line headline of an offer: lender, product and variant, the rate (and the rate it reverts to),
 * then the comparison rate. The part before the comparison rate is kept apart, so that an offer whose
 * comparison rate includes an LMI premium finishes its own headline with one concatenation.
 */

/** Labels of the price variants of home loans: bit 0 interest only, bit 1 investment (see `CatalogueProduct.prices`). */
const VARIANT_LABELS = ['', ' (interest only)', ' (investment)', ' (investment, interest only)'];

/** "Harbour Bank Home Loan (interest only): 6.50% p.a. interest only, then 5.89% p.a." */
export function headlinePrefixOf(
  lenderName: string,
  productName: string,
  variant: number,
  rate: number,
  revertRate: number,
): string {
  const rates =
    (variant & 1) === 0
      ? `${rate.toFixed(2)}% p.a.`
      : `${rate.toFixed(2)}% p.a. interest only, then ${revertRate.toFixed(2)}% p.a.`;
  return `${lenderName} ${productName}${VARIANT_LABELS[variant]}: ${rates}`;
}

export const headlineOf = (prefix: string, comparisonRate: number): string =>
  `${prefix} (comparison ${comparisonRate.toFixed(2)}% p.a.)`;
