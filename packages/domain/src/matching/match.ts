/**
 * Matching one application against the catalogue: a pure function of its input (no clock, no
 * randomness, no I/O). Each product of the application's loan type is assessed (assess.ts); those that
 * pass are ranked as accepted offers, pre-qualified before indicative, those that narrowly miss as
 * near-misses (ranking.ts), and the kept ones worded as the answer (answer.ts, conditions.ts).
 */
import { acceptedOffer, nearMissOffer } from './answer';
import { readApplicant, assessCredit } from './applicant';
import { assess } from './assess';
import type { Candidate, Context } from './candidate';
import { round2 } from './finance';
import { lmiRowOf, premiumRateOf } from './lmi';
import type { MatchInput, MatchResult } from './match-types';
import { finishOrder, keepBest, sortAccepted } from './ranking';
import { BANDS_BEST_FIRST, HOME_PURPOSES, OCCUPANCY_TYPES, type Catalogue } from './types';

const OWNER_OCCUPIED = OCCUPANCY_TYPES.indexOf('owner_occupied');
const INVESTMENT = OCCUPANCY_TYPES.indexOf('investment');

/** Matches one application against the catalogue. */
export function matchOffers(input: MatchInput, catalogue: Catalogue): MatchResult {
  const assessment = assessCredit(input);
  const read = readApplicant(input);
  if (!read.ok)
    return {
      outcome: 'incomplete_application',
      assessment,
      missing: read.missing,
      acceptedOffers: [],
      nearMissOffers: [],
    };
  const a = read.applicant;
  const bandRank = BANDS_BEST_FIRST.indexOf(assessment.band);
  // The LMI premium of the amount asked, once per table rather than once per product.
  const isHome = a.formType === 'home';
  const lmiTables = catalogue.lmiTables;
  const lmiRowAsked = new Int32Array(isHome ? lmiTables.length : 0);
  const lmiRateAsked = new Float64Array(isHome ? lmiTables.length : 0);
  if (isHome)
    lmiTables.forEach((table, n) => {
      lmiRowAsked[n] = lmiRowOf(table, a.loanAmount, a.propertyValue);
      lmiRateAsked[n] = premiumRateOf(table, a.loanAmount, a.propertyValue);
    });
  const context: Context = {
    a,
    products: catalogue.productsByType[a.formType],
    bandRank,
    priceSlot:
      (a.formType === 'home' ? (a.interestOnly ? 1 : 0) | (a.occupancyIndex === INVESTMENT ? 2 : 0) : 0) *
        BANDS_BEST_FIRST.length +
      bandRank,
    margins: catalogue.nearMiss.margins,
    maxMisses: catalogue.nearMiss.maxMissedRules,
    referenceYear: input.referenceYear,
    isCar: a.formType === 'car',
    isHome,
    balloonAmount: round2((a.loanAmount * a.balloonPercent) / 100),
    lmiTables,
    lmiRowAsked,
    lmiRateAsked,
    // An owner-occupied home loan takes the place of the applicant's rent or mortgage, except when it
    // releases equity from a home that keeps its own mortgage.
    replacesHousing:
      a.formType === 'home' &&
      a.occupancyIndex === OWNER_OCCUPIED &&
      a.purposeBit !== 1 << HOME_PURPOSES.indexOf('equity_release'),
  };
  const table = catalogue.tables[a.formType];
  // Accepted offers go straight to their place in the catalogue's ranking (see `BandPrice.position`);
  // pre-qualified ones before indicative ones, which only a thin application has.
  const ranked: (Candidate | undefined)[] = new Array(table.size);
  const rankedIndicative: (Candidate | undefined)[] = a.complete ? [] : new Array(table.size);
  const near: Candidate[] = [];
  const limit = catalogue.nearMiss.maxResults;
  // A premium changes a comparison rate from the one the catalogue's ranking was made on.
  let premiums = false;
  for (let i = 0; i < table.size; i++) {
    const c = assess(table, i, context);
    if (c === null) continue;
    if (c.misses !== null) keepBest(near, c, limit);
    else {
      if (c.lmiRow >= 0) premiums = true;
      if (c.indicative) rankedIndicative[c.position] = c;
      else ranked[c.position] = c;
    }
  }
  const accepted = inOrder(ranked, premiums);
  if (!a.complete) accepted.push(...inOrder(rankedIndicative, premiums));
  return {
    outcome: 'assessed',
    assessment,
    acceptedOffers: accepted.map((c) => acceptedOffer(c, table, context)),
    nearMissOffers: near.map((c) => nearMissOffer(c, table, context)),
  };
}

/** The candidates placed by position, without the gaps, in their final order. */
function inOrder(placed: readonly (Candidate | undefined)[], premiums: boolean): Candidate[] {
  const out: Candidate[] = [];
  for (const c of placed) if (c !== undefined) out.push(c);
  if (premiums) sortAccepted(out);
  else finishOrder(out);
  return out;
}
