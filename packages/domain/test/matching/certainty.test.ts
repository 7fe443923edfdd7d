/**
 * Matching on what is known: a thin application (no term, employment, income or living situation, as a
 * Variant B application may be) gets indicative offers with conditions, priced by its credit result over
 * an assumed term; a complete one gets pre-qualified offers. Figures on the test catalogue of fixtures.ts
 * (serviceability: 75% of income after tax, living costs 1,500 + 500 a dependant, housing floors renting
 * 1,000, own_mortgage 1,500, with parents 0), worked by hand in the comments.
 *
 * test-personal at excellent: 10%, buffered at 13%; over 60 months pmt(1, 13, 60) = 0.0227531, so the
 * buffered repayment on $30,000 is 682.59; the repayment at 10% is 637.41.
 */
import {
  COST_RATE_CAP_PERCENT,
  comparisonRate,
  loadDefaultCatalogue,
  matchOffers,
  type CatalogueFile,
  type MatchInput,
  type MatchResult,
  type ScoreBand,
} from '../../src/matching';
import { REFERENCE_YEAR, TEST_CATALOGUE_FILE, application, catalogueWith, testCatalogue } from './fixtures';

const catalogue = testCatalogue();

function assessed(result: MatchResult) {
  if (result.outcome !== 'assessed') throw new Error(`expected an assessment, got ${JSON.stringify(result)}`);
  return result;
}

/** What Variant B's flat create gives: the amount and the purpose, nothing of steps 3-4, no term. */
function thin(
  steps: Partial<Record<2 | 3 | 4, Record<string, unknown>>> = {},
  band: ScoreBand | null = 'excellent',
  amount = 30000,
): MatchInput {
  return {
    formType: 'personal',
    steps: {
      1: { loanAmount: amount },
      2: { loanPurpose: 'debt_consolidation', ...steps[2] },
      3: steps[3],
      4: steps[4],
    },
    credit: { band, degradedMode: band === null },
    referenceYear: REFERENCE_YEAR,
  };
}

const offerOf = (input: MatchInput, id: string, on = catalogue) =>
  assessed(matchOffers(input, on)).acceptedOffers.find((o) => o.product.id === id);

describe('a thin application', () => {
  test('when only the amount and purpose are known, then test-personal is indicative over its benchmark term, priced by the band, with what the lender will need', () => {
    // Unknown living: the income asked for carries the greatest housing floor (own_mortgage 1,500) and no dependants:
    // (1,500 + 1,500 + 10 + 682.59) / 0.75 = 4,923.46 → 4,924, above the product's minimum of 3,000.
    const offer = offerOf(thin(), 'test-personal');
    expect(offer).toEqual({
      lender: { id: 'test-bank', name: 'Test Bank' },
      product: { id: 'test-personal', name: 'Personal Loan' },
      headline: 'Test Bank Personal Loan: 10.00% p.a. (comparison 11.04% p.a.)',
      certainty: 'indicative',
      offerDetails: expect.objectContaining({
        interestRate: 10,
        comparisonRate: 11.04,
        loanAmount: 30000,
        loanTermMonths: 60,
        monthlyRepayment: 637.41,
      }),
      conditions: [
        { field: 'loanTerm', requirement: 'between 1 and 7 years; this offer assumes 5 years' },
        { field: 'employmentType', requirement: 'one of full_time, part_time' },
        { field: 'timeInJob', requirement: 'at least 6 months in the current job' },
        {
          field: 'grossMonthlyIncome',
          requirement: 'at least $4,924/month (with housing costs of at most $1,500/month and no dependants)',
        },
        {
          field: 'livingSituation',
          requirement: 'housing costs of at most $1,500/month and no dependants, at the income above',
        },
      ],
      assumedLoanTermMonths: 60,
      lenderUrl: 'https://test-bank.example/apply',
      commission: null,
    });
  });

  test('when the band is average, then the indicative offer is priced at the average rate', () => {
    expect(offerOf(thin({}, 'average'), 'test-personal')?.offerDetails).toMatchObject({
      interestRate: 14,
      monthlyRepayment: 698.05,
    });
  });

  test('when the income is known and the living situation is not, then the condition is the housing the income leaves room for', () => {
    // 75% × 8,000 − 1,500 living − 10 fee − 682.59 buffered = 3,807.41 → at most 3,807, less 500 a dependant.
    const offer = offerOf(
      thin({ 2: { loanTerm: 5 }, 3: { employmentType: 'full_time', grossMonthlyIncome: 8000, employmentYears: 3 } }),
      'test-personal',
    );
    expect(offer).toMatchObject({
      certainty: 'indicative',
      conditions: [
        {
          field: 'livingSituation',
          requirement: 'housing costs of at most $3,807/month, less $500/month for each dependant',
        },
      ],
    });
    expect(offer).not.toHaveProperty('assumedLoanTermMonths');
  });

  test('when only the income is unknown, then the condition is the income that services this repayment with the known housing', () => {
    // Renting at 1,500: (1,500 + 1,500 + 10 + 682.59) / 0.75 = 4,923.46 → 4,924.
    const offer = offerOf(
      thin({
        2: { loanTerm: 5 },
        3: { employmentType: 'full_time', employmentYears: 3 },
        4: { livingSituation: 'renting', monthlyRent: 1500 },
      }),
      'test-personal',
    );
    expect(offer?.conditions).toEqual([{ field: 'grossMonthlyIncome', requirement: 'at least $4,924/month' }]);
  });

  test('when a known rule fails, then the product is a near-miss or nothing, as on a complete application', () => {
    // $60,000 is 20% over test-personal's maximum of $50,000 (margin 10%): ruled out. $52,000 is 4% over: a near-miss.
    expect(offerOf(thin({}, 'excellent', 60000), 'test-personal')).toBeUndefined();
    const near = assessed(matchOffers(thin({}, 'excellent', 52000), catalogue)).nearMissOffers.find(
      (o) => o.product.id === 'test-personal',
    );
    expect(near?.reasons).toEqual([{ field: 'loanAmount', rule: 'at most $50,000', actual: '$52,000' }]);
    // Below the product's minimum band (average) by one band: a near-miss on the credit score.
    expect(
      assessed(matchOffers(thin({}, 'below_average'), catalogue)).nearMissOffers.map((o) =>
        o.reasons.map((r) => r.field),
      ),
    ).toEqual([['creditScore']]);
  });

  test('when the time in the job is not given, then it is a condition of an indicative offer, not a miss; given, it is assessed', () => {
    const working = (work: Record<string, unknown>) =>
      application('personal', { 3: { employmentYears: undefined, ...work } });
    // test-personal asks for 6 months in the job; test-car for none, so its offer stays pre-qualified.
    expect(offerOf(working({}), 'test-personal')).toMatchObject({
      certainty: 'indicative',
      conditions: [{ field: 'timeInJob', requirement: 'at least 6 months in the current job' }],
    });
    const car = application('car', { 3: { employmentYears: undefined } });
    expect(offerOf(car, 'test-car')).toMatchObject({ certainty: 'pre_qualified', conditions: [] });
    // Told: 0 months is 6 short, beyond the margin of 3 (ruled out); 4 months is a near-miss.
    expect(assessed(matchOffers(working({ employmentMonths: 0 }), catalogue)).acceptedOffers).not.toContainEqual(
      expect.objectContaining({ product: expect.objectContaining({ id: 'test-personal' }) }),
    );
    const near = assessed(matchOffers(working({ employmentMonths: 4 }), catalogue));
    expect(near.nearMissOffers.find((o) => o.product.id === 'test-personal')?.reasons).toEqual([
      { field: 'timeInJob', rule: 'at least 6 months in the current job', actual: '4 months' },
    ]);
    expect(offerOf(working({ employmentMonths: 6 }), 'test-personal')).toMatchObject({ certainty: 'pre_qualified' });
  });

  test("when a used car's year or sale type, or a refinanced car's year, is not given, then each is a condition of an indicative offer; given, it is assessed", () => {
    // test-car finances cars up to 10 years old (model year 2015 in 2025) from a dealer or a private sale.
    const car = (step1: Record<string, unknown>) => application('car', { 1: step1 });
    const dealerOnly = catalogueWith('test-car', (product) => {
      product.car.saleTypes = ['dealer'];
      product.purposes = ['new', 'used', 'refinance'];
    });
    const notFound = { hasFoundCar: 'no', vehicleYear: undefined, usedCarSaleType: undefined };
    expect(offerOf(car(notFound), 'test-car', dealerOnly)).toMatchObject({
      certainty: 'indicative',
      conditions: [
        { field: 'vehicleYear', requirement: 'model year 2015 or newer' },
        { field: 'usedCarSaleType', requirement: 'one of dealer' },
      ],
    });
    // A product that takes either sale asks for the year only; a refinance has no sale to ask about.
    expect(offerOf(car(notFound), 'test-car')?.conditions).toEqual([
      { field: 'vehicleYear', requirement: 'model year 2015 or newer' },
    ]);
    const refinance = { ...notFound, carLoanPurpose: 'refinance', hasFoundCar: undefined };
    expect(offerOf(car(refinance), 'test-car', dealerOnly)?.conditions).toEqual([
      { field: 'vehicleYear', requirement: 'model year 2015 or newer' },
    ]);
    // Told: a 2019 dealer car is pre-qualified, a private sale is ruled out by a dealer-only product.
    expect(offerOf(car({}), 'test-car', dealerOnly)).toMatchObject({ certainty: 'pre_qualified', conditions: [] });
    expect(offerOf(car({ usedCarSaleType: 'private' }), 'test-car', dealerOnly)).toBeUndefined();
    // A new car has no age and is a dealer sale: nothing to ask.
    const newCar = { carLoanPurpose: 'new', hasFoundCar: 'no', vehicleYear: undefined, usedCarSaleType: undefined };
    expect(offerOf(car(newCar), 'test-car', dealerOnly)).toMatchObject({ certainty: 'pre_qualified', conditions: [] });
  });

  test('when the living situation is unknown and even no housing cost leaves too little, then serviceability is missed on the known income', () => {
    // Least housing floor 0: 75% × 3,000 − 1,500 − 10 = 740 < 36,000 × 0.0227531 = 819.11: a miss, whatever the living situation.
    const input = thin(
      { 2: { loanTerm: 5 }, 3: { employmentType: 'full_time', grossMonthlyIncome: 3000, employmentYears: 3 } },
      'excellent',
      36000,
    );
    const result = assessed(matchOffers(input, catalogue));
    expect(result.acceptedOffers.map((o) => o.product.id)).not.toContain('test-personal');
    expect(result.nearMissOffers.find((o) => o.product.id === 'test-personal')?.reasons.map((r) => r.field)).toEqual([
      'serviceability',
    ]);
  });

  test('when every condition of an indicative offer is met, then the complete application is pre-qualified for the same loan; one dollar less income is not', () => {
    const offer = offerOf(thin(), 'test-personal')!;
    const complete = (income: number) =>
      application('personal', {
        1: { loanAmount: 30000 },
        2: { loanTerm: 5 },
        3: { employmentType: 'full_time', grossMonthlyIncome: income, employmentYears: 0, employmentMonths: 6 },
        4: { livingSituation: 'own_mortgage', monthlyRent: 1500, dependents: 0 },
      });
    const met = offerOf(complete(4924), 'test-personal');
    expect(met).toMatchObject({ certainty: 'pre_qualified', conditions: [], offerDetails: offer.offerDetails });
    expect(offerOf(complete(4923), 'test-personal')).toBeUndefined();
  });
});

describe('ranking and the rules that hold for every offer', () => {
  test('when one product is pre-qualified and a cheaper one indicative, then the pre-qualified one ranks first', () => {
    // test-any-work takes every employment type with no time in the job: the unknown employment type does not matter to it.
    const anyWork = {
      ...TEST_CATALOGUE_FILE.products[0],
      id: 'test-any-work',
      name: 'Any Work Loan',
      employment: {
        types: [
          ...'full_time part_time casual contract contractor self_employed unemployed retired student centrelink'.split(
            ' ',
          ),
        ],
        minimumMonthsInJob: 0,
      },
      rates: { excellent: 12, very_good: 13, good: 14, average: 15, below_average: 'decline', poor: 'decline' },
    } as CatalogueFile['products'][number];
    const withAnyWork = testCatalogue({ ...TEST_CATALOGUE_FILE, products: [...TEST_CATALOGUE_FILE.products, anyWork] });
    const input = thin({
      2: { loanTerm: 5 },
      3: { grossMonthlyIncome: 8000 },
      4: { livingSituation: 'renting', monthlyRent: 1500 },
    });
    const { acceptedOffers } = assessed(matchOffers(input, withAnyWork));
    expect(acceptedOffers.map((o) => [o.product.id, o.certainty, o.offerDetails.interestRate])).toEqual([
      ['test-any-work', 'pre_qualified', 12],
      ['test-personal', 'indicative', 10],
    ]);
    expect(acceptedOffers[1].conditions).toEqual([
      { field: 'employmentType', requirement: 'one of full_time, part_time' },
      { field: 'timeInJob', requirement: 'at least 6 months in the current job' },
    ]);
  });

  test('when thin applications are matched on the real catalogue in every band, then each group is in order, indicative after pre-qualified, and no loan costs over 48% a year', () => {
    const loaded = loadDefaultCatalogue();
    if (!loaded.ok) throw loaded.error;
    let indicative = 0;
    for (const band of ['excellent', 'very_good', 'good', 'average', 'below_average', 'poor', null] as const) {
      for (const amount of [3000, 15000, 40000]) {
        const { acceptedOffers } = assessed(matchOffers(thin({}, band, amount), loaded.value));
        const firstIndicative = acceptedOffers.findIndex((o) => o.certainty === 'indicative');
        for (const [i, offer] of acceptedOffers.entries()) {
          if (firstIndicative >= 0 && i >= firstIndicative) expect(offer.certainty).toBe('indicative');
          if (offer.certainty === 'indicative') indicative++;
          expect(offer.offerDetails.comparisonRate).toBeLessThanOrEqual(COST_RATE_CAP_PERCENT);
          const d = offer.offerDetails;
          const own = comparisonRate({
            amount: d.loanAmount,
            termMonths: d.loanTermMonths,
            annualRatePercent: d.interestRate,
            establishmentFee: d.establishmentFee,
            monthlyFee: d.monthlyFee,
          });
          expect(own).toBeLessThanOrEqual(COST_RATE_CAP_PERCENT);
          expect(offer.assumedLoanTermMonths).toBe(d.loanTermMonths);
          expect(offer.conditions.map((c) => c.field)).toEqual(
            expect.arrayContaining(['loanTerm', 'grossMonthlyIncome', 'livingSituation']),
          );
        }
        const groups = [
          acceptedOffers.slice(0, Math.max(firstIndicative, 0)),
          acceptedOffers.slice(Math.max(firstIndicative, 0)),
        ];
        for (const group of groups) {
          const rates = group.map((o) => o.offerDetails.comparisonRate);
          expect(rates).toEqual([...rates].sort((x, y) => x - y));
        }
      }
    }
    expect(indicative).toBeGreaterThan(20);
  });

  test('when the application is complete, then every accepted offer is pre-qualified, with no conditions and no assumed term', () => {
    for (const type of ['personal', 'car', 'home'] as const) {
      for (const offer of assessed(matchOffers(application(type), catalogue)).acceptedOffers) {
        expect(offer.certainty).toBe('pre_qualified');
        expect(offer.conditions).toEqual([]);
        expect(offer).not.toHaveProperty('assumedLoanTermMonths');
      }
    }
  });
});
