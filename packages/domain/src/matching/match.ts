/**
 * Matching one application against the catalogue: a pure function of its input (no clock, no
 * randomness, no I/O).
 *
 * Each product of the application's loan type is assessed rule by rule:
 * - category rules (purpose, employment type, sale type, occupancy, first home buyer, repayment type)
 *   either pass or rule the product out: no margin makes a wrong category "nearly right";
 * - measured rules (credit band, amount, term, income, time in job, vehicle age, balloon, LVR,
 *   serviceability) pass, or miss by a distance; a miss within the catalogue's margin keeps the
 *   product as a near-miss candidate, a miss beyond it rules the product out;
 * - a product missed by more than `maxMissedRules` rules is ruled out;
 * - a band priced above the cost-rate cap, or a loan whose own annual cost rate would exceed it, is
 *   ruled out (never accepted, never near-missed).
 * What a near-miss would need is computed on the terms that would qualify: the amount, term and
 * balloon brought within the product's limits (the amount also within its LVR), at the rate of the
 * band that would qualify. Serviceability is assessed on that amount, so "at most 23,400" is the
 * largest amount that passes every rule together.
 */
import { readApplicant, assessCredit, type Applicant } from './applicant';
import { COMPARISON_RATE_WARNING } from './catalogue';
import { COST_RATE_CAP_PERCENT, annuityFactor, formatAmount, round2 } from './finance';
import { CAPPED, NOT_OFFERED, OFFERED } from './table';
import {
  BANDS_BEST_FIRST,
  HOME_PURPOSES,
  LIVING_SITUATIONS,
  OCCUPANCY_TYPES,
  type AcceptedOffer,
  type BandPrice,
  type Catalogue,
  type CatalogueProduct,
  type MatchInput,
  type MatchResult,
  type NearMissMargins,
  type NearMissOffer,
  type NearMissReason,
  type NearMissRequirement,
  type OfferDetails,
  type ProductTable,
} from './types';

type RuleId =
  | 'creditBand'
  | 'maxLoanAmount'
  | 'minLoanAmount'
  | 'maxLoanTerm'
  | 'minLoanTerm'
  | 'minIncome'
  | 'timeInJob'
  | 'vehicleAge'
  | 'balloonPercent'
  | 'balloonTerm'
  | 'lvr'
  | 'serviceability';

/** One missed rule, in numbers; the words are written only for the near-misses returned. */
interface Miss {
  readonly rule: RuleId;
  /** How much of the margin the miss uses, in (0, 1]. */
  readonly distance: number;
  /** The product's bound (serviceability: the amount assessed, i.e. asked for or capped by another rule). */
  readonly bound: number;
  /** The value that would pass (serviceability: the largest loan the income services). */
  readonly needed: number;
  /** The applicant's value (serviceability: the monthly surplus, negative). */
  readonly actual: number;
  /** Serviceability: the gross monthly income that would service the amount assessed. */
  readonly alternative?: number;
}

/** A product that passed (no misses) or nearly passed, by its row in the loan type's table. */
interface Candidate {
  /** Row in the table (and in `catalogue.productsByType`). */
  readonly row: number;
  /** Index of the price in the table's price columns (row × slots + slot). */
  readonly priceIndex: number;
  /** The slot within the product's `prices`. */
  readonly slot: number;
  /** The product's place in the catalogue's ranking at this price (see `BandPrice.position`). */
  readonly position: number;
  readonly comparisonRate: number;
  readonly productId: string;
  /** The loan's repayment and, for interest only, the repayment after the period: both rounded to cents. */
  readonly repayment: number;
  readonly afterInterestOnly: number;
  readonly interestOnlyMonths: number;
  /** Percent, 2 decimals. */
  readonly lvr: number;
  readonly misses: Miss[] | null;
  readonly closeness: number;
}

/** Per application: what every product's assessment shares. */
interface Context {
  readonly a: Applicant;
  readonly products: readonly CatalogueProduct[];
  readonly bandRank: number;
  /** Index into a product's `prices`: the price variant (home: bit 0 interest only, bit 1 investment) × 6 + band rank. */
  readonly priceSlot: number;
  readonly margins: NearMissMargins;
  readonly maxMisses: number;
  readonly referenceYear: number;
  readonly termMonths: number;
  readonly replacesHousing: boolean;
  readonly isCar: boolean;
  readonly isHome: boolean;
  /** Car: the balloon asked for, in dollars (2 decimals). */
  readonly balloonAmount: number;
}

const CAP_MONTHLY = COST_RATE_CAP_PERCENT / 1200;
/** Annuity factor and discount at the cost-rate cap for 0-600 months, computed once at module load. */
const CAP_FACTORS = Float64Array.from({ length: 601 }, (_, n) => annuityFactor(CAP_MONTHLY, n));
const CAP_DISCOUNTS = Float64Array.from({ length: 601 }, (_, n) => Math.pow(1 + CAP_MONTHLY, -n));
const capFactor = (months: number): number => (Number.isInteger(months) && months <= 600 ? CAP_FACTORS[months] : annuityFactor(CAP_MONTHLY, months));
const capDiscount = (months: number): number => (Number.isInteger(months) && months <= 600 ? CAP_DISCOUNTS[months] : Math.pow(1 + CAP_MONTHLY, -months));
const OWNER_OCCUPIED = OCCUPANCY_TYPES.indexOf('owner_occupied');
const INVESTMENT = OCCUPANCY_TYPES.indexOf('investment');

function addMiss(misses: Miss[] | null, miss: Miss): Miss[] {
  if (misses === null) return [miss];
  misses.push(miss);
  return misses;
}

/** Assesses row `i` of the loan type's table (`t`) for the application (`x`). */
function assess(t: ProductTable, i: number, x: Context): Candidate | null {
  const a = x.a;
  if ((t.purposeMask[i] & a.purposeBit) === 0 || (t.employmentMask[i] & a.employmentBit) === 0) return null;
  const m = x.margins;
  let maxLvr = 0;
  if (x.isCar) {
    if (a.saleTypeBit !== 0 && (t.saleTypeMask[i] & a.saleTypeBit) === 0) return null;
  } else if (x.isHome) {
    maxLvr = t.maxLvr[i * OCCUPANCY_TYPES.length + a.occupancyIndex];
    if (Number.isNaN(maxLvr)) return null;
    if (t.firstHomeBuyerOnly[i] === 1 && !a.firstHomeBuyer) return null;
    if ((t.repaymentTypeMask[i] & a.repaymentTypeBit) === 0) return null;
  }

  // Credit band: priced, or declined within the margin of the product's minimum band.
  let slot = x.priceSlot;
  let k = i * t.slots + slot;
  let misses: Miss[] | null = null;
  const state = t.priceState[k];
  if (state === NOT_OFFERED) {
    const minBandRank = t.minBandRank[i];
    const gap = x.bandRank - minBandRank;
    if (gap <= 0 || gap > m.creditBands) return null;
    slot -= gap;
    k -= gap;
    if (t.priceState[k] !== OFFERED) return null;
    misses = addMiss(misses, { rule: 'creditBand', distance: gap / m.creditBands, bound: minBandRank, needed: minBandRank, actual: x.bandRank });
  } else if (state === CAPPED) return null;

  // The amount that would qualify (the one asked for, unless an amount rule is missed).
  const asked = a.loanAmount;
  let amount = asked;
  const minAmount = t.minAmount[i];
  const maxAmount = t.maxAmount[i];
  if (asked > maxAmount) {
    const over = ((asked - maxAmount) / maxAmount) * 100;
    if (over > m.loanAmountPercent) return null;
    misses = addMiss(misses, { rule: 'maxLoanAmount', distance: over / m.loanAmountPercent, bound: maxAmount, needed: maxAmount, actual: asked });
    amount = maxAmount;
  } else if (asked < minAmount) {
    const under = ((minAmount - asked) / minAmount) * 100;
    if (under > m.loanAmountPercent) return null;
    misses = addMiss(misses, { rule: 'minLoanAmount', distance: under / m.loanAmountPercent, bound: minAmount, needed: minAmount, actual: asked });
    amount = minAmount;
  }

  // The term that would qualify (the one asked for, unless a term rule is missed).
  let termYears = a.termYears;
  const minTerm = t.minTermYears[i];
  const maxTerm = t.maxTermYears[i];
  if (termYears > maxTerm) {
    const over = termYears - maxTerm;
    if (over > m.loanTermYears) return null;
    misses = addMiss(misses, { rule: 'maxLoanTerm', distance: over / m.loanTermYears, bound: maxTerm, needed: maxTerm, actual: termYears });
    termYears = maxTerm;
  } else if (termYears < minTerm) {
    const under = minTerm - termYears;
    if (under > m.loanTermYears) return null;
    misses = addMiss(misses, { rule: 'minLoanTerm', distance: under / m.loanTermYears, bound: minTerm, needed: minTerm, actual: termYears });
    termYears = minTerm;
  }
  if (misses !== null && misses.length > x.maxMisses) return null;

  const countedOther = a.otherIncome * t.otherIncomeShare[i];
  const assessable = a.grossMonthlyIncome + countedOther;
  const minIncome = t.minMonthlyIncome[i];
  if (assessable < minIncome) {
    const short = ((minIncome - assessable) / minIncome) * 100;
    if (short > m.incomePercent) return null;
    misses = addMiss(misses, { rule: 'minIncome', distance: short / m.incomePercent, bound: minIncome, needed: minIncome - countedOther, actual: assessable });
  }
  const minMonths = t.minMonthsInJob[i];
  if (a.monthsInJob < minMonths) {
    const short = minMonths - a.monthsInJob;
    if (short > m.timeInJobMonths) return null;
    misses = addMiss(misses, { rule: 'timeInJob', distance: short / m.timeInJobMonths, bound: minMonths, needed: minMonths, actual: a.monthsInJob });
  }

  // The balloon that would qualify.
  let balloonPercent = 0;
  if (x.isCar) {
    const maxAge = t.maxVehicleAgeYears[i];
    if (a.vehicleAge > maxAge) {
      const over = a.vehicleAge - maxAge;
      if (over > m.vehicleAgeYears) return null;
      misses = addMiss(misses, { rule: 'vehicleAge', distance: over / m.vehicleAgeYears, bound: maxAge, needed: x.referenceYear - maxAge, actual: a.vehicleAge });
    }
    balloonPercent = a.balloonPercent;
    const maxBalloon = t.balloonMaxPercent[i];
    if (balloonPercent > maxBalloon) {
      const over = balloonPercent - maxBalloon;
      if (over > m.balloonPercentPoints) return null;
      misses = addMiss(misses, { rule: 'balloonPercent', distance: over / m.balloonPercentPoints, bound: maxBalloon, needed: maxBalloon, actual: balloonPercent });
      balloonPercent = maxBalloon;
    }
    const maxBalloonTerm = t.balloonMaxTermYears[i];
    if (balloonPercent > 0 && termYears > maxBalloonTerm) {
      const over = termYears - maxBalloonTerm;
      if (over > m.balloonTermYears) return null;
      misses = addMiss(misses, { rule: 'balloonTerm', distance: over / m.balloonTermYears, bound: maxBalloonTerm, needed: maxBalloonTerm, actual: a.termYears });
      termYears = maxBalloonTerm;
    }
  }

  const termMonths = termYears * 12;
  let lvr = 0;
  let interestOnlyMonths = 0;
  if (x.isHome) {
    lvr = (asked / a.propertyValue) * 100;
    if (asked * 100 > maxLvr * a.propertyValue) {
      const over = lvr - maxLvr;
      if (over > m.lvrPercentPoints) return null;
      const largest = Math.floor((a.propertyValue * maxLvr) / 100);
      misses = addMiss(misses, { rule: 'lvr', distance: over / m.lvrPercentPoints, bound: maxLvr, needed: largest, actual: lvr });
      amount = Math.min(amount, largest);
      if (amount < minAmount) return null;
    }
    if (a.interestOnly) {
      interestOnlyMonths = Math.min(t.interestOnlyMonths[i], termMonths - 12);
      if (interestOnlyMonths <= 0) return null;
    }
  }
  if (misses !== null && misses.length > x.maxMisses) return null;

  // Serviceability: income after tax, less housing, living costs and the monthly fee, must carry the
  // repayment at the rate plus the buffer (interest-only loans: principal and interest after the period).
  const monthlyFee = t.monthlyFee[i];
  const housing = x.replacesHousing ? 0 : Math.max(a.monthlyRent, t.housingFloor[i * LIVING_SITUATIONS.length + a.livingIndex]);
  const outgoings = housing + t.livingBase[i] + t.livingPerDependant[i] * a.dependants + monthlyFee;
  const netIncomeShare = t.netIncomeShare[i];
  const capacity = assessable * netIncomeShare - outgoings;
  const amortisedMonths = termMonths - interestOnlyMonths;
  const bufferedMonthly = t.bufferedMonthlyRate[k];
  const balloonShare = balloonPercent / 100;
  const bufferedDiscount = Math.exp(-amortisedMonths * t.bufferedGrowthLog[k]);
  /** The buffered repayment per dollar borrowed. */
  const perDollar =
    bufferedMonthly === 0 ? (1 - balloonShare) / amortisedMonths : ((1 - balloonShare * bufferedDiscount) * bufferedMonthly) / (1 - bufferedDiscount);
  const buffered = amount * perDollar;
  if (buffered > capacity) {
    const largest = capacity > 0 ? capacity / perDollar : 0;
    const short = ((amount - largest) / amount) * 100;
    if (short > m.serviceabilityPercent) return null;
    const needed = Math.floor(largest / 100) * 100;
    if (needed < minAmount) return null;
    misses = addMiss(misses, {
      rule: 'serviceability',
      distance: short / m.serviceabilityPercent,
      bound: amount,
      needed,
      actual: capacity - buffered,
      alternative: Math.ceil((outgoings + buffered) / netIncomeShare - countedOther),
    });
    if (misses.length > x.maxMisses) return null;
  }

  // The loan's own repayment, and the cost-rate cap on the loan itself: its annual cost rate (the IRR
  // of the advance less the establishment fee against repayments plus fees) exceeds the cap exactly
  // when the payments' present value at the cap exceeds the advance.
  const monthly = t.monthlyRate[k];
  const balloon = amount * balloonShare;
  let repayment: number;
  let afterInterestOnly = 0;
  let valueAtCap: number;
  if (interestOnlyMonths > 0) {
    repayment = amount * monthly;
    afterInterestOnly = monthly === 0 ? amount / amortisedMonths : (amount * monthly) / (1 - Math.exp(-amortisedMonths * t.growthLog[k]));
    valueAtCap =
      (repayment + monthlyFee) * capFactor(interestOnlyMonths) +
      (afterInterestOnly + monthlyFee) * capFactor(amortisedMonths) * capDiscount(interestOnlyMonths);
  } else {
    const discount = Math.exp(-termMonths * t.growthLog[k]);
    repayment = monthly === 0 ? (amount - balloon) / termMonths : ((amount - balloon * discount) * monthly) / (1 - discount);
    valueAtCap = (repayment + monthlyFee) * capFactor(termMonths) + balloon * capDiscount(termMonths);
  }
  if (valueAtCap > amount - t.establishmentFee[i]) return null;

  let closeness = 0;
  if (misses !== null) for (const miss of misses) closeness += miss.distance;
  return {
    row: i,
    priceIndex: k,
    slot,
    position: t.position[k],
    comparisonRate: t.comparisonRate[k],
    productId: t.productId[i],
    repayment: round2(repayment),
    afterInterestOnly: round2(afterInterestOnly),
    interestOnlyMonths,
    lvr: round2(lvr),
    misses,
    closeness,
  };
}

// ---------------------------------------------------------------------------------------------
// Offers
// ---------------------------------------------------------------------------------------------

function acceptedOffer(c: Candidate, t: ProductTable, x: Context): AcceptedOffer {
  const a = x.a;
  const i = c.row;
  const k = c.priceIndex;
  let offerDetails: OfferDetails;
  if (x.isCar)
    offerDetails = {
      interestRate: t.rate[k],
      comparisonRate: c.comparisonRate,
      comparisonRateWarning: COMPARISON_RATE_WARNING,
      comparisonRateExample: t.comparisonRateExample[i],
      loanAmount: a.loanAmount,
      loanTermMonths: x.termMonths,
      monthlyRepayment: c.repayment,
      establishmentFee: t.establishmentFee[i],
      monthlyFee: t.monthlyFee[i],
      balloonAmount: x.balloonAmount,
    };
  else if (x.isHome)
    offerDetails = {
      interestRate: t.rate[k],
      comparisonRate: c.comparisonRate,
      comparisonRateWarning: COMPARISON_RATE_WARNING,
      comparisonRateExample: t.comparisonRateExample[i],
      loanAmount: a.loanAmount,
      loanTermMonths: x.termMonths,
      monthlyRepayment: c.repayment,
      establishmentFee: t.establishmentFee[i],
      monthlyFee: t.monthlyFee[i],
      repaymentType: a.interestOnly ? 'interest_only' : 'principal_and_interest',
      ...(a.interestOnly ? { interestOnlyMonths: c.interestOnlyMonths, repaymentAfterInterestOnly: c.afterInterestOnly } : {}),
      lvr: c.lvr,
      lendersMortgageInsurance: c.lvr > t.lmiAboveLvrPercent[i],
    };
  else
    offerDetails = {
      interestRate: t.rate[k],
      comparisonRate: c.comparisonRate,
      comparisonRateWarning: COMPARISON_RATE_WARNING,
      comparisonRateExample: t.comparisonRateExample[i],
      loanAmount: a.loanAmount,
      loanTermMonths: x.termMonths,
      monthlyRepayment: c.repayment,
      establishmentFee: t.establishmentFee[i],
      monthlyFee: t.monthlyFee[i],
    };
  return { lender: t.lender[i], product: t.product[i], headline: t.headline[k], offerDetails, lenderUrl: t.lenderUrl[i] };
}

const years = (n: number): string => `${n} year${n === 1 ? '' : 's'}`;
const words = (id: string): string => id.replace(/_/g, ' ');

interface Requirement {
  readonly field: string;
  /** Requirements on one field and in one direction combine: the tightest one is kept. */
  readonly direction: 'atMost' | 'atLeast';
  readonly value: number;
  readonly text: string;
}

function describe(miss: Miss, p: CatalogueProduct, price: BandPrice, a: Applicant): { reason: NearMissReason; requirement: Requirement } {
  switch (miss.rule) {
    case 'creditBand': {
      const band = BANDS_BEST_FIRST[miss.bound];
      return {
        reason: { field: 'creditScore', rule: `minimum credit band ${band}`, actual: BANDS_BEST_FIRST[miss.actual] },
        requirement: { field: 'creditScore', direction: 'atLeast', value: -miss.needed, text: `a credit score band of ${band} or better` },
      };
    }
    case 'maxLoanAmount':
      return {
        reason: { field: 'loanAmount', rule: `at most ${formatAmount(miss.bound)}`, actual: miss.actual },
        requirement: { field: 'loanAmount', direction: 'atMost', value: miss.needed, text: `at most ${formatAmount(miss.needed)}` },
      };
    case 'minLoanAmount':
      return {
        reason: { field: 'loanAmount', rule: `at least ${formatAmount(miss.bound)}`, actual: miss.actual },
        requirement: { field: 'loanAmount', direction: 'atLeast', value: miss.needed, text: `at least ${formatAmount(miss.needed)}` },
      };
    case 'maxLoanTerm':
      return {
        reason: { field: 'loanTerm', rule: `at most ${years(miss.bound)}`, actual: miss.actual },
        requirement: { field: 'loanTerm', direction: 'atMost', value: miss.needed, text: `at most ${years(miss.needed)}` },
      };
    case 'minLoanTerm':
      return {
        reason: { field: 'loanTerm', rule: `at least ${years(miss.bound)}`, actual: miss.actual },
        requirement: { field: 'loanTerm', direction: 'atLeast', value: miss.needed, text: `at least ${years(miss.needed)}` },
      };
    case 'minIncome':
      return {
        reason: { field: 'grossMonthlyIncome', rule: `assessable income of at least ${formatAmount(miss.bound)} a month`, actual: round2(miss.actual) },
        requirement: { field: 'grossMonthlyIncome', direction: 'atLeast', value: Math.ceil(miss.needed), text: `at least ${formatAmount(Math.ceil(miss.needed))}` },
      };
    case 'timeInJob':
      return {
        reason: { field: 'timeInJob', rule: `at least ${miss.bound} months in the current job`, actual: miss.actual },
        requirement: {
          field: 'timeInJob',
          direction: 'atLeast',
          value: miss.needed,
          text: `at least ${miss.needed} months in the current job (${miss.needed - miss.actual} more)`,
        },
      };
    case 'vehicleAge':
      return {
        reason: { field: 'vehicleAge', rule: `vehicle at most ${years(miss.bound)} old`, actual: miss.actual },
        requirement: { field: 'vehicleYear', direction: 'atLeast', value: miss.needed, text: `${miss.needed} or newer` },
      };
    case 'balloonPercent':
      return {
        reason: { field: 'balloonPaymentPercent', rule: `balloon at most ${miss.bound}% of the loan amount`, actual: miss.actual },
        requirement: { field: 'balloonPaymentPercent', direction: 'atMost', value: miss.needed, text: `at most ${miss.needed}%` },
      };
    case 'balloonTerm':
      return {
        reason: { field: 'loanTerm', rule: `a balloon only on terms of at most ${years(miss.bound)}`, actual: miss.actual },
        requirement: { field: 'loanTerm', direction: 'atMost', value: miss.needed, text: `at most ${years(miss.needed)} (the longest term with a balloon)` },
      };
    case 'lvr': {
      return {
        reason: { field: 'lvr', rule: `LVR at most ${miss.bound}% for ${words(OCCUPANCY_TYPES[a.occupancyIndex])} loans`, actual: round2(miss.actual) },
        requirement: {
          field: 'loanAmount',
          direction: 'atMost',
          value: miss.needed,
          text: `at most ${formatAmount(miss.needed)} (a deposit of at least ${formatAmount(a.propertyValue - miss.needed)} brings the LVR to ${miss.bound}%)`,
        },
      };
    }
    case 'serviceability': {
      const buffer = p.serviceability.bufferPercentPoints;
      return {
        reason: {
          field: 'serviceability',
          rule: `repayments assessed at ${(price.rate + buffer).toFixed(2)}% (the rate plus a ${buffer}-point buffer) must fit within income after tax, housing and living costs`,
          actual: Math.round(miss.actual),
        },
        requirement: {
          field: 'loanAmount',
          direction: 'atMost',
          value: miss.needed,
          text:
            `at most ${formatAmount(miss.needed)} (the largest amount the income services), or ` +
            (miss.bound < a.loanAmount ? `at most ${formatAmount(miss.bound)} with ` : '') +
            `a gross monthly income of at least ${formatAmount(miss.alternative ?? 0)}`,
        },
      };
    }
  }
}

function nearMissOffer(c: Candidate, t: ProductTable, x: Context): NearMissOffer {
  const p = x.products[c.row];
  const price = p.prices[c.slot]!;
  const reasons: NearMissReason[] = [];
  const requirements: Requirement[] = [];
  for (const miss of c.misses ?? []) {
    const { reason, requirement } = describe(miss, p, price, x.a);
    reasons.push(reason);
    const same = requirements.findIndex((r) => r.field === requirement.field && r.direction === requirement.direction);
    if (same < 0) requirements.push(requirement);
    else {
      const kept = requirements[same];
      const tighter = requirement.direction === 'atMost' ? requirement.value < kept.value : requirement.value > kept.value;
      if (tighter) requirements[same] = requirement;
    }
  }
  const wouldQualifyIf: NearMissRequirement[] = requirements.map((r) => ({ field: r.field, requirement: r.text }));
  return { lender: t.lender[c.row], product: t.product[c.row], headline: t.headline[c.priceIndex], reasons, wouldQualifyIf };
}

const byId = (x: Candidate, y: Candidate): number => (x.productId < y.productId ? -1 : x.productId > y.productId ? 1 : 0);

/** Accepted: cheapest comparison rate first, then the lowest repayment, then product id. */
const acceptedOrder = (x: Candidate, y: Candidate): number => x.comparisonRate - y.comparisonRate || x.repayment - y.repayment || byId(x, y);

/** Near-misses: fewest missed rules, then the closest (least of the margins used), then as accepted. */
const nearMissOrder = (x: Candidate, y: Candidate): number =>
  x.misses!.length - y.misses!.length || x.closeness - y.closeness || x.comparisonRate - y.comparisonRate || byId(x, y);

/**
 * Accepted candidates are placed by the catalogue's ranking for the applicant's band and variant
 * (comparison rate, rate, id), which is already the order by comparison rate and repayment except where
 * two rates round to the same repayment. An insertion sort finishes the order in one pass.
 */
function finishOrder(accepted: Candidate[]): void {
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

/** Keeps the `limit` best near-misses in order (a bounded insertion, not a sort of them all). */
function keepBest(best: Candidate[], c: Candidate, limit: number): void {
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

// ---------------------------------------------------------------------------------------------

/** Matches one application against the catalogue. */
export function matchOffers(input: MatchInput, catalogue: Catalogue): MatchResult {
  const assessment = assessCredit(input);
  const read = readApplicant(input);
  if (!read.ok) return { outcome: 'incomplete_application', assessment, missing: read.missing, acceptedOffers: [], nearMissOffers: [] };
  const a = read.applicant;
  const termMonths = a.termYears * 12;
  const bandRank = BANDS_BEST_FIRST.indexOf(assessment.band);
  const context: Context = {
    a,
    products: catalogue.productsByType[a.formType],
    bandRank,
    priceSlot: (a.formType === 'home' ? (a.interestOnly ? 1 : 0) | (a.occupancyIndex === INVESTMENT ? 2 : 0) : 0) * BANDS_BEST_FIRST.length + bandRank,
    margins: catalogue.nearMiss.margins,
    maxMisses: catalogue.nearMiss.maxMissedRules,
    referenceYear: input.referenceYear,
    termMonths,
    isCar: a.formType === 'car',
    isHome: a.formType === 'home',
    balloonAmount: round2((a.loanAmount * a.balloonPercent) / 100),
    // An owner-occupied home loan takes the place of the applicant's rent or mortgage, except when it
    // releases equity from a home that keeps its own mortgage.
    replacesHousing: a.formType === 'home' && a.occupancyIndex === OWNER_OCCUPIED && a.purposeBit !== 1 << HOME_PURPOSES.indexOf('equity_release'),
  };
  const table = catalogue.tables[a.formType];
  // Accepted offers go straight to their place in the catalogue's ranking (see `BandPrice.position`).
  const ranked: (Candidate | undefined)[] = new Array(table.size);
  const near: Candidate[] = [];
  const limit = catalogue.nearMiss.maxResults;
  for (let i = 0; i < table.size; i++) {
    const c = assess(table, i, context);
    if (c === null) continue;
    if (c.misses === null) ranked[c.position] = c;
    else keepBest(near, c, limit);
  }
  const accepted: Candidate[] = [];
  for (const c of ranked) if (c !== undefined) accepted.push(c);
  finishOrder(accepted);
  return {
    outcome: 'assessed',
    assessment,
    acceptedOffers: accepted.map((c) => acceptedOffer(c, table, context)),
    nearMissOffers: near.map((c) => nearMissOffer(c, table, context)),
  };
}
