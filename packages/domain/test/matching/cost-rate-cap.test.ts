/**
 * The 48% cap on the annual cost rate, on the test catalogue's costly small loan (fixtures.ts): a band
 * priced above it is never offered, and neither is a loan whose own cost rate is above it.
 * Figures worked with the Python of finance.test.ts.
 */
import { matchOffers, type AcceptedOffer, type MatchInput, type MatchResult, type ScoreBand } from '../../src/matching';
import { application, testCatalogue } from './fixtures';

const catalogue = testCatalogue();

function match(input: MatchInput) {
  const result: MatchResult = matchOffers(input, catalogue);
  if (result.outcome !== 'assessed') throw new Error(JSON.stringify(result));
  return result;
}
const ids = (offers: readonly { product: { id: string } }[]) => offers.map((o) => o.product.id);
const accepted = (input: MatchInput, id: string): AcceptedOffer => {
  const offer = match(input).acceptedOffers.find((o) => o.product.id === id);
  if (offer === undefined) throw new Error(`${id} was not accepted: ${JSON.stringify(match(input))}`);
  return offer;
};

describe('the cost-rate cap', () => {
  const smallLoan = (loanAmount: number, loanTerm: number, band: ScoreBand) =>
    application(
      'personal',
      {
        1: { loanAmount },
        2: { loanTerm },
        3: { grossMonthlyIncome: 4000 },
        4: { livingSituation: 'living_with_parents', monthlyRent: 0 },
      },
      band,
    );

  test('when the annual cost rate is 47.17% (below 48%), then the costly product is offered', () => {
    // test-costly at below_average: 30%, $400 + $20 a month; $5,000 over 2 years: pmt = 279.56, irr(4600, [299.56] * 24) = 47.17.
    expect(accepted(smallLoan(5000, 2, 'below_average'), 'test-costly').offerDetails).toMatchObject({
      interestRate: 30,
      comparisonRate: 47.17,
      monthlyRepayment: 279.56,
    });
  });

  test('when the loan asked for costs 51.71% a year though the product quotes 47.17%, then it is neither accepted nor near-missed', () => {
    // $4,000 over 2 years at 30%: irr(3600, [pmt(4000, 30, 24) + 20] * 24) = 51.71 > 48.
    const result = match(smallLoan(4000, 2, 'below_average'));
    expect(ids(result.acceptedOffers)).not.toContain('test-costly');
    expect(ids(result.nearMissOffers)).not.toContain('test-costly');
  });

  test('when the band is priced above the cap (poor: 45% → comparison 62.29%), then the product is neither accepted nor near-missed', () => {
    const result = match(smallLoan(5000, 2, 'poor'));
    expect(result.acceptedOffers).toEqual([]);
    expect(result.nearMissOffers).toEqual([]);
  });
});
