/**
 * Matching one application against the catalogue: a pure function of its input (no clock, no
 * randomness, no I/O). Each product of the application's loan type is assessed (assess.ts); those that
 * pass are ranked as accepted offers, pre-qualified before indicative, those that narrowly miss as
 * near-misses (ranking.ts), and the kept ones worded as the answer (answer.ts, conditions.ts).
 */
import { acceptedOffer, nearMissOffer } from './answer';
import { readApplicant, assessCredit } from './applicant';
import { assess, type Candidate, type Context } from './assess';
import { round2 } from './finance';
import { finishOrder, keepBest } from './ranking';
import {
  BANDS_BEST_FIRST,
  HOME_PURPOSES,
  OCCUPANCY_TYPES,
  type Catalogue,
  type MatchInput,
  type MatchResult,
} from './types';

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
    isHome: a.formType === 'home',
    balloonAmount: round2((a.loanAmount * a.balloonPercent) / 100),
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
  for (let i = 0; i < table.size; i++) {
    const c = assess(table, i, context);
    if (c === null) continue;
    if (c.misses !== null) keepBest(near, c, limit);
    else if (c.indicative) rankedIndicative[c.position] = c;
    else ranked[c.position] = c;
  }
  const accepted = inOrder(ranked);
  if (!a.complete) accepted.push(...inOrder(rankedIndicative));
  return {
    outcome: 'assessed',
    assessment,
    acceptedOffers: accepted.map((c) => acceptedOffer(c, table, context)),
    nearMissOffers: near.map((c) => nearMissOffer(c, table, context)),
  };
}

/** The candidates placed by position, without the gaps, in their final order. */
function inOrder(placed: readonly (Candidate | undefined)[]): Candidate[] {
  const out: Candidate[] = [];
  for (const c of placed) if (c !== undefined) out.push(c);
  finishOrder(out);
  return out;
}
