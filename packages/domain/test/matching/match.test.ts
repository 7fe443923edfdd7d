/**
 * Matching, by tables of applicants against the small test catalogue of fixtures.ts, whose figures are
 * worked by hand in the comments (checked with a separate Python script; see finance.test.ts for the
 * two formulas), and against the real catalogue for the behaviour across credit bands.
 *
 * Serviceability of the test catalogue (policy `test`), all monthly:
 *   capacity = 75% × (gross + 50% × other income) − housing − (1,500 + 500 × dependants) − monthly fee
 *   housing  = max(rent, floor by living situation) — renting 1,000, with parents 0 — or 0 for an
 *              owner-occupied home loan (the new loan takes the place of the rent)
 *   passes when capacity ≥ the repayment at the rate + 3 points.
 * The buffered repayment per dollar over 60 months at 13% (test-personal at excellent + 3) is
 * pmt(1, 13, 60) = 0.0227531.
 */
import {
  COMPARISON_RATE_WARNING,
  loadDefaultCatalogue,
  matchOffers,
  type AcceptedOffer,
  type Catalogue,
  type MatchInput,
  type MatchResult,
  type ScoreBand,
} from '../../src/matching';
import { application, testCatalogue } from './fixtures';

const catalogue = testCatalogue();

function assessed(result: MatchResult) {
  if (result.outcome !== 'assessed') throw new Error(`expected an assessment, got ${JSON.stringify(result)}`);
  return result;
}
const match = (input: MatchInput, on: Catalogue = catalogue) => assessed(matchOffers(input, on));
const ids = (offers: readonly { product: { id: string } }[]) => offers.map((o) => o.product.id);
const accepted = (input: MatchInput, id: string): AcceptedOffer => {
  const offer = match(input).acceptedOffers.find((o) => o.product.id === id);
  if (offer === undefined) throw new Error(`${id} was not accepted: ${JSON.stringify(match(input))}`);
  return offer;
};
const nearMiss = (input: MatchInput, id: string) => match(input).nearMissOffers.find((o) => o.product.id === id);

/** A credit near-miss says the criteria were not met, and nothing of the band it missed or by how much. */
const CREDIT_REASON = { field: 'creditScore', rule: "the lender's credit criteria", actual: 'not met' };
const CREDIT_REQUIREMENT = {
  field: 'creditScore',
  requirement: "the lender's credit criteria met (the lender explains its assessment to the applicant)",
};

// ---------------------------------------------------------------------------------------------
// Accepted offers: the figures of the offer
// ---------------------------------------------------------------------------------------------

describe('accepted offers', () => {
  test('when an excellent applicant asks test-personal for $30,000 over 5 years, then the offer carries the hand-worked figures', () => {
    // Repayment: 30000 × pmt(1, 10, 60) = 30000 × 0.0212470 = 637.41 (finance.test.ts).
    // Comparison rate on the benchmark ($30,000 over 5 years), $250 + $10 a month: 11.0387 → 11.04.
    // Serviceability: 75% × 8,000 − 1,500 rent − 1,500 − 10 = 2,990 ≥ 30000 × 0.0227531 = 682.59.
    const offer = accepted(application('personal'), 'test-personal');
    expect(offer).toEqual({
      lender: { id: 'test-bank', name: 'Test Bank' },
      product: { id: 'test-personal', name: 'Personal Loan' },
      headline: 'Test Bank Personal Loan: 10.00% p.a. (comparison 11.04% p.a.)',
      certainty: 'pre_qualified',
      offerDetails: {
        interestRate: 10,
        comparisonRate: 11.04,
        comparisonRateWarning: COMPARISON_RATE_WARNING,
        comparisonRateExample: 'a $30,000 unsecured loan over 5 years',
        loanAmount: 30000,
        loanTermMonths: 60,
        monthlyRepayment: 637.41,
        establishmentFee: 250,
        monthlyFee: 10,
      },
      conditions: [],
      lenderUrl: 'https://test-bank.example/apply',
      commission: null,
    });
  });

  test('when the warning is read, then it is the standard comparison rate warning', () => {
    expect(COMPARISON_RATE_WARNING).toBe(
      'WARNING: This comparison rate is true only for the examples given and may not include all fees and charges. Different terms, fees or other loan amounts might result in a different comparison rate.',
    );
  });

  test('when a car loan has a 30% balloon, then the repayment amortises the amount less the balloon’s present value', () => {
    // (40000 − 12000 × 1.0066667^-60) × 0.0066667 / (1 − 1.0066667^-60) = 647.74; balloon 30% of 40,000 = 12,000.
    // No fees, so the comparison rate on the car benchmark, $30,000 over 5 years, is the rate: 8.00.
    const { offerDetails } = accepted(application('car'), 'test-car');
    expect(offerDetails).toMatchObject({
      interestRate: 8,
      comparisonRate: 8,
      comparisonRateWarning: COMPARISON_RATE_WARNING,
      comparisonRateExample: 'a $30,000 secured loan over 5 years',
      monthlyRepayment: 647.74,
      balloonAmount: 12000,
      loanTermMonths: 60,
    });
  });

  test('when a home loan is interest only, then the loading applies for 5 years and the repayment after is at the rate it reverts to', () => {
    // Rate 5.89 + 0.61 IO loading = 6.50% during the period, then 5.89%. IO: 600000 × 0.065 / 12 = 3,250.00;
    // after: pmt(600000, 5.89, 300) = 3,825.56. LVR 600,000 / 800,000 = 75%, no LMI.
    // Comparison rate on $150,000 over 25 years, $600 + $10 a month: 149,400 received; 60 × (150000 × 0.065 / 12 + 10)
    // = 60 × 822.50, then 240 × (pmt(150000, 5.89, 240) + 10) = 240 × 1,075.15; irr = 6.2897 → 6.29.
    const { offerDetails, headline } = accepted(
      application('home', { 3: { repaymentType: 'interest_only' } }),
      'test-home-95',
    );
    expect(headline).toBe(
      'Test Bank Home Loan (interest only): 6.50% p.a. interest only, then 5.89% p.a. (comparison 6.29% p.a.)',
    );
    expect(offerDetails).toMatchObject({
      interestRate: 6.5,
      comparisonRate: 6.29,
      monthlyRepayment: 3250,
      repaymentType: 'interest_only',
      interestOnlyMonths: 60,
      interestRateAfterInterestOnly: 5.89,
      repaymentAfterInterestOnly: 3825.56,
      lvr: 75,
      lendersMortgageInsurance: false,
      lmiPremium: 0,
      amountFinanced: 600000,
    });
    expect(ids(match(application('home', { 3: { repaymentType: 'interest_only' } })).acceptedOffers)).toEqual([
      'test-home-95',
    ]);
  });

  test('when several products accept, then they are ranked by comparison rate', () => {
    // At 75% LVR both home products accept: test-home-80 at 6.00% (no fees: comparison 6.00) before test-home-95 at 6.04.
    const offers = match(application('home')).acceptedOffers;
    expect(offers.map((o) => [o.product.id, o.offerDetails.comparisonRate])).toEqual([
      ['test-home-80', 6],
      ['test-home-95', 6.04],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Near-misses: each rule, its margin, and the computed requirement
// ---------------------------------------------------------------------------------------------

describe('near-misses', () => {
  test.each<[string, MatchInput, string, unknown[], unknown[]]>([
    [
      'the income services less than asked (36,000 on 5,000 a month, renting at 1,500)',
      // capacity = 3,750 − 1,500 − 1,500 − 10 = 740; needed 36000 × 0.0227531 = 819.11, surplus −79.11.
      // Largest: 740 / 0.0227531 = 32,523 → 32,500 (13.2% below 36,000, within 15%).
      // Income that services 36,000: (1,500 + 1,500 + 10 + 819.11) / 0.75 = 5,105.48 → 5,106.
      application('personal', { 1: { loanAmount: 36000 }, 3: { grossMonthlyIncome: 5000 } }),
      'test-personal',
      [
        {
          field: 'serviceability',
          rule: 'repayments assessed at the rate plus a buffer of 3 percentage points must fit within income after tax, housing and living costs',
          actual: '-$79.11/month',
        },
      ],
      [
        {
          field: 'loanAmount',
          requirement:
            'at most $32,500 (the largest amount the income services), or a gross monthly income of at least $5,106/month',
        },
      ],
    ],
    [
      'the amount is above the maximum and the income services less than the maximum',
      // 54,000 > 50,000 (8%, within 10%): assessed at 50,000. capacity = 0.75 × 5,440 − 3,010 = 1,070;
      // 50000 × 0.0227531 = 1,137.65 > 1,070, surplus −67.65. Largest 1,070 / 0.0227531 = 47,026 → 47,000.
      // Income that services 50,000: (3,010 + 1,137.65) / 0.75 = 5,530.20 → 5,531.
      application('personal', { 1: { loanAmount: 54000 }, 3: { grossMonthlyIncome: 5440 } }),
      'test-personal',
      [
        { field: 'loanAmount', rule: 'at most $50,000', actual: '$54,000' },
        {
          field: 'serviceability',
          rule: 'repayments assessed at the rate plus a buffer of 3 percentage points must fit within income after tax, housing and living costs',
          actual: '-$67.65/month',
        },
      ],
      [
        {
          field: 'loanAmount',
          requirement:
            'at most $47,000 (the largest amount the income services), or at most $50,000 with a gross monthly income of at least $5,531/month',
        },
      ],
    ],
    [
      'the income is below the minimum (2,800 + half of 200 other income = 2,900 < 3,000)',
      // Needed gross: 3,000 − 100 = 2,900. Serviceability passes: 2,175 − 0 − 1,500 − 10 = 665 ≥ 10000 × 0.0227531 = 227.53.
      application('personal', {
        1: { loanAmount: 10000 },
        3: { grossMonthlyIncome: 2800, otherIncome: 200 },
        4: { livingSituation: 'living_with_parents', monthlyRent: 0 },
      }),
      'test-personal',
      [{ field: 'grossMonthlyIncome', rule: 'assessable income of at least $3,000/month', actual: '$2,900/month' }],
      [{ field: 'grossMonthlyIncome', requirement: 'at least $2,900/month' }],
    ],
    [
      'the time in the job is 4 months (minimum 6)',
      application('personal', { 3: { employmentYears: 0, employmentMonths: 4 } }),
      'test-personal',
      [{ field: 'timeInJob', rule: 'at least 6 months in the current job', actual: '4 months' }],
      [{ field: 'timeInJob', requirement: 'at least 6 months in the current job (2 months more)' }],
    ],
    [
      'the credit band is one below the minimum',
      application('personal', {}, 'below_average'),
      'test-personal',
      [CREDIT_REASON],
      [CREDIT_REQUIREMENT],
    ],
    [
      'the amount is 8% above the maximum',
      application('personal', { 1: { loanAmount: 54000 } }),
      'test-personal',
      [{ field: 'loanAmount', rule: 'at most $50,000', actual: '$54,000' }],
      [{ field: 'loanAmount', requirement: 'at most $50,000' }],
    ],
    [
      'a 20% balloon is asked on a 6-year term (balloons up to 5 years)',
      application('car', { 2: { loanTerm: 6, balloonPaymentPercent: 20 } }),
      'test-car',
      [{ field: 'loanTerm', rule: 'a balloon only on terms of at most 5 years', actual: '6 years' }],
      [{ field: 'loanTerm', requirement: 'at most 5 years (the longest term with a balloon)' }],
    ],
    [
      'the balloon is 35% (maximum 30%)',
      application('car', { 2: { balloonPaymentPercent: 35 } }),
      'test-car',
      [{ field: 'balloonPaymentPercent', rule: 'balloon at most 30% of the loan amount', actual: '35%' }],
      [{ field: 'balloonPaymentPercent', requirement: 'at most 30% of the loan amount' }],
    ],
    [
      'the vehicle is 12 years old (maximum 10)',
      application('car', { 1: { vehicleYear: 2013 } }),
      'test-car',
      [{ field: 'vehicleAge', rule: 'vehicle at most 10 years old', actual: '12 years' }],
      [{ field: 'vehicleYear', requirement: 'model year 2015 or newer' }],
    ],
    [
      'the car loan is 124% of what the vehicle calls for (maximum 120%)',
      // $30,000 price less a $5,000 deposit = $25,000; $31,000 / $25,000 = 124% (4 points over, within 5).
      // At most 120% × 25,000 = $30,000.
      application('car', { 1: { estimatedCarPrice: 30000 }, 2: { depositAmount: 5000, loanAmount: 31000 } }),
      'test-car',
      [
        {
          field: 'lvr',
          rule: 'loan at most 120% of what the vehicle calls for (price less deposit and trade-in, plus any trade-in payout: $25,000)',
          actual: '124%',
        },
      ],
      [{ field: 'loanAmount', requirement: 'at most $30,000 for this vehicle' }],
    ],
    [
      'the LVR is 85% on a product lending to 80%',
      // 637,500 / 750,000 = 85%. At 80%: 750,000 × 0.8 = 600,000, a deposit of 150,000.
      application('home', { 2: { propertyValue: 750000 }, 3: { loanAmount: 637500 } }),
      'test-home-80',
      [{ field: 'lvr', rule: 'LVR at most 80% for owner occupied loans', actual: '85%' }],
      [{ field: 'loanAmount', requirement: 'at most $600,000 (a deposit of at least $150,000 brings the LVR to 80%)' }],
    ],
    [
      'two rules are missed: the credit band and the time in the job',
      application('personal', { 3: { employmentYears: 0, employmentMonths: 4 } }, 'below_average'),
      'test-personal',
      [CREDIT_REASON, { field: 'timeInJob', rule: 'at least 6 months in the current job', actual: '4 months' }],
      [CREDIT_REQUIREMENT, { field: 'timeInJob', requirement: 'at least 6 months in the current job (2 months more)' }],
    ],
  ])(
    'when %s, then it is a near-miss with the reasons and the computed requirement',
    (_label, input, productId, reasons, wouldQualifyIf) => {
      const result = match(input);
      expect(ids(result.acceptedOffers)).not.toContain(productId);
      expect(nearMiss(input, productId)).toMatchObject({ reasons, wouldQualifyIf });
    },
  );

  test.each<[string, MatchInput, string]>([
    [
      'the income services 18.7% less than asked (beyond 15%)',
      application('personal', { 1: { loanAmount: 40000 }, 3: { grossMonthlyIncome: 5000 } }),
      'test-personal',
    ],
    [
      'the amount is 12% above the maximum (beyond 10%)',
      application('personal', { 1: { loanAmount: 56000 } }),
      'test-personal',
    ],
    ['the credit band is two below the minimum', application('personal', {}, 'poor'), 'test-personal'],
    [
      'the LVR is 90% on a product lending to 80% (beyond 5 points)',
      application('home', { 3: { loanAmount: 720000 } }),
      'test-home-80',
    ],
    [
      'the vehicle is 13 years old (beyond 2 years over 10)',
      application('car', { 1: { vehicleYear: 2012 } }),
      'test-car',
    ],
    [
      'three rules are missed (credit band, time in job, income; any two of them are a near-miss, see below)',
      application(
        'personal',
        {
          1: { loanAmount: 10000 },
          3: { employmentYears: 0, employmentMonths: 4, grossMonthlyIncome: 2800 },
          4: { livingSituation: 'living_with_parents', monthlyRent: 0 },
        },
        'below_average',
      ),
      'test-personal',
    ],
    [
      'the employment type is not one the product takes',
      application('personal', { 3: { employmentType: 'casual' } }),
      'test-personal',
    ],
    [
      'the loan purpose is not one the product takes',
      application('personal', { 2: { loanPurpose: 'business' } }),
      'test-personal',
    ],
    [
      'the occupancy is investment and the product lends to owner occupiers only',
      application('home', { 1: { occupancyType: 'investment' } }),
      'test-home-80',
    ],
    [
      'interest only is asked of a product without it',
      application('home', { 3: { repaymentType: 'interest_only' } }),
      'test-home-80',
    ],
  ])('when %s, then the product is neither accepted nor a near-miss', (_label, input, productId) => {
    const result = match(input);
    expect(ids(result.acceptedOffers)).not.toContain(productId);
    expect(ids(result.nearMissOffers)).not.toContain(productId);
  });

  test('when two of those three rules are missed, then it is a near-miss (the control of the three-rule case)', () => {
    const twoMisses = application('personal', {
      1: { loanAmount: 10000 },
      3: { grossMonthlyIncome: 2800, employmentYears: 0, employmentMonths: 4 },
      4: { livingSituation: 'living_with_parents', monthlyRent: 0 },
    });
    expect(nearMiss(twoMisses, 'test-personal')?.reasons.map((r) => r.field)).toEqual([
      'grossMonthlyIncome',
      'timeInJob',
    ]);
  });

  test('when the credit band misses, then the headline quotes the rate of the band that would qualify', () => {
    // test-personal at average: 14%, comparison irr(29750, [pmt(30000, 14, 60) + 10] * 60) = 15.019 → 15.02.
    expect(nearMiss(application('personal', {}, 'below_average'), 'test-personal')?.headline).toBe(
      'Test Bank Personal Loan: 14.00% p.a. (comparison 15.02% p.a.)',
    );
  });

  test('when near-misses are returned, then they carry no tracking details and at most the catalogue maximum', () => {
    const result = match(application('personal', {}, 'below_average'));
    for (const offer of result.nearMissOffers)
      expect(Object.keys(offer).sort()).toEqual(['headline', 'lender', 'product', 'reasons', 'wouldQualifyIf']);
    expect(result.nearMissOffers.length).toBeLessThanOrEqual(catalogue.nearMiss.maxResults);
  });
});

// ---------------------------------------------------------------------------------------------
// Credit results drive matching: the real catalogue across bands
// ---------------------------------------------------------------------------------------------

describe('matching on the real catalogue across credit bands', () => {
  const loaded = loadDefaultCatalogue();
  if (!loaded.ok) throw new Error(loaded.error.message);
  const real = loaded.value;
  const cheapest = (offers: readonly AcceptedOffer[]) => Math.min(...offers.map((o) => o.offerDetails.comparisonRate));

  test.each<[string, MatchInput]>([
    ['personal', application('personal', { 1: { loanAmount: 20000 } })],
    ['car', application('car', { 2: { loanAmount: 30000, balloonPaymentPercent: 0 } })],
    ['home', application('home', { 3: { loanAmount: 560000 } })],
  ])(
    'when a %s applicant is excellent rather than poor, then more and cheaper offers are accepted, and poor gets near-misses',
    (_type, input) => {
      const excellent = match({ ...input, credit: { band: 'excellent', degradedMode: false } }, real);
      const poor = match({ ...input, credit: { band: 'poor', degradedMode: false } }, real);
      expect(excellent.acceptedOffers.length).toBeGreaterThan(poor.acceptedOffers.length);
      expect(excellent.acceptedOffers.length).toBeGreaterThanOrEqual(3);
      if (poor.acceptedOffers.length > 0)
        expect(cheapest(excellent.acceptedOffers)).toBeLessThan(cheapest(poor.acceptedOffers));
      expect(poor.nearMissOffers.length + poor.acceptedOffers.length).toBeGreaterThan(0);
    },
  );

  test('when a poor personal applicant is matched, then specialist lenders near-miss on their credit criteria', () => {
    const poor = match(application('personal', { 1: { loanAmount: 20000 } }, 'poor'), real);
    expect(poor.nearMissOffers.length).toBeGreaterThan(0);
    for (const offer of poor.nearMissOffers) expect(offer.reasons).toContainEqual(CREDIT_REASON);
  });

  test('when bands go from excellent to poor, then the number of accepted personal offers never rises', () => {
    const bands: ScoreBand[] = ['excellent', 'very_good', 'good', 'average', 'below_average', 'poor'];
    const counts = bands.map(
      (band) => match(application('personal', { 1: { loanAmount: 20000 } }, band), real).acceptedOffers.length,
    );
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThanOrEqual(counts[i - 1]);
    expect(counts[0]).toBeGreaterThan(counts[5]);
  });

  test('when every offer is read, then none has a comparison rate above 48%, accepted offers are in order, and complete applications are pre-qualified', () => {
    for (const band of ['excellent', 'average', 'below_average', 'poor'] as const)
      for (const type of ['personal', 'car', 'home'] as const) {
        const { acceptedOffers } = match(application(type, {}, band), real);
        const rates = acceptedOffers.map((o) => o.offerDetails.comparisonRate);
        expect(rates).toEqual([...rates].sort((x, y) => x - y));
        for (const rate of rates) expect(rate).toBeLessThanOrEqual(48);
        for (const offer of acceptedOffers) expect(offer).toMatchObject({ certainty: 'pre_qualified', conditions: [] });
        for (const offer of acceptedOffers) expect(offer).not.toHaveProperty('assumedLoanTermMonths');
      }
  });
});

// ---------------------------------------------------------------------------------------------
// Purity and incomplete input
// ---------------------------------------------------------------------------------------------

describe('matchOffers as a function', () => {
  test('when the same application is matched twice, then the results are equal and the input is unchanged', () => {
    const input = application('car', {}, 'good');
    const before = structuredClone(input);
    expect(matchOffers(input, catalogue)).toEqual(matchOffers(input, catalogue));
    expect(input).toEqual(before);
  });

  test('when numbers are stored as numeric strings, then they are read as numbers', () => {
    const asStrings = application('personal', {
      1: { loanAmount: '30000' },
      2: { loanTerm: '5' },
      3: { grossMonthlyIncome: '8000', employmentYears: '3' },
    });
    expect(match(asStrings)).toEqual(match(application('personal')));
  });

  test('when a field matching needs is missing, then the outcome is incomplete_application and names it (an unreadable income is only unknown)', () => {
    const result = matchOffers(
      application('home', { 2: { propertyValue: undefined }, 4: { grossMonthlyIncome: 'lots' } }),
      catalogue,
    );
    expect(result).toMatchObject({
      outcome: 'incomplete_application',
      missing: [{ step: 2, field: 'propertyValue' }],
      acceptedOffers: [],
      nearMissOffers: [],
    });
  });

  test('when the car purpose is written in its long form, then it matches like the short one', () => {
    expect(match(application('car', { 1: { carLoanPurpose: 'UsedCarPurchase' } }))).toEqual(match(application('car')));
  });
});
