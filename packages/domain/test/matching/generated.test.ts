/**
 * Volume: a generated catalogue of 10,000 products, matched once per applicant for correctness (time
 * is measured by `tools/bench/src/engine.ts`, never asserted here): the answers against a plain
 * restatement of the rules written product by product, and against the ordering the offers must have.
 */
import {
  BANDS_BEST_FIRST,
  COST_RATE_CAP_PERCENT,
  comparisonRate,
  matchOffers,
  monthlyRepayment,
  type CatalogueProduct,
  type MatchInput,
  type ScoreBand,
} from '../../src/matching';
import { generateCatalogue } from '../../../../tools/catalogue-generator/src';
import { application } from './fixtures';

const catalogue = generateCatalogue(10000, 7);

function assessed(input: MatchInput) {
  const result = matchOffers(input, catalogue);
  if (result.outcome !== 'assessed') throw new Error(JSON.stringify(result));
  return result;
}

const APPLICANTS: [string, MatchInput][] = (['excellent', 'good', 'below_average', 'poor'] as ScoreBand[]).flatMap(
  (band): [string, MatchInput][] => [
    [
      `personal ${band}`,
      application(
        'personal',
        { 1: { loanAmount: 25000 }, 3: { grossMonthlyIncome: 6500, employmentYears: 0, employmentMonths: 7 } },
        band,
      ),
    ],
    [`car ${band}`, application('car', { 2: { loanAmount: 32000, balloonPaymentPercent: 20, loanTerm: 5 } }, band)],
    [
      `home ${band}`,
      application(
        'home',
        { 1: { occupancyType: 'investment' }, 3: { loanAmount: 660000, repaymentType: 'interest_only' } },
        band,
      ),
    ],
  ],
);

/** The personal loan rules restated plainly, one product at a time, with the exported formulas. */
function plainlyAccepts(product: CatalogueProduct, input: MatchInput, band: ScoreBand): boolean {
  const d = product.definition;
  const [s1, s2, s3, s4] = [input.steps[1]!, input.steps[2]!, input.steps[3]!, input.steps[4]!] as Record<
    string,
    any
  >[];
  if (d.loanType !== 'personal') return false;
  const rate = d.rates[band];
  const price = product.prices[BANDS_BEST_FIRST.indexOf(band)];
  if (rate === 'decline' || price === null || price.capped) return false;
  if (
    !(d.purposes as string[]).includes(s2.loanPurpose) ||
    !(d.employment.types as string[]).includes(s3.employmentType)
  )
    return false;
  const amount = s1.loanAmount as number;
  const months = s2.loanTerm * 12;
  if (
    amount < d.loanAmount.min ||
    amount > d.loanAmount.max ||
    s2.loanTerm < d.loanTermYears.min ||
    s2.loanTerm > d.loanTermYears.max
  )
    return false;
  const policy = product.serviceability;
  const income = s3.grossMonthlyIncome + ((s3.otherIncome ?? 0) * policy.otherIncomePercent) / 100;
  if (income < d.minimumMonthlyIncome) return false;
  if ((s3.employmentYears ?? 0) * 12 + (s3.employmentMonths ?? 0) < d.employment.minimumMonthsInJob) return false;
  const housing = Math.max(s4.monthlyRent ?? 0, policy.housingCostFloor[s4.livingSituation as 'renting']);
  const spare =
    (income * policy.netIncomePercent) / 100 -
    housing -
    policy.livingCosts.base -
    policy.livingCosts.perDependant * (s4.dependents ?? 0) -
    d.fees.monthly;
  if (monthlyRepayment(amount, rate + policy.bufferPercentPoints, months) > spare) return false;
  const annualCost = comparisonRate({
    amount,
    termMonths: months,
    annualRatePercent: rate,
    establishmentFee: d.fees.establishment,
    monthlyFee: d.fees.monthly,
  });
  return annualCost <= COST_RATE_CAP_PERCENT;
}

describe('matching against 10,000 generated products', () => {
  test('when the catalogue is generated, then it has 10,000 products over the three loan types, and the same seed gives the same catalogue', () => {
    expect(catalogue.products.length).toBe(10000);
    expect(
      catalogue.productsByType.personal.length +
        catalogue.productsByType.car.length +
        catalogue.productsByType.home.length,
    ).toBe(10000);
    const small = (seed: number) =>
      generateCatalogue(30, seed).products.map((p) => [p.product.id, p.lender.id, p.prices]);
    expect(small(7)).toEqual(small(7));
    expect(small(7)).not.toEqual(small(8));
  });

  test.each(['excellent', 'good', 'below_average', 'poor'] as ScoreBand[])(
    'when a personal applicant at %s is matched, then exactly the products a plain check of every rule accepts are accepted',
    (band) => {
      const input = APPLICANTS.find(([label]) => label === `personal ${band}`)![1];
      const expected = catalogue.productsByType.personal
        .filter((p) => plainlyAccepts(p, input, band))
        .map((p) => p.product.id);
      const got = assessed(input).acceptedOffers.map((o) => o.product.id);
      expect([...got].sort()).toEqual([...expected].sort());
      if (band !== 'poor') expect(got.length).toBeGreaterThan(10);
    },
  );

  test.each(APPLICANTS)(
    'when the %s applicant is matched, then accepted offers are ranked by comparison rate, repayment and id',
    (_label, input) => {
      const offers = assessed(input).acceptedOffers;
      const key = (o: (typeof offers)[number]) =>
        [o.offerDetails.comparisonRate, o.offerDetails.monthlyRepayment, o.product.id] as const;
      const sorted = [...offers].sort((x, y) => {
        const [a, b] = [key(x), key(y)];
        return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
      });
      expect(offers.map((o) => o.product.id)).toEqual(sorted.map((o) => o.product.id));
    },
  );

  test.each(APPLICANTS)(
    'when the %s applicant is matched, then every repayment (and the one after an interest-only period) agrees with monthlyRepayment and no offer costs above 48%',
    (_label, input) => {
      for (const { offerDetails: d } of assessed(input).acceptedOffers) {
        // A home loan repays the amount financed: the loan plus any capitalised LMI premium.
        const financed = d.amountFinanced ?? d.loanAmount;
        const expected =
          d.repaymentType === 'interest_only'
            ? (financed * d.interestRate) / 1200
            : monthlyRepayment(financed, d.interestRate, d.loanTermMonths, d.balloonAmount ?? 0);
        // Repayments are rounded to cents: at most half a cent from the exact figure.
        const toCents = (x: number | undefined, exact: number) =>
          expect(Math.abs(x! - exact)).toBeLessThanOrEqual(0.005 + 1e-9);
        toCents(d.monthlyRepayment, expected);
        if (d.repaymentType === 'interest_only')
          toCents(
            d.repaymentAfterInterestOnly,
            monthlyRepayment(financed, d.interestRateAfterInterestOnly!, d.loanTermMonths - d.interestOnlyMonths!),
          );
        expect(d.comparisonRate).toBeLessThanOrEqual(COST_RATE_CAP_PERCENT);
      }
    },
  );

  test.each(APPLICANTS)(
    'when the %s applicant is matched, then near-misses are at most the maximum, miss at most two rules, and come fewest misses first',
    (_label, input) => {
      const { nearMissOffers } = assessed(input);
      expect(nearMissOffers.length).toBeLessThanOrEqual(catalogue.nearMiss.maxResults);
      const counts = nearMissOffers.map((o) => o.reasons.length);
      for (const count of counts) expect(count).toBeGreaterThanOrEqual(1);
      for (const count of counts) expect(count).toBeLessThanOrEqual(catalogue.nearMiss.maxMissedRules);
      expect(counts).toEqual([...counts].sort((x, y) => x - y));
    },
  );

  test('when a weaker band is matched, then it is never accepted by more products than a stronger one', () => {
    for (const type of ['personal', 'car', 'home']) {
      const counts = ['excellent', 'good', 'below_average', 'poor'].map(
        (band) => assessed(APPLICANTS.find(([label]) => label === `${type} ${band}`)![1]).acceptedOffers.length,
      );
      for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThanOrEqual(counts[i - 1]);
    }
  });
});
