/**
 * The order of a match's answer: accepted offers by cost (pre-qualified ones before indicative ones,
 * each group in this order: match.ts), near-misses by how near they are, each ending on the product id
 * so that equal offers always come in the same order.
 */
import type { Candidate } from './candidate';

const byId = (x: Candidate, y: Candidate): number =>
  x.productId < y.productId ? -1 : x.productId > y.productId ? 1 : 0;

/** Accepted: cheapest comparison rate first, then the lowest repayment, then product id. */
const acceptedOrder = (x: Candidate, y: Candidate): number =>
  x.comparisonRate - y.comparisonRate || x.repayment - y.repayment || byId(x, y);

/** Near-misses: fewest missed rules, then the closest (least of the margins used), then as accepted. */
const nearMissOrder = (x: Candidate, y: Candidate): number =>
  x.misses!.length - y.misses!.length || x.closeness - y.closeness || x.comparisonRate - y.comparisonRate || byId(x, y);

/**
 * Accepted candidates are placed by the catalogue's ranking for the applicant's band and variant
 * (comparison rate, rate, id), which is already the order by comparison rate and repayment except where
 * two rates round to the same repayment. An insertion sort finishes the order in one pass.
 */
export function finishOrder(accepted: Candidate[]): void {
  for (let i = 1; i < accepted.length; i++) {
    const c = accepted[i];
    let j = i;
    while (j > 0 && acceptedOrder(c, accepted[j - 1]) < 0) {
      accepted[j] = accepted[j - 1];
      j--;
    }
    accepted[j] = c;
  }
}

/** Accepted candidates whose comparison rates include an LMI premium are no longer in the catalogue's order: a full sort. */
export function sortAccepted(accepted: Candidate[]): void {
  accepted.sort(acceptedOrder);
}

/** Keeps the `limit` best near-misses in order (a bounded insertion, not a sort of them all). */
export function keepBest(best: Candidate[], c: Candidate, limit: number): void {
  if (best.length === limit && (limit === 0 || nearMissOrder(c, best[limit - 1]) >= 0)) return;
  let i = best.length;
  best.push(c);
  while (i > 0 && nearMissOrder(c, best[i - 1]) < 0) {
    best[i] = best[i - 1];
    i--;
  }
  best[i] = c;
  if (best.length > limit) best.pop();
}
