/**
 * What a match answers for each product it kept: an accepted offer with its details (and, when it is
 * indicative, its conditions), or a near-miss with its reasons and what would qualify (worded by
 * `NEAR_MISS_WORDING`).
 */
import type { Candidate, Context } from './assess';
import { COMPARISON_RATE_WARNING } from './catalogue';
import { offerConditions } from './conditions';
import { NEAR_MISS_WORDING, type WordingFacts } from './near-miss-wording';
import type {
  AcceptedOffer,
  NearMissOffer,
  NearMissReason,
  NearMissRequirement,
  OfferDetails,
  ProductTable,
} from './types';

export function acceptedOffer(c: Candidate, t: ProductTable, x: Context): AcceptedOffer {
  const a = x.a;
  const i = c.row;
  const k = c.priceIndex;
  const details: OfferDetails = {
    interestRate: t.rate[k],
    comparisonRate: c.comparisonRate,
    comparisonRateWarning: COMPARISON_RATE_WARNING,
    comparisonRateExample: t.comparisonRateExample[i],
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
        ? { interestOnlyMonths: c.interestOnlyMonths, repaymentAfterInterestOnly: c.afterInterestOnly }
        : {}),
      lvr: c.lvr,
      lendersMortgageInsurance: c.lvr > t.lmiAboveLvrPercent[i],
    };
  if (!c.indicative) {
    return {
      lender: t.lender[i],
      product: t.product[i],
      headline: t.headline[k],
      certainty: 'pre_qualified',
      offerDetails,
      conditions: [],
      lenderUrl: t.lenderUrl[i],
    };
  }
  return {
    lender: t.lender[i],
    product: t.product[i],
    headline: t.headline[k],
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
  const facts: WordingFacts = { applicant: x.a, product, price: product.prices[c.slot]! };
  const reasons: NearMissReason[] = [];
  const requirements: Requirement[] = [];
  for (const miss of c.misses ?? []) {
    const wording = NEAR_MISS_WORDING[miss.rule];
    reasons.push({
      field: wording.field,
      rule: wording.rule(miss, facts),
      actual: wording.actual ? wording.actual(miss) : miss.actual,
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
    headline: t.headline[c.priceIndex],
    reasons,
    wouldQualifyIf,
  };
}
