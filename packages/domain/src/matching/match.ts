/**
 * Matching one application against the catalogue: a pure function of its input (no clock, no randomness,
 * no I/O). Each product of the loan type is assessed: those that pass are offers, those that nearly do near-misses.
 */
import { acceptedOffer } from './answer';
import { assessCredit, readApplicant } from './applicant';
import { assess, contextOf, type Candidate } from './assess';
import type { MatchInput, MatchResult } from './match-types';
import { nearMissOffer } from './near-miss';
import type { Catalogue } from './catalogue';

const byId = (x: Candidate, y: Candidate): number =>
  x.product.product.id < y.product.product.id ? -1 : x.product.product.id > y.product.product.id ? 1 : 0;

/** Accepted: pre-qualified first, then the cheapest comparison rate, the lowest repayment, the product id. */
const acceptedOrder = (x: Candidate, y: Candidate): number =>
  Number(x.indicative) - Number(y.indicative) ||
  x.comparisonRate - y.comparisonRate ||
  x.repayment - y.repayment ||
  byId(x, y);

/** Near-misses: fewest missed rules, then the closest (least of the margins used), then by comparison rate and id. */
const nearMissOrder = (x: Candidate, y: Candidate): number =>
  x.misses.length - y.misses.length || x.closeness - y.closeness || x.comparisonRate - y.comparisonRate || byId(x, y);

export function matchOffers(input: MatchInput, catalogue: Catalogue): MatchResult {
  const assessment = assessCredit(input);
  const a = readApplicant(input);
  if (Array.isArray(a))
    return { outcome: 'incomplete_application', assessment, missing: a, acceptedOffers: [], nearMissOffers: [] };
  const context = contextOf(a, assessment.band, catalogue, input.referenceYear);
  const accepted: Candidate[] = [];
  const near: Candidate[] = [];
  for (const product of catalogue.productsByType[a.formType]) {
    const c = assess(product, context);
    if (c !== null) (c.misses.length === 0 ? accepted : near).push(c);
  }
  const acceptedOffers = accepted.sort(acceptedOrder).map((c) => acceptedOffer(c, context));
  const kept = near.sort(nearMissOrder).slice(0, catalogue.nearMiss.maxResults);
  return {
    outcome: 'assessed',
    assessment,
    acceptedOffers,
    nearMissOffers: kept.map((c) => nearMissOffer(c, context)),
  };
}
