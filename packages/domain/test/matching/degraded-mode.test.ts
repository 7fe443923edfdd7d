/**
 * Degraded mode: when the bureau was unavailable, matching prices one band below the applicant's own
 * estimate, and says so without naming the band it used. Figures on the test catalogue of fixtures.ts.
 */
import { matchOffers, type MatchInput, type MatchResult, type ScoreBand } from '../../src/matching';
import { application, testCatalogue } from './fixtures';

const catalogue = testCatalogue();

function match(input: MatchInput) {
  const result: MatchResult = matchOffers(input, catalogue);
  if (result.outcome !== 'assessed') throw new Error(JSON.stringify(result));
  return result;
}
const ids = (offers: readonly { product: { id: string } }[]) => offers.map((o) => o.product.id);

describe('degraded mode', () => {
  test.each<[string, ScoreBand, string, MatchInput]>([
    [
      'the personal estimate is good',
      'average',
      'good',
      application('personal', { 2: { creditScoreEstimate: 'good' } }, null),
    ],
    [
      'the personal estimate is excellent',
      'very_good',
      'excellent',
      application('personal', { 2: { creditScoreEstimate: 'excellent' } }, null),
    ],
    ['the estimate is poor', 'poor', 'poor', application('personal', { 2: { creditScoreEstimate: 'poor' } }, null)],
    [
      'the estimate is unknown',
      'below_average',
      'unknown',
      application('personal', { 2: { creditScoreEstimate: 'unknown' } }, null),
    ],
    ['no estimate is given', 'below_average', 'unknown', application('personal', {}, null)],
    [
      'a car applicant passes an estimate of very_good',
      'good',
      'very_good',
      application('car', {}, null, { creditScoreEstimate: 'very_good' }),
    ],
  ])(
    'when the bureau is unavailable and %s, then matching prices at %s and says so',
    (_label, band, estimate, input) => {
      const { assessment } = match(input);
      expect(assessment).toMatchObject({
        basis: 'self_estimate',
        band,
        estimate,
        notice: expect.stringContaining('credit bureau could not be reached'),
      });
    },
  );

  test('when the bureau is unavailable and the estimate is good, then the offer is the one an average applicant gets', () => {
    // test-personal at average: 14%; repayment pmt(30000, 14, 60) = 698.05.
    const degraded = match(application('personal', { 2: { creditScoreEstimate: 'good' } }, null));
    const average = match(application('personal', {}, 'average'));
    expect(degraded.acceptedOffers).toEqual(average.acceptedOffers);
    expect(degraded.acceptedOffers[0].offerDetails).toMatchObject({ interestRate: 14, monthlyRepayment: 698.05 });
    expect(average.assessment).toEqual({ basis: 'bureau', band: 'average' });
  });

  test('when the bureau is unavailable and nothing is known, then the applicant near-misses what an average band would get', () => {
    const result = match(application('personal', {}, null));
    expect(ids(result.acceptedOffers)).toEqual([]);
    expect(ids(result.nearMissOffers)).toEqual(['test-personal']);
  });

  test('when the bureau is unavailable, then the notice echoes the estimate as sent and names no band it assessed', () => {
    const withEstimate = match(application('personal', { 2: { creditScoreEstimate: 'good' } }, null)).assessment;
    expect(withEstimate).toMatchObject({ basis: 'self_estimate', band: 'average' });
    if (withEstimate.basis !== 'self_estimate') return;
    expect(withEstimate.notice).toContain("the applicant's own credit estimate (good)");
    expect(withEstimate.notice).not.toMatch(/average/i);
    const without = match(application('personal', {}, null)).assessment;
    if (without.basis !== 'self_estimate') throw new Error('expected a self estimate');
    expect(without.notice).not.toMatch(/excellent|good|average|poor/i);
  });
});
