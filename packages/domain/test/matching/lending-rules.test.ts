/**
 * Lending rules beyond the arithmetic: a car loan bounded by what its vehicle calls for, lenders mortgage
 * insurance priced from the catalogue's table into the repayment, the advice of such near-misses followed
 * to the letter, and what degraded mode says. Figures on the test catalogue of fixtures.ts (test-car: at
 * most 120% of the vehicle; test-home-95: LMI above 80% from the `test` table, capitalised), worked by hand.
 */
import { loadDefaultCatalogue, matchOffers, type MatchInput, type MatchResult } from '../../src/matching';
import { application, catalogueWith, testCatalogue } from './fixtures';

const catalogue = testCatalogue();
const loaded = loadDefaultCatalogue();
if (!loaded.ok) throw new Error(loaded.error.message);
const real = loaded.value;

function match(input: MatchInput, on = catalogue) {
  const result: MatchResult = matchOffers(input, on);
  if (result.outcome !== 'assessed') throw new Error(JSON.stringify(result));
  return result;
}
const offerOf = (input: MatchInput, id: string) => match(input).acceptedOffers.find((o) => o.product.id === id);
const nearMissOf = (input: MatchInput, id: string) => match(input).nearMissOffers.find((o) => o.product.id === id);
const accepted = (input: MatchInput, id: string) => {
  const offer = offerOf(input, id);
  if (offer === undefined) throw new Error(`${id} was not accepted: ${JSON.stringify(match(input))}`);
  return offer;
};

describe('a car loan against its vehicle', () => {
  /** A used car bought from a dealer, on an income every product's serviceability passes. */
  const car = (step1: Record<string, unknown>, step2: Record<string, unknown>) =>
    application('car', { 1: step1, 2: { balloonPaymentPercent: 0, ...step2 }, 3: { grossMonthlyIncome: 30000 } });

  test('when $90,000 is asked against a $10,000 used car, then no product of the real catalogue accepts or near-misses it; $9,000 is accepted', () => {
    // 90,000 / 10,000 = 900%, far beyond every product's maximum (110-150%) and the 5-point margin.
    const asked = match(car({ estimatedCarPrice: 10000 }, { loanAmount: 90000 }), real);
    expect(asked.acceptedOffers).toEqual([]);
    expect(asked.nearMissOffers).toEqual([]);
    expect(match(car({ estimatedCarPrice: 10000 }, { loanAmount: 9000 }), real).acceptedOffers.length).toBeGreaterThan(
      0,
    );
  });

  test('when the advice of a vehicle near-miss is followed, then the loan qualifies', () => {
    // $30,000 less a $5,000 deposit = $25,000: $31,000 is 124%, "at most $30,000 for this vehicle" (120%).
    const near = nearMissOf(car({ estimatedCarPrice: 30000 }, { depositAmount: 5000, loanAmount: 31000 }), 'test-car');
    expect(near?.wouldQualifyIf).toEqual([{ field: 'loanAmount', requirement: 'at most $30,000 for this vehicle' }]);
    expect(
      offerOf(car({ estimatedCarPrice: 30000 }, { depositAmount: 5000, loanAmount: 30000 }), 'test-car'),
    ).toMatchObject({ certainty: 'pre_qualified' });
  });

  test('when the trade-in still has a payout owing, then the payout adds to what the vehicle calls for', () => {
    // $20,000 − $5,000 trade-in + $8,000 payout = $23,000; 120% of it = $27,600.
    const steps = (loanAmount: number) =>
      car({ estimatedCarPrice: 20000 }, { tradeInValue: 5000, tradeInPayout: 8000, loanAmount });
    expect(offerOf(steps(27600), 'test-car')).toBeDefined();
    expect(nearMissOf(steps(27700), 'test-car')).toMatchObject({
      reasons: [
        {
          field: 'lvr',
          rule: 'loan at most 120% of what the vehicle calls for (price less deposit and trade-in, plus any trade-in payout: $23,000)',
          actual: '120.43%',
        },
      ],
      wouldQualifyIf: [{ field: 'loanAmount', requirement: 'at most $27,600 for this vehicle' }],
    });
  });

  test('when the car is not found yet, then the offer is indicative on the price the loan needs; that price pre-qualifies, a dollar less does not', () => {
    // $40,000 at most 120% of the price: a price of at least 40,000 / 1.2 = 33,333.33 → $33,334.
    const steps = (step1: Record<string, unknown>) =>
      application('car', {
        1: { carLoanPurpose: 'new', hasFoundCar: 'no', estimatedCarPrice: undefined, vehicleYear: undefined, ...step1 },
      });
    expect(offerOf(steps({}), 'test-car')).toMatchObject({
      certainty: 'indicative',
      conditions: [
        {
          field: 'estimatedCarPrice',
          requirement:
            'at least $33,334 with the deposit and trade-in given: the loan may be at most 120% of the price less deposit and trade-in, plus any trade-in payout',
        },
      ],
    });
    expect(offerOf(steps({ hasFoundCar: 'yes', estimatedCarPrice: 33334 }), 'test-car')).toMatchObject({
      certainty: 'pre_qualified',
      conditions: [],
    });
    expect(offerOf(steps({ hasFoundCar: 'yes', estimatedCarPrice: 33333 }), 'test-car')).toBeUndefined();
  });
});

describe('lenders mortgage insurance', () => {
  test('when the LVR is 85%, then the 95% product accepts with the LMI premium capitalised into the repayment and the comparison rate', () => {
    // 637,500 / 750,000 = 85% > 80 (LMI) and ≤ 95. Test table: the 80-85% row, loans above $500,000: 1.5%
    // → premium 637,500 × 0.015 = 9,562.50, capitalised: 647,062.50 repaid; pmt(647062.50, 5.89, 360) = 3,833.82.
    // Comparison rate: the same row at the benchmark amount ($150,000, loans to $500,000: 1%) → 1,500 capitalised;
    // 149,400 received, 300 × (pmt(151500, 5.89, 300) + 10); irr = 6.1459 → 6.15 (6.04 without the premium).
    const offer = accepted(
      application('home', { 2: { propertyValue: 750000 }, 3: { loanAmount: 637500 } }),
      'test-home-95',
    );
    expect(offer.headline).toBe('Test Bank Home Loan: 5.89% p.a. (comparison 6.15% p.a.)');
    expect(offer.offerDetails).toMatchObject({
      loanAmount: 637500,
      lvr: 85,
      lendersMortgageInsurance: true,
      lmiPremium: 9562.5,
      amountFinanced: 647062.5,
      monthlyRepayment: 3833.82,
      comparisonRate: 6.15,
      comparisonRateExample:
        'a $150,000 secured loan over 25 years, with lenders mortgage insurance of $1,500 (1% of the loan, at this LVR) added to the loan',
      repaymentType: 'principal_and_interest',
    });
  });

  test('when the premium is paid at settlement instead, then the repayment is on the loan alone and the comparison rate takes the premium from the advance', () => {
    // pmt(637500, 5.89, 360) = 3,777.17. Benchmark: 150,000 − 600 − 1,500 = 147,900 received,
    // 300 × (pmt(150000, 5.89, 300) + 10); irr = 6.1489 → 6.15.
    const paidAtSettlement = catalogueWith('test-home-95', (p) => (p.home.lmi = { table: 'test', capitalised: false }));
    const input = application('home', { 2: { propertyValue: 750000 }, 3: { loanAmount: 637500 } });
    const offer = match(input, paidAtSettlement).acceptedOffers.find((o) => o.product.id === 'test-home-95');
    expect(offer?.offerDetails).toMatchObject({
      lmiPremium: 9562.5,
      amountFinanced: 637500,
      monthlyRepayment: 3777.17,
      comparisonRate: 6.15,
      comparisonRateExample:
        'a $150,000 secured loan over 25 years, with lenders mortgage insurance of $1,500 (1% of the loan, at this LVR) paid at settlement',
    });
  });

  /** Owner occupied on a $750,000 property; steps 4 as the baseline (renting, replaced by the new loan). */
  const home = (loanAmount: number, grossMonthlyIncome = 20000) =>
    application('home', { 2: { propertyValue: 750000 }, 3: { loanAmount }, 4: { grossMonthlyIncome } });

  test('when serviceability misses at 85% LVR, then the largest amount counts the premium it capitalises, and following it qualifies', () => {
    // Buffered at 5.89 + 3 = 8.89% over 360 months: 0.0079672 a dollar. Capacity: 75% × 8,500 − 1,500 − 10 = 4,865,
    // which carries 4,865 / 0.0079672 = 610,628 financed. Asked: 637,500 + 1.5% premium = 647,062.50, buffered
    // 5,155.28: short by 290.28 a month. No premium up to 80% (600,000); above it, loans over $500,000 pay 1.5%:
    // 610,628 / 1.015 = 601,604 → $601,600 (601,600 + 9,024 = 610,624 ≤ 610,628; $601,700 + 9,025.50 is not).
    // Income that services the asked loan: (1,510 + 5,155.28) / 0.75 = 8,887.04 → $8,888.
    expect(nearMissOf(home(637500, 8500), 'test-home-95')).toMatchObject({
      reasons: [{ field: 'serviceability', actual: '-$290.28/month' }],
      wouldQualifyIf: [
        {
          field: 'loanAmount',
          requirement:
            'at most $601,600 (the largest amount the income services), or a gross monthly income of at least $8,888/month',
        },
      ],
    });
    // Followed: 601,600 + 9,024 premium financed; pmt(610624, 5.89, 360) = 3,617.93.
    expect(offerOf(home(601600, 8500), 'test-home-95')?.offerDetails).toMatchObject({
      lmiPremium: 9024,
      amountFinanced: 610624,
      monthlyRepayment: 3617.93,
    });
    expect(offerOf(home(601700, 8500), 'test-home-95')).toBeUndefined();
    expect(offerOf(home(637500, 8888), 'test-home-95')).toBeDefined();
  });

  test('when the LVR is exactly the threshold, then there is no premium', () => {
    // 600,000 / 750,000 = 80%: LMI applies only above it.
    expect(offerOf(home(600000), 'test-home-95')?.offerDetails).toMatchObject({
      lvr: 80,
      lendersMortgageInsurance: false,
      lmiPremium: 0,
      amountFinanced: 600000,
    });
  });

  test('when offers of the real catalogue carry premiums, then they are ranked by the comparison rates they show, each including its premium', () => {
    // 90% LVR: every product lending there charges LMI from its table.
    const { acceptedOffers } = match(
      application('home', {
        2: { propertyValue: 800000 },
        3: { loanAmount: 720000 },
        4: { grossMonthlyIncome: 40000 },
      }),
      real,
    );
    expect(acceptedOffers.length).toBeGreaterThanOrEqual(2);
    const rates = acceptedOffers.map((o) => o.offerDetails.comparisonRate);
    expect(rates).toEqual([...rates].sort((x, y) => x - y));
    for (const { offerDetails: d, headline } of acceptedOffers) {
      expect(d.lmiPremium).toBeGreaterThan(0);
      expect(d.comparisonRateExample).toContain('with lenders mortgage insurance of $');
      expect(headline).toContain(`(comparison ${d.comparisonRate.toFixed(2)}% p.a.)`);
    }
  });
});
