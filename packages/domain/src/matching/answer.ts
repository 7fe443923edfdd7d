/**
 * What a match answers for each product it kept: an accepted offer with its details (and, when it is
 * indicative, its conditions), or a near-miss with its reasons and what would qualify (worded by
 * `NEAR_MISS_WORDING`).
 */
import type { Candidate, Context } from './assess';
import { headlineOf } from './catalogue';
import { offerConditions } from './conditions';
import { round2 } from './finance';
import type { AcceptedOffer, NearMissOffer, NearMissRequirement, OfferDetails } from './match-types';
import { NEAR_MISS_WORDING } from './near-miss-wording';

/**
 * The headline and benchmark example are the catalogue's own, except that with an LMI premium the
 * comparison rate is the one with the premium of the applicant's LVR on the benchmark loan.
 */
const headlineFor = (c: Candidate): string =>
  c.lmiRow < 0 ? c.price.headline : headlineOf(c.price.headlinePrefix, c.comparisonRate);

export function acceptedOffer(c: Candidate, x: Context): AcceptedOffer {
  const { a } = x;
  const p = c.product;
  const details: OfferDetails = {
    interestRate: c.price.rate,
    comparisonRate: c.comparisonRate,
    comparisonRateWarning: p.comparisonRateWarning,
    comparisonRateExample: c.lmiRow < 0 ? p.comparisonRateExample : p.lmiExamples[c.lmiRow],
    loanAmount: a.loanAmount,
    loanTermMonths: c.termMonths,
    monthlyRepayment: c.repayment,
    establishmentFee: p.definition.fees.establishment,
    monthlyFee: p.definition.fees.monthly,
  };
  // A loan type's own figures follow the common ones, in this order (the answer's key order).
  let offerDetails = details;
  if (a.formType === 'car')
    offerDetails = { ...details, balloonAmount: round2((a.loanAmount * a.balloonPercent) / 100) };
  else if (a.formType === 'home')
    offerDetails = {
      ...details,
      repaymentType: a.repaymentType,
      ...(a.interestOnly
        ? {
            interestOnlyMonths: c.interestOnlyMonths,
            interestRateAfterInterestOnly: c.price.revertRate,
            repaymentAfterInterestOnly: c.afterInterestOnly,
          }
        : {}),
      lvr: c.lvr,
      lendersMortgageInsurance: c.lmiRow >= 0,
      lmiPremium: c.lmiPremium,
      amountFinanced: c.amountFinanced,
    };
  return {
    lender: p.lender,
    product: p.product,
    headline: headlineFor(c),
    certainty: c.indicative ? 'indicative' : 'pre_qualified',
    offerDetails,
    conditions: c.indicative ? offerConditions(c, x) : [],
    ...(a.termKnown ? {} : { assumedLoanTermMonths: c.termMonths }),
    lenderUrl: p.lenderUrl,
  };
}

export function nearMissOffer(c: Candidate, x: Context): NearMissOffer {
  const facts = { applicant: x.a, product: c.product };
  const requirements: (NearMissRequirement & { direction: 'atMost' | 'atLeast'; value: number })[] = [];
  for (const miss of c.misses) {
    const { field, direction, value, text } = NEAR_MISS_WORDING[miss.rule].requirement;
    const requirement = { field, direction, value: value ? value(miss) : miss.needed, requirement: text(miss, facts) };
    // Requirements on one field and in one direction combine: the tightest one is kept.
    const same = requirements.findIndex((r) => r.field === field && r.direction === direction);
    if (same < 0) requirements.push(requirement);
    else if (
      direction === 'atMost'
        ? requirement.value < requirements[same].value
        : requirement.value > requirements[same].value
    )
      requirements[same] = requirement;
  }
  return {
    lender: c.product.lender,
    product: c.product.product,
    headline: headlineFor(c),
    reasons: c.misses.map((miss) => {
      const wording = NEAR_MISS_WORDING[miss.rule];
      return { field: wording.field, rule: wording.rule(miss, facts), actual: wording.actual(miss, facts) };
    }),
    wouldQualifyIf: requirements.map(({ field, requirement }) => ({ field, requirement })),
  };
}
