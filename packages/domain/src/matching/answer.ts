/**
 * What a match answers for each product it kept: an accepted offer with its details (and, when it is
 * indicative, its conditions), or a near-miss with its reasons and what would qualify (worded by
 * `NEAR_MISS_WORDING`).
 */
import type { Candidate, Context } from './candidate';
import { offerConditions } from './conditions';
import { headlineOf } from './headline';
import type { AcceptedOffer, NearMissOffer, NearMissReason, NearMissRequirement, OfferDetails } from './match-types';
import { NEAR_MISS_WORDING, type WordingFacts } from './near-miss-wording';
import type { ProductTable } from './types';

/**
 * The headline and benchmark example of a candidate are the catalogue's own, except that with an LMI
 * premium the comparison rate is the one with the premium of the applicant's LVR on the benchmark loan,
 * and the example says so (both prepared at catalogue load; only the headline's end is written here).
 */
const headlineFor = (c: Candidate, t: ProductTable): string =>
  c.lmiRow < 0 ? t.headline[c.priceIndex] : headlineOf(t.headlinePrefix[c.priceIndex], c.comparisonRate);
const exampleFor = (c: Candidate, t: ProductTable): string =>
  c.lmiRow < 0 ? t.comparisonRateExample[c.row] : t.lmiExample[c.row * t.lmiRows + c.lmiRow];

export function acceptedOffer(c: Candidate, t: ProductTable, x: Context): AcceptedOffer {
  const a = x.a;
  const i = c.row;
  const k = c.priceIndex;
  const details: OfferDetails = {
    interestRate: t.rate[k],
    comparisonRate: c.comparisonRate,
    comparisonRateWarning: t.comparisonRateWarning[i],
    comparisonRateExample: exampleFor(c, t),
    loanAmount: a.loanAmount,
    loanTermMonths: c.termMonths,
    monthlyRepayment: c.repayment,
    establishmentFee: t.establishmentFee[i],
    monthlyFee: t.monthlyFee[i],
  };
  // A loan type's own figures follow the common ones, in this order (the answer's key order).
  let offerDetails = details;
  if (x.isCar) offerDetails = { ...details, balloonAmount: x.balloonAmount };
  else if (x.isHome)
    offerDetails = {
      ...details,
      repaymentType: a.interestOnly ? 'interest_only' : 'principal_and_interest',
      ...(a.interestOnly
        ? {
            interestOnlyMonths: c.interestOnlyMonths,
            interestRateAfterInterestOnly: t.revertRate[k],
            repaymentAfterInterestOnly: c.afterInterestOnly,
          }
        : {}),
      lvr: c.lvr,
      lendersMortgageInsurance: c.lmiRow >= 0,
      lmiPremium: c.lmiPremium,
      amountFinanced: c.amountFinanced,
    };
  if (!c.indicative) {
    return {
      lender: t.lender[i],
      product: t.product[i],
      headline: headlineFor(c, t),
      certainty: 'pre_qualified',
      offerDetails,
      conditions: [],
      lenderUrl: t.lenderUrl[i],
    };
  }
  return {
    lender: t.lender[i],
    product: t.product[i],
    headline: headlineFor(c, t),
    certainty: 'indicative',
    offerDetails,
    conditions: offerConditions(c, t, x),
    ...(a.termKnown ? {} : { assumedLoanTermMonths: c.termMonths }),
    lenderUrl: t.lenderUrl[i],
  };
}

interface Requirement {
  readonly field: string;
  readonly direction: 'atMost' | 'atLeast';
  readonly value: number;
  readonly text: string;
}

export function nearMissOffer(c: Candidate, t: ProductTable, x: Context): NearMissOffer {
  const product = x.products[c.row];
  const facts: WordingFacts = { applicant: x.a, product };
  const reasons: NearMissReason[] = [];
  const requirements: Requirement[] = [];
  for (const miss of c.misses ?? []) {
    const wording = NEAR_MISS_WORDING[miss.rule];
    reasons.push({
      field: wording.field,
      rule: wording.rule(miss, facts),
      actual: wording.actual(miss, facts),
    });
    const { field, direction, value, text } = wording.requirement;
    const requirement: Requirement = {
      field,
      direction,
      value: value ? value(miss) : miss.needed,
      text: text(miss, facts),
    };
    // Requirements on one field and in one direction combine: the tightest one is kept.
    const same = requirements.findIndex((r) => r.field === requirement.field && r.direction === requirement.direction);
    if (same < 0) requirements.push(requirement);
    else {
      const kept = requirements[same];
      const tighter =
        requirement.direction === 'atMost' ? requirement.value < kept.value : requirement.value > kept.value;
      if (tighter) requirements[same] = requirement;
    }
  }
  const wouldQualifyIf: NearMissRequirement[] = requirements.map((r) => ({ field: r.field, requirement: r.text }));
  return {
    lender: t.lender[c.row],
    product: t.product[c.row],
    headline: headlineFor(c, t),
    reasons,
    wouldQualifyIf,
  };
}
