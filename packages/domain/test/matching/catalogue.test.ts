/**
 * The catalogue: the real file loads and has what the issue asks of it; a broken catalogue is refused
 * with a message naming the product (or lender) and the rule it breaks.
 */
import { readFileSync } from 'node:fs';
import {
  BANDS_BEST_FIRST,
  CATALOGUE_PATH,
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
      'an employment type the spec does not have',
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
