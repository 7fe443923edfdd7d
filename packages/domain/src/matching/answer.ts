/**
 * An accepted offer: its details and, when it is indicative, its conditions: for each rule the application
 * could not be assessed on, what the lender will need to see. Together the conditions are enough: meeting
 * every one passes every rule of the product at the offer's amount, term and price.
 */
import { limitsSale, type Candidate, type Context } from './assess';
import { dollars, months, perMonth, round2, years } from './finance';
import type { AcceptedOffer, Requirement } from './match-types';
import { EMPLOYMENT_TYPES, USED_CAR_SALE_TYPES } from '../validation/schemas';

export function acceptedOffer(c: Candidate, x: Context): AcceptedOffer {
  const { a } = x;
  const p = c.product;
  const offerDetails: AcceptedOffer['offerDetails'] = {
    interestRate: c.price.rate,
    comparisonRate: c.comparisonRate,
    comparisonRateWarning: p.comparisonRateWarning,
    comparisonRateExample: c.lmiRow < 0 ? p.comparisonRateExample : p.lmiExamples[c.lmiRow],
    loanAmount: a.loanAmount,
    loanTermMonths: c.termMonths,
    monthlyRepayment: c.repayment,
    establishmentFee: p.definition.fees.establishment,
    monthlyFee: p.definition.fees.monthly,
    // A loan type's own figures follow, in this order (the answer's key order).
    ...(a.formType === 'car' ? { balloonAmount: round2((a.loanAmount * a.balloonPercent) / 100) } : {}),
    ...(a.formType === 'home'
      ? {
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
        }
      : {}),
  };
  return {
    lender: p.lender,
    product: p.product,
    headline: c.headline,
    certainty: c.indicative ? 'indicative' : 'pre_qualified',
    offerDetails,
    conditions: c.indicative ? offerConditions(c, x) : [],
    ...(a.termKnown ? {} : { assumedLoanTermMonths: c.termMonths }),
    lenderUrl: p.lenderUrl,
    commission: p.commission,
  };
}

/** The candidate's conditions, in the order of the steps (vehicle, term, employment, income, living). */
function offerConditions(c: Candidate, x: Context): Requirement[] {
  const { a } = x;
  const d = c.product.definition;
  const conditions: Requirement[] = [];
  if (!a.vehicleKnown && d.loanType === 'car') {
    // loan ≤ maxLvr% × (price − contribution)  ⇔  price ≥ loan × 100 / maxLvr + contribution
    const maxLvr = d.car.maxLvrPercent;
    const price = Math.ceil((a.loanAmount * 100) / maxLvr + a.vehicleContribution);
    conditions.push({
      field: 'estimatedCarPrice',
      requirement: `at least ${dollars(price)} with the deposit and trade-in given: the loan may be at most ${maxLvr}% of the price less deposit and trade-in, plus any trade-in payout`,
    });
  }
  if (d.loanType === 'car' && !a.vehicleAgeKnown)
    conditions.push({
      field: 'vehicleYear',
      requirement: `model year ${x.referenceYear - d.car.maxVehicleAgeYears} or newer`,
    });
  if (d.loanType === 'car' && !a.saleTypeKnown && limitsSale(d.car.saleTypes))
    conditions.push({
      field: 'usedCarSaleType',
      requirement: `one of ${USED_CAR_SALE_TYPES.filter((t) => d.car.saleTypes.includes(t)).join(', ')}`,
    });
  if (!a.termKnown) {
    const { min, max } = d.loanTermYears;
    const range = min === max ? years(min) : `between ${min} and ${years(max)}`;
    conditions.push({ field: 'loanTerm', requirement: `${range}; this offer assumes ${years(c.termMonths / 12)}` });
  }
  const allowed = EMPLOYMENT_TYPES.filter((type) => d.employment.types.includes(type));
  if (!a.employmentKnown && allowed.length < EMPLOYMENT_TYPES.length)
    conditions.push({ field: 'employmentType', requirement: `one of ${allowed.join(', ')}` });
  const minMonths = d.employment.minimumMonthsInJob;
  if ((!a.employmentKnown || !a.tenureKnown) && minMonths > 0)
    conditions.push({ field: 'timeInJob', requirement: `at least ${months(minMonths)} in the current job` });

  // Serviceability (assess.ts) with unknown living costs stated at the greatest housing floor and no
  // dependants, so that the income asked for is enough for them.
  const policy = c.product.serviceability;
  const share = policy.netIncomePercent / 100;
  const fee = d.fees.monthly;
  const { base: living, perDependant } = policy.livingCosts;
  const countedOther = a.otherIncome * (policy.otherIncomePercent / 100);
  if (!a.incomeKnown) {
    const floors = policy.housingCostFloor;
    const floor = a.livingSituation ? floors[a.livingSituation] : Math.max(0, ...Object.values(floors));
    const housing = x.replacesHousing ? 0 : Math.max(a.monthlyRent, floor);
    const dependants = a.livingKnown ? a.dependants : 0;
    const outgoings = housing + living + perDependant * dependants + fee;
    const serviced = Math.ceil((outgoings + c.buffered) / share - countedOther);
    const needed = Math.max(Math.ceil(d.minimumMonthlyIncome - countedOther), serviced);
    const assumed = x.replacesHousing
      ? 'no dependants'
      : `housing costs of at most ${perMonth(housing)} and no dependants`;
    const assuming = a.livingKnown ? '' : ` (with ${assumed})`;
    conditions.push({ field: 'grossMonthlyIncome', requirement: `at least ${perMonth(needed)}${assuming}` });
    if (!a.livingKnown) conditions.push({ field: 'livingSituation', requirement: `${assumed}, at the income above` });
  } else if (!a.livingKnown) {
    // What the known income leaves for housing and dependants once the repayment and living costs are met.
    const room = Math.floor((a.grossMonthlyIncome + countedOther) * share - living - fee - c.buffered);
    const each = perDependant > 0 ? `, less ${perMonth(perDependant)} for each dependant` : '';
    const requirement = x.replacesHousing
      ? `dependants' living costs of at most ${perMonth(room)}`
      : `housing costs of at most ${perMonth(room)}${each}`;
    conditions.push({ field: 'livingSituation', requirement });
  }
  return conditions;
}
