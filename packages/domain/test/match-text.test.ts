/**
 * `matchViewText`, a match answer's JSON text written out key by key, must be `JSON.stringify(view)`
 * to the character, for every shape an answer takes: the three loan types, every band and no band
 * (degraded, self-estimate), interest-only and principal-and-interest home loans, balloons, near misses,
 * and catalogue text that needs escaping.
 */
import fc from 'fast-check';
import { matchView, matchViewText, type MatchView } from '../src/offers';
import { generateCatalogue } from '@loanmatch/catalogue-generator';
import { loadDefaultCatalogue, matchOffers, type Catalogue, type MatchInput, type ScoreBand } from '../src/matching';
import { TEST_CATALOGUE_FILE, application, testCatalogue } from './matching/fixtures';

function defaultCatalogue(): Catalogue {
  const loaded = loadDefaultCatalogue();
  if (!loaded.ok) throw loaded.error;
  return loaded.value;
}

const BANDS: Array<ScoreBand | null> = ['excellent', 'very_good', 'good', 'average', 'below_average', 'poor', null];

function viewOf(input: MatchInput, catalogue: Catalogue, publicBaseUrl = 'https://api.loanmatch.example'): MatchView {
  const result = matchOffers(input, catalogue);
  if (result.outcome !== 'assessed') throw new Error(`not assessed: ${JSON.stringify(result)}`);
  const now = new Date(Date.UTC(2026, 10, 22, 12, 0, 0, 123));
  return matchView(result, {
    applicationId: '0a8b6f54-317d-4816-a949-d73b4507bddb',
    matchId: '71abdc2f-29a7-4d41-870f-44863d68df09',
    now,
    expiresAt: new Date(now.getTime() + 7_200_000),
    degradedMode: input.credit.degradedMode,
    signToken: (offerId) => Buffer.from(offerId).toString('base64url'),
    publicBaseUrl,
  }).view;
}

const inputs = fc.record({
  formType: fc.constantFrom('personal' as const, 'car' as const, 'home' as const),
  band: fc.constantFrom(...BANDS),
  amount: fc.integer({ min: 2_000, max: 900_000 }),
  term: fc.integer({ min: 1, max: 30 }),
  income: fc.integer({ min: 1_500, max: 40_000 }),
  interestOnly: fc.boolean(),
  balloon: fc.constantFrom(0, 10, 20, 30),
  estimate: fc.constantFrom(undefined, 'excellent', 'good', 'fair', 'unknown'),
});

type Drawn = typeof inputs extends fc.Arbitrary<infer T> ? T : never;

/** An application of the drawn kind, its numbers kept within what each loan type asks. */
function inputOf(x: Drawn): MatchInput {
  if (x.formType === 'personal')
    return application('personal', { 1: { loanAmount: Math.min(x.amount, 80_000) }, 2: { loanTerm: Math.min(x.term, 7) }, 3: { grossMonthlyIncome: x.income } }, x.band, { creditScoreEstimate: x.estimate });
  if (x.formType === 'car')
    return application('car', { 2: { loanAmount: Math.min(x.amount, 120_000), loanTerm: Math.min(x.term, 7), balloonPaymentPercent: x.balloon }, 3: { grossMonthlyIncome: x.income } }, x.band);
  return application(
    'home',
    { 2: { propertyValue: Math.max(x.amount * 1.25, 200_000) }, 3: { loanAmount: Math.max(x.amount, 100_000), loanTerm: Math.max(x.term, 10), repaymentType: x.interestOnly ? 'interest_only' : 'principal_and_interest' }, 4: { grossMonthlyIncome: x.income } },
    x.band,
  );
}

describe('the text of a match answer', () => {
  const catalogues: Array<[string, Catalogue]> = [
    ['the default catalogue', defaultCatalogue()],
    ['a generated catalogue of 3,000 products', generateCatalogue(3000, 11)],
  ];

  it.each(catalogues)('when applications of every kind are matched against %s, then the text is JSON.stringify of the answer', (_name, catalogue) => {
    let offers = 0;
    let nearMisses = 0;
    let selfEstimates = 0;
    fc.assert(
      fc.property(inputs, (x) => {
        const view = viewOf(inputOf(x), catalogue);
        offers += view.acceptedOffers.length;
        nearMisses += view.nearMissOffers.length;
        if (view.assessment.basis === 'self_estimate') selfEstimates++;
        expect(matchViewText(view)).toBe(JSON.stringify(view));
      }),
      { numRuns: 300 },
    );
    // The runs did reach answers with offers, near misses and a self-estimate's notice, not only empty ones.
    expect(offers).toBeGreaterThan(100);
    expect(nearMisses).toBeGreaterThan(20);
    expect(selfEstimates).toBeGreaterThan(10);
  });

  it('when every shape of offer details is present, then each is written as JSON.stringify writes it', () => {
    const catalogue = generateCatalogue(3000, 5);
    const keysSeen = new Set<string>();
    for (const input of [
      application('personal', {}, 'good'),
      application('car', { 2: { balloonPaymentPercent: 20 } }, 'good'),
      application('home', { 3: { repaymentType: 'interest_only' } }, 'good'),
      application('home', { 3: { repaymentType: 'principal_and_interest' } }, 'good'),
    ]) {
      const view = viewOf(input, catalogue);
      for (const offer of view.acceptedOffers) for (const key of Object.keys(offer.offerDetails as object)) keysSeen.add(key);
      expect(matchViewText(view)).toBe(JSON.stringify(view));
    }
    expect(keysSeen).toEqual(new Set(['interestRate', 'comparisonRate', 'comparisonRateWarning', 'comparisonRateExample', 'loanAmount', 'loanTermMonths', 'monthlyRepayment', 'establishmentFee', 'monthlyFee', 'balloonAmount', 'repaymentType', 'interestOnlyMonths', 'repaymentAfterInterestOnly', 'lvr', 'lendersMortgageInsurance']));
  });

  it('when thin applications get indicative offers, then their certainty, conditions and assumed term are written as JSON.stringify writes them', () => {
    const thin: Array<Partial<Record<1 | 2 | 3 | 4, Record<string, unknown>>>> = [
      { 2: { loanTerm: undefined }, 3: { employmentType: undefined, grossMonthlyIncome: undefined }, 4: { livingSituation: undefined } },
      { 2: { loanTerm: undefined } },
      { 3: { grossMonthlyIncome: undefined } },
      { 3: { employmentType: undefined } },
      { 4: { livingSituation: undefined } },
      { 3: { grossMonthlyIncome: undefined }, 4: { livingSituation: undefined } },
    ];
    let indicative = 0;
    for (const catalogue of [defaultCatalogue(), testCatalogue()]) {
      for (const changes of thin) {
        for (const band of BANDS) {
          const view = viewOf(application('personal', changes, band), catalogue);
          indicative += view.acceptedOffers.filter((o) => o.certainty === 'indicative').length;
          expect(matchViewText(view)).toBe(JSON.stringify(view));
        }
      }
    }
    expect(indicative).toBeGreaterThan(20);
  });

  it('when catalogue names and the public address hold characters JSON escapes, then the text still is JSON.stringify of the answer', () => {
    const odd = ['Quote "Bank"', 'Back\\slash', 'Tab\there', 'Line\u2028sep', 'Emoji 😀 Loans', 'Zoë & Søn'];
    const file = {
      ...TEST_CATALOGUE_FILE,
      lenders: TEST_CATALOGUE_FILE.lenders.map((l, i) => ({ ...l, name: odd[i % odd.length] })),
      products: TEST_CATALOGUE_FILE.products.map((p, i) => ({ ...p, name: odd[(i + 3) % odd.length] })),
    };
    const view = viewOf(application('personal', {}, 'excellent'), testCatalogue(file), 'https://api.example/"odd"\\path');
    expect(view.acceptedOffers.length).toBeGreaterThan(0);
    expect(matchViewText(view)).toBe(JSON.stringify(view));
  });

  it.each<[string, Record<string, unknown>]>([
    ['a detail the writer does not know', { promotion: 'first month free' }],
    ['an optional detail present as undefined', { balloonAmount: undefined }],
    ['a detail missing (undefined)', { comparisonRateExample: undefined }],
    ['a number that is not finite', { monthlyRepayment: Number.NaN, lvr: Number.POSITIVE_INFINITY }],
    ['a detail of another type', { loanAmount: '15000', lendersMortgageInsurance: 'no' }],
  ])('when an offer carries %s, then the text is still JSON.stringify of the answer', (_case, change) => {
    const view = viewOf(application('personal', {}, 'excellent'), defaultCatalogue());
    const changed: MatchView = { ...view, acceptedOffers: view.acceptedOffers.map((o) => ({ ...o, offerDetails: { ...(o.offerDetails as object), ...change } as never })) };
    expect(changed.acceptedOffers.length).toBeGreaterThan(0);
    expect(matchViewText(changed)).toBe(JSON.stringify(changed));
  });
});
