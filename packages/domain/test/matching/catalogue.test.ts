/**
 * The catalogue: the real file loads and has what the issue asks of it; a broken catalogue is refused
 * with a message naming the product (or lender) and the rule it breaks.
 */
import { readFileSync } from 'node:fs';
import {
  BANDS_BEST_FIRST,
  CATALOGUE_PATH,
  COMPARISON_RATE_WARNING,
  COST_RATE_CAP_PERCENT,
  loadCatalogue,
  loadDefaultCatalogue,
  type Catalogue,
  type CatalogueFile,
} from '../../src/matching';
import { TEST_CATALOGUE_FILE } from './fixtures';

type Json = Record<string, any>;

function realCatalogue(): Catalogue {
  const loaded = loadDefaultCatalogue();
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

describe('the catalogue file in the repository', () => {
  const catalogue = realCatalogue();

  test('when it is loaded, then it has at least 12 lenders and 30 products across personal, car and home', () => {
    expect(catalogue.lenders.length).toBeGreaterThanOrEqual(12);
    expect(catalogue.products.length).toBeGreaterThanOrEqual(30);
    for (const type of ['personal', 'car', 'home'] as const)
      expect(catalogue.productsByType[type].length).toBeGreaterThanOrEqual(8);
  });

  test('when it is loaded, then every lender has an id, a name and an https address, and offers at least one product', () => {
    for (const lender of catalogue.lenders) {
      expect(lender).toEqual({
        id: expect.stringMatching(/^[a-z0-9-]+$/),
        name: expect.any(String),
        url: expect.stringMatching(/^https:\/\/[^/]+\.example\//),
      });
      expect(catalogue.products.some((p) => p.lender.id === lender.id)).toBe(true);
    }
  });

  test('when it is loaded, then every product prices or declines each of the six bands, and is offered at its minimum band', () => {
    for (const { definition } of catalogue.products) {
      expect(Object.keys(definition.rates).sort()).toEqual([...BANDS_BEST_FIRST].sort());
      expect(typeof definition.rates[definition.minimumBand]).toBe('number');
    }
  });

  test('when it is loaded, then it covers the home loan cases: LMI above 80%, first home buyers, investment, interest only, refinance, construction', () => {
    const home = catalogue.productsByType.home
      .map((p) => p.definition)
      .flatMap((d) => (d.loanType === 'home' ? [d] : []));
    expect(
      home.some((d) => (d.home.occupancy.owner_occupied?.maxLvrPercent ?? 0) > 80 && d.home.lmiAboveLvrPercent === 80),
    ).toBe(true);
    expect(home.some((d) => d.home.firstHomeBuyerOnly)).toBe(true);
    expect(home.some((d) => d.home.occupancy.investment !== undefined)).toBe(true);
    expect(home.some((d) => d.home.repaymentTypes.includes('interest_only'))).toBe(true);
    expect(home.some((d) => d.purposes.includes('refinance'))).toBe(true);
    expect(home.some((d) => d.purposes.includes('construction'))).toBe(true);
  });

  test('when Harbour Bank variable home loan is priced, then excellent is 5.89% with a comparison rate of 6.04% (worked in finance.test.ts)', () => {
    const product = catalogue.products.find((p) => p.product.id === 'harbour-home-variable')!;
    expect(product.benchmark).toEqual({ amount: 150000, termMonths: 300 });
    expect(product.prices[0]).toMatchObject({
      rate: 5.89,
      comparisonRate: 6.04,
      capped: false,
      headline: 'Harbour Bank Variable Home Loan: 5.89% p.a. (comparison 6.04% p.a.)',
    });
  });

  test(`when a band's comparison rate is above ${COST_RATE_CAP_PERCENT}%, then the loaded price is marked capped`, () => {
    // Quickstep's small loan at poor: 44.99% with $600 + $25 a month on its nearest benchmark, $10,000 over 3 years.
    // Python: irr(10000 - 600, [pmt(10000, 44.99, 36) + 25] * 36) = 54.60; at below_average (37.99%): 47.53.
    const product = catalogue.products.find((p) => p.product.id === 'quickstep-small-loan')!;
    expect(product.benchmark).toEqual({ amount: 10000, termMonths: 36 });
    expect(product.prices[5]).toMatchObject({ comparisonRate: 54.6, capped: true });
    expect(product.prices[4]).toMatchObject({ comparisonRate: 47.53, capped: false });
  });

  test('when a car product is priced, then its comparison rate is on $30,000 over 5 years: Harbour Bank car at very_good is 8.54%', () => {
    // 7.49% with $250 + $10 a month: irr(29750, [pmt(30000, 7.49, 60) + 10] * 60) = 8.5439 (finance.test.ts);
    // on its own maximum, $150,000 over 7 years, it was quoted 7.68%.
    const product = catalogue.products.find((p) => p.product.id === 'harbour-car')!;
    expect(product.benchmark).toEqual({ amount: 30000, termMonths: 60 });
    expect(product.comparisonRateExample).toBe('a $30,000 secured loan over 5 years');
    expect(product.comparisonRateWarning).toBe(COMPARISON_RATE_WARNING);
    expect(product.prices[1]).toMatchObject({ rate: 7.49, comparisonRate: 8.54 });
    for (const car of catalogue.productsByType.car)
      expect(car.comparisonRateExample).toMatch(/^a \$[\d,]+ secured loan over \d+ years$/);
  });

  test('when a product cannot be written at its benchmark, then the warning says so and names the loan it is quoted on', () => {
    const product = catalogue.products.find((p) => p.product.id === 'quickstep-small-loan')!;
    expect(product.comparisonRateWarning).toBe(
      `${COMPARISON_RATE_WARNING} This product is not offered at the benchmark of $30,000 over 5 years: its comparison rate is for the nearest loan it offers, a $10,000 unsecured loan over 3 years.`,
    );
  });

  test('when it is loaded, then every car product has a vehicle LVR and every home product lending above its LMI threshold names a table that covers it', () => {
    for (const { definition: d, lmiTable } of catalogue.products) {
      if (d.loanType === 'car') expect(d.car.maxLvrPercent).toBeGreaterThanOrEqual(100);
      if (d.loanType !== 'home') continue;
      const highest = Math.max(...Object.values(d.home.occupancy).map((o) => o?.maxLvrPercent ?? 0));
      if (highest <= d.home.lmiAboveLvrPercent) continue;
      const table = lmiTable!;
      expect(table.name).toBe(d.home.lmi?.table);
      expect(table.lvrAbove[0]).toBeLessThanOrEqual(d.home.lmiAboveLvrPercent);
      expect(table.lvrUpTo.at(-1)).toBeGreaterThanOrEqual(highest);
      expect(table.loanAmountUpTo.at(-1)).toBeGreaterThanOrEqual(d.loanAmount.max);
    }
  });

  test('when read through loadDefaultCatalogue, then it is the file at CATALOGUE_PATH', () => {
    const again = loadCatalogue(JSON.parse(readFileSync(CATALOGUE_PATH, 'utf8')));
    expect(again.ok && again.value.products.map((p) => p.product.id)).toEqual(
      catalogue.products.map((p) => p.product.id),
    );
  });
});

describe('loadCatalogue refusing a broken catalogue', () => {
  const broken = (change: (file: Json) => void): unknown => {
    const file = structuredClone(TEST_CATALOGUE_FILE) as Json;
    change(file);
    return file;
  };
  const product = (file: Json, id: string): Json => file.products.find((p: Json) => p.id === id);

  test.each<[string, (file: Json) => void, string]>([
    [
      'a minimum loan amount above the maximum',
      (f) => (product(f, 'test-personal').loanAmount.min = 60000),
      'product test-personal: loanAmount: min (60000) must not exceed max (50000)',
    ],
    [
      'a minimum term above the maximum',
      (f) => (product(f, 'test-car').loanTermYears = { min: 8, max: 7 }),
      'product test-car: loanTermYears: min (8) must not exceed max (7)',
    ],
    [
      'a negative rate',
      (f) => (product(f, 'test-personal').rates.excellent = -1),
      'product test-personal: rates.excellent: must be a rate in percent per year (0 to 100) or "decline"',
    ],
    [
      'a band neither priced nor declined',
      (f) => delete product(f, 'test-personal').rates.poor,
      'product test-personal: rates.poor: is required',
    ],
    [
      'a band priced below the minimum band',
      (f) => (product(f, 'test-personal').rates.below_average = 18),
      'product test-personal: rates.below_average: must be "decline": below_average is below minimumBand average',
    ],
    [
      'a band declined at the minimum band',
      (f) => (product(f, 'test-personal').rates.average = 'decline'),
      'product test-personal: rates.average: must be priced: average is at or above minimumBand average',
    ],
    [
      'a worse band priced cheaper',
      (f) => (product(f, 'test-personal').rates.average = 11.5),
      'product test-personal: rates.average: 11.5 must not be below rates.good (12): a worse band is never cheaper',
    ],
    [
      'a negative establishment fee',
      (f) => (product(f, 'test-car').fees.establishment = -5),
      'product test-car: fees.establishment: must be >= 0',
    ],
    [
      'a lender that does not exist',
      (f) => (product(f, 'test-car').lenderId = 'nobody'),
      'product test-car: lenderId: no lender nobody in the catalogue',
    ],
    [
      'a serviceability policy that does not exist',
      (f) => (product(f, 'test-car').serviceability = 'lenient'),
      'product test-car: serviceability: no serviceability policy lenient in the catalogue',
    ],
    [
      'a product id used twice',
      (f) => (product(f, 'test-costly').id = 'test-personal'),
      'product test-personal: id: appears more than once',
    ],
    [
      'interest only offered without its terms',
      (f) => delete product(f, 'test-home-95').home.interestOnly,
      'product test-home-95: home.interestOnly: is required when repaymentTypes has interest_only',
    ],
    [
      'an LVR above 100%',
      (f) => (product(f, 'test-home-80').home.occupancy.owner_occupied.maxLvrPercent = 105),
      'product test-home-80: home.occupancy.owner_occupied.maxLvrPercent: must be <= 100',
    ],
    [
      'a balloon on no term the product offers',
      (f) => (product(f, 'test-car').loanTermYears.min = 6),
      'product test-car: car.balloon.maxTermYears: (5) allows a balloon on no term of the product (loanTermYears.min 6)',
    ],
    [
      'an unknown loan type',
      (f) => (product(f, 'test-car').loanType = 'boat'),
      'product test-car: loanType: must be personal, car or home',
    ],
    [
      'a field the format does not have',
      (f) => (product(f, 'test-car').colour = 'red'),
      'product test-car: colour: is not a field of the catalogue format',
    ],
    [
      'an employment type the application forms do not have',
      (f) => (product(f, 'test-car').employment.types = ['astronaut']),
      'product test-car: employment.types.0: must be one of full_time',
    ],
    [
      'a lender address that is not https',
      (f) => (f.lenders[0].url = 'http://test-bank.example/apply'),
      'lender test-bank: url: must be an https address',
    ],
    [
      'a near-miss margin below zero',
      (f) => (f.nearMiss.margins.lvrPercentPoints = -1),
      'catalogue: nearMiss.margins.lvrPercentPoints: must be >= 0',
    ],
    [
      'every band above the cost cap',
      (f) =>
        Object.assign(product(f, 'test-costly').rates, {
          excellent: 60,
          very_good: 60,
          good: 60,
          average: 60,
          below_average: 60,
          poor: 60,
        }),
      'product test-costly: rates: every priced band has a comparison rate above 48%: the product could never be offered',
    ],
    [
      'a car product without a vehicle LVR',
      (f) => delete product(f, 'test-car').car.maxLvrPercent,
      'product test-car: car.maxLvrPercent: is required: a car loan states its largest amount as a share of what the vehicle calls for (price less deposit and trade-in, plus any trade-in payout)',
    ],
    [
      'a vehicle LVR of 0',
      (f) => (product(f, 'test-car').car.maxLvrPercent = 0),
      'product test-car: car.maxLvrPercent: must be >= 1',
    ],
    [
      'a home product lending above its LMI threshold without an LMI table',
      (f) => delete product(f, 'test-home-95').home.lmi,
      'product test-home-95: home.lmi: is required: an occupancy lends above lmiAboveLvrPercent (80%), so its premium needs a table',
    ],
    [
      'an LMI table that does not exist',
      (f) => (product(f, 'test-home-95').home.lmi.table = 'nowhere'),
      'product test-home-95: home.lmi.table: no LMI table nowhere in the catalogue',
    ],
    [
      'an LMI table with a gap between two LVR rows',
      (f) => (f.lmiTables.test.rows[1].lvrAbovePercent = 86),
      'LMI table test: rows.1.lvrAbovePercent: (86) must equal rows.0.lvrUpToPercent (85): LVRs between them would have no premium',
    ],
    [
      'an LMI table missing a premium for a loan amount',
      (f) => f.lmiTables.test.rows[2].premiumPercent.pop(),
      'LMI table test: rows.2.premiumPercent: has 1 premiums for 2 loan amounts in loanAmountUpTo: a gap in the table',
    ],
    [
      'an LMI table that stops below the product’s highest LVR',
      (f) => f.lmiTables.test.rows.pop(),
      "product test-home-95: home.lmi.table: LMI table test covers LVRs above 80% up to 90%, not every LVR from lmiAboveLvrPercent (80%) to the product's highest (95%): a gap in the table",
    ],
    [
      'an LMI table that stops below the product’s largest loan',
      (f) => (f.lmiTables.test.loanAmountUpTo[1] = 1000000),
      "product test-home-95: home.lmi.table: LMI table test covers loans up to 1000000, not the product's loanAmount.max (2000000): a gap in the table",
    ],
    [
      'an LMI table where a higher LVR is cheaper',
      (f) => (f.lmiTables.test.rows[1].premiumPercent[0] = 0.5),
      'LMI table test: rows.1.premiumPercent.0: (0.5) must not be below the premium of a lower LVR (rows.0: 1)',
    ],
    [
      'an LMI table where a larger loan is cheaper',
      (f) => (f.lmiTables.test.rows[0].premiumPercent[1] = 0.5),
      'LMI table test: rows.0.premiumPercent.1: (0.5) must not be below the premium of a smaller loan (1)',
    ],
    [
      'a comparison-rate benchmark other than the regulation’s',
      (f) => (f.comparisonRateBenchmarks.car = { amount: 150000, termYears: 25, secured: true }),
      'catalogue: comparisonRateBenchmarks.car.amount: must be 30000: the reg 100 benchmark for car loans',
    ],
  ])('when the catalogue has %s, then it is refused naming the product and the rule', (_label, change, message) => {
    const result = loadCatalogue(broken(change));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('VALIDATION_ERROR');
    expect(result.error.message).toContain(message);
    expect(result.error.details?.length).toBeGreaterThan(0);
  });

  test('when the catalogue is not an object, then it is refused', () => {
    const result = loadCatalogue(null);
    expect(!result.ok && result.error.message).toBe('catalogue is invalid: catalogue: must be object');
  });

  test('when a product breaks a rule, then the violation names the product in its field path', () => {
    const result = loadCatalogue(broken((f) => (product(f, 'test-personal').loanAmount.min = 60000)));
    expect(!result.ok && result.error.details).toEqual([
      {
        field: 'product[test-personal].loanAmount',
        rule: 'minNotAboveMax',
        message: 'product test-personal: loanAmount: min (60000) must not exceed max (50000)',
      },
    ]);
  });

  test('when a catalogue is loaded, then changing the input afterwards changes nothing, and the loaded definitions are frozen', () => {
    const file = structuredClone(TEST_CATALOGUE_FILE) as Json;
    const loaded = loadCatalogue(file);
    if (!loaded.ok) throw new Error(loaded.error.message);
    file.products[0].loanAmount.max = 1;
    expect(loaded.value.products[0].definition.loanAmount.max).toBe(50000);
    expect(Object.isFrozen(loaded.value.products[0].definition.loanAmount)).toBe(true);
    expect(Object.isFrozen(loaded.value.products[0].prices[0])).toBe(true);
  });

  test('when the test catalogue is loaded, then it is valid (the baseline every case above breaks one thing of)', () => {
    expect(loadCatalogue(TEST_CATALOGUE_FILE satisfies CatalogueFile).ok).toBe(true);
  });
});
