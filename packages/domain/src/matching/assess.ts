/**
 * The assessment of one product for one application, rule by rule, on the loan type's columns:
 * - category rules (purpose, employment type, sale type, occupancy, first home buyer, repayment type)
 *   either pass or rule the product out: no margin makes a wrong category "nearly right";
 * - measured rules (credit band, amount, term, income, time in job, vehicle age, balloon, LVR against
 *   the property or the vehicle, serviceability) pass, or miss by a distance; a miss within the
 *   catalogue's margin keeps the product as a near-miss candidate, a miss beyond it rules the product out;
 * - a product missed by more than `maxMissedRules` rules is ruled out;
 * - a band priced above the cost-rate cap, or a loan whose own annual cost rate would exceed it, is
 *   ruled out (never accepted, never near-missed).
 * What a near-miss would need is computed on the terms that would qualify: the amount, term and
 * balloon brought within the product's limits (the amount also within its LVR), at the rate of the
 * band that would qualify. Serviceability is assessed on that amount, with any lenders mortgage
 * insurance premium the product capitalises, so "at most $23,400" is the largest amount that passes
 * every rule together.
 * A thin application (a term, employment, income or living situation not given) is assessed on what it
 * tells: a rule that needs what is missing is not assessed (the offer is then indicative, and its
 * conditions say what the lender will need, conditions.ts); an unknown term is the product's benchmark
 * term; serviceability with the living situation unknown is assessed at its least housing cost, so that
 * a miss there is a miss whatever the living situation turns out to be; a car's LVR with its price unknown
 * is not assessed.
 */
import type { Candidate, Context, Miss } from './candidate';
import { COST_RATE_CAP_PERCENT, annuityFactor, round2 } from './finance';
import { largestLoanWithPremium, lmiRowOf, premiumRateOf } from './lmi';
import { CAPPED, NOT_OFFERED, OFFERED } from './table';
import {
  EMPLOYMENT_TYPES,
  LIVING_SITUATIONS,
  OCCUPANCY_TYPES,
  type CatalogueProduct,
  type ProductTable,
} from './types';

/** The employment mask of a product that takes every employment type. */
const ALL_EMPLOYMENT_TYPES = (1 << EMPLOYMENT_TYPES.length) - 1;

const CAP_MONTHLY = COST_RATE_CAP_PERCENT / 1200;
/** Annuity factor and discount at the cost-rate cap for 0-600 months, computed once at module load. */
const CAP_FACTORS = Float64Array.from({ length: 601 }, (_, n) => annuityFactor(CAP_MONTHLY, n));
const CAP_DISCOUNTS = Float64Array.from({ length: 601 }, (_, n) => (1 + CAP_MONTHLY) ** -n);
const capFactor = (months: number): number =>
  Number.isInteger(months) && months <= 600 ? CAP_FACTORS[months] : annuityFactor(CAP_MONTHLY, months);
const capDiscount = (months: number): number =>
  Number.isInteger(months) && months <= 600 ? CAP_DISCOUNTS[months] : (1 + CAP_MONTHLY) ** -months;

function addMiss(misses: Miss[] | null, miss: Miss): Miss[] {
  if (misses === null) return [miss];
  misses.push(miss);
  return misses;
}

/**
 * A loan over a loan-to-value limit (home: the property; car: what the vehicle calls for): the miss, whose
 * `needed` is the largest loan within the limit, or null when it is over by more than the margin.
 */
function lvrMiss(
  rule: 'lvr' | 'vehicleLvr',
  asked: number,
  value: number,
  maxLvr: number,
  margin: number,
): Miss | null {
  const actual = (asked / value) * 100;
  const over = actual - maxLvr;
  if (over > margin) return null;
  return { rule, distance: over / margin, bound: maxLvr, needed: Math.floor((value * maxLvr) / 100), actual };
}

/** Assesses row `i` of the loan type's table (`t`) for the application (`x`). */
export function assess(t: ProductTable, i: number, x: Context): Candidate | null {
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
    misses = addMiss(misses, {
      rule: 'creditBand',
      distance: gap / m.creditBands,
      bound: minBandRank,
      needed: minBandRank,
      actual: x.bandRank,
    });
  } else if (state === CAPPED) return null;

  // The amount that would qualify (the one asked for, unless an amount rule is missed).
  const asked = a.loanAmount;
  let amount = asked;
  const minAmount = t.minAmount[i];
  const maxAmount = t.maxAmount[i];
  if (asked > maxAmount) {
    const over = ((asked - maxAmount) / maxAmount) * 100;
    if (over > m.loanAmountPercent) return null;
    misses = addMiss(misses, {
      rule: 'maxLoanAmount',
      distance: over / m.loanAmountPercent,
      bound: maxAmount,
      needed: maxAmount,
      actual: asked,
    });
    amount = maxAmount;
  } else if (asked < minAmount) {
    const under = ((minAmount - asked) / minAmount) * 100;
    if (under > m.loanAmountPercent) return null;
    misses = addMiss(misses, {
      rule: 'minLoanAmount',
      distance: under / m.loanAmountPercent,
      bound: minAmount,
      needed: minAmount,
      actual: asked,
    });
    amount = minAmount;
  }

  // The term that would qualify (the one asked for, unless a term rule is missed; when none was asked
  // for, the product's benchmark term, which its comparison rate is quoted on).
  const minTerm = t.minTermYears[i];
  const maxTerm = t.maxTermYears[i];
  let termYears = a.termKnown ? a.termYears : assumedTermYears(x.products[i], minTerm, maxTerm);
  if (termYears > maxTerm) {
    const over = termYears - maxTerm;
    if (over > m.loanTermYears) return null;
    misses = addMiss(misses, {
      rule: 'maxLoanTerm',
      distance: over / m.loanTermYears,
      bound: maxTerm,
      needed: maxTerm,
      actual: termYears,
    });
    termYears = maxTerm;
  } else if (termYears < minTerm) {
    const under = minTerm - termYears;
    if (under > m.loanTermYears) return null;
    misses = addMiss(misses, {
      rule: 'minLoanTerm',
      distance: under / m.loanTermYears,
      bound: minTerm,
      needed: minTerm,
      actual: termYears,
    });
    termYears = minTerm;
  }
  if (misses !== null && misses.length > x.maxMisses) return null;

  const countedOther = a.otherIncome * t.otherIncomeShare[i];
  const assessable = a.grossMonthlyIncome + countedOther;
  const minIncome = t.minMonthlyIncome[i];
  if (a.incomeKnown && assessable < minIncome) {
    const short = ((minIncome - assessable) / minIncome) * 100;
    if (short > m.incomePercent) return null;
    misses = addMiss(misses, {
      rule: 'minIncome',
      distance: short / m.incomePercent,
      bound: minIncome,
      needed: minIncome - countedOther,
      actual: assessable,
    });
  }
  const minMonths = t.minMonthsInJob[i];
  if (a.employmentKnown && a.monthsInJob < minMonths) {
    const short = minMonths - a.monthsInJob;
    if (short > m.timeInJobMonths) return null;
    misses = addMiss(misses, {
      rule: 'timeInJob',
      distance: short / m.timeInJobMonths,
      bound: minMonths,
      needed: minMonths,
      actual: a.monthsInJob,
    });
  }

  // The balloon that would qualify.
  let balloonPercent = 0;
  if (x.isCar) {
    const maxAge = t.maxVehicleAgeYears[i];
    if (a.vehicleAge > maxAge) {
      const over = a.vehicleAge - maxAge;
      if (over > m.vehicleAgeYears) return null;
      misses = addMiss(misses, {
        rule: 'vehicleAge',
        distance: over / m.vehicleAgeYears,
        bound: maxAge,
        needed: x.referenceYear - maxAge,
        actual: a.vehicleAge,
      });
    }
    balloonPercent = a.balloonPercent;
    const maxBalloon = t.balloonMaxPercent[i];
    if (balloonPercent > maxBalloon) {
      const over = balloonPercent - maxBalloon;
      if (over > m.balloonPercentPoints) return null;
      misses = addMiss(misses, {
        rule: 'balloonPercent',
        distance: over / m.balloonPercentPoints,
        bound: maxBalloon,
        needed: maxBalloon,
        actual: balloonPercent,
      });
      balloonPercent = maxBalloon;
    }
    const maxBalloonTerm = t.balloonMaxTermYears[i];
    if (balloonPercent > 0 && termYears > maxBalloonTerm) {
      const over = termYears - maxBalloonTerm;
      if (over > m.balloonTermYears) return null;
      misses = addMiss(misses, {
        rule: 'balloonTerm',
        distance: over / m.balloonTermYears,
        bound: maxBalloonTerm,
        needed: maxBalloonTerm,
        actual: termYears,
      });
      termYears = maxBalloonTerm;
    }
  }

  // The car loan against what the vehicle calls for (not assessed while its price is unknown).
  if (x.isCar && a.vehicleKnown) {
    const maxVehicleLvr = t.maxVehicleLvr[i];
    const value = a.vehicleValue;
    if (asked * 100 > maxVehicleLvr * value) {
      const miss = value > 0 ? lvrMiss('vehicleLvr', asked, value, maxVehicleLvr, m.lvrPercentPoints) : null;
      if (miss === null) return null;
      misses = addMiss(misses, miss);
      amount = Math.min(amount, miss.needed);
      if (amount < minAmount) return null;
    }
  }

  const termMonths = termYears * 12;
  let lvr = 0;
  let interestOnlyMonths = 0;
  if (x.isHome) {
    lvr = (asked / a.propertyValue) * 100;
    if (asked * 100 > maxLvr * a.propertyValue) {
      const miss = lvrMiss('lvr', asked, a.propertyValue, maxLvr, m.lvrPercentPoints);
      if (miss === null) return null;
      misses = addMiss(misses, miss);
      amount = Math.min(amount, miss.needed);
      if (amount < minAmount) return null;
    }
    if (a.interestOnly) {
      interestOnlyMonths = Math.min(t.interestOnlyMonths[i], termMonths - 12);
      if (interestOnlyMonths <= 0) return null;
    }
  }
  if (misses !== null && misses.length > x.maxMisses) return null;

  // Lenders mortgage insurance above the product's threshold, on the amount that would qualify; a
  // capitalised premium is repaid with the loan.
  const lmiTable = x.isHome ? t.lmiTable[i] : -1;
  let premium = 0;
  let lmiRow = -1;
  if (lmiTable >= 0 && amount * 100 > t.lmiAboveLvrPercent[i] * a.propertyValue) {
    const exact = amount === asked;
    lmiRow = exact ? x.lmiRowAsked[lmiTable] : lmiRowOf(x.lmiTables[lmiTable], amount, a.propertyValue);
    const rate = exact ? x.lmiRateAsked[lmiTable] : premiumRateOf(x.lmiTables[lmiTable], amount, a.propertyValue);
    if (lmiRow < 0 || Number.isNaN(rate)) return null; // outside the table: the catalogue's rules prevent it
    premium = round2(amount * rate);
  }
  const capitalised = premium > 0 && t.lmiCapitalised[i] === 1;
  const financed = capitalised ? amount + premium : amount;

  // Serviceability: income after tax, less housing, living costs and the monthly fee, must carry the
  // repayment at the rate plus the buffer (interest-only loans: principal and interest after the period).
  const monthlyFee = t.monthlyFee[i];
  const floor = a.livingKnown ? t.housingFloor[i * LIVING_SITUATIONS.length + a.livingIndex] : leastHousingFloor(t, i);
  const housing = x.replacesHousing ? 0 : Math.max(a.monthlyRent, floor);
  const outgoings = housing + t.livingBase[i] + t.livingPerDependant[i] * a.dependants + monthlyFee;
  const netIncomeShare = t.netIncomeShare[i];
  const capacity = assessable * netIncomeShare - outgoings;
  const amortisedMonths = termMonths - interestOnlyMonths;
  const bufferedMonthly = t.bufferedMonthlyRate[k];
  const balloonShare = balloonPercent / 100;
  const bufferedDiscount = Math.exp(-amortisedMonths * t.bufferedGrowthLog[k]);
  /** The buffered repayment per dollar borrowed. */
  const perDollar =
    bufferedMonthly === 0
      ? (1 - balloonShare) / amortisedMonths
      : ((1 - balloonShare * bufferedDiscount) * bufferedMonthly) / (1 - bufferedDiscount);
  const buffered = financed * perDollar;
  if (a.incomeKnown && buffered > capacity) {
    const financedLimit = capacity > 0 ? capacity / perDollar : 0;
    const largest = capitalised
      ? largestLoanWithPremium(x.lmiTables[lmiTable], t.lmiAboveLvrPercent[i], a.propertyValue, financedLimit)
      : financedLimit;
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
  // when the payments' present value at the cap exceeds the advance. Interest only: the loading applies
  // during the period, principal and interest after it at the rate it reverts to. A premium paid at
  // settlement is taken from the advance like the establishment fee.
  const monthly = t.monthlyRate[k];
  const balloon = amount * balloonShare;
  let repayment: number;
  let afterInterestOnly = 0;
  let valueAtCap: number;
  if (interestOnlyMonths > 0) {
    const revert = t.revertMonthlyRate[k];
    repayment = financed * monthly;
    afterInterestOnly =
      revert === 0
        ? financed / amortisedMonths
        : (financed * revert) / (1 - Math.exp(-amortisedMonths * t.revertGrowthLog[k]));
    valueAtCap =
      (repayment + monthlyFee) * capFactor(interestOnlyMonths) +
      (afterInterestOnly + monthlyFee) * capFactor(amortisedMonths) * capDiscount(interestOnlyMonths);
  } else {
    const discount = Math.exp(-termMonths * t.growthLog[k]);
    repayment =
      monthly === 0 ? (financed - balloon) / termMonths : ((financed - balloon * discount) * monthly) / (1 - discount);
    valueAtCap = (repayment + monthlyFee) * capFactor(termMonths) + balloon * capDiscount(termMonths);
  }
  if (valueAtCap > amount - t.establishmentFee[i] - (capitalised ? 0 : premium)) return null;

  let closeness = 0;
  if (misses !== null) for (const miss of misses) closeness += miss.distance;
  // Employment unknown matters only to a product that limits the type or asks for time in the job.
  const indicative =
    !a.complete &&
    (!a.termKnown ||
      !a.incomeKnown ||
      !a.livingKnown ||
      !a.vehicleKnown ||
      t.employmentMask[i] !== ALL_EMPLOYMENT_TYPES ||
      minMonths > 0);
  return {
    row: i,
    priceIndex: k,
    slot,
    position: t.position[k],
    comparisonRate: lmiRow >= 0 ? t.lmiComparisonRate[k * t.lmiRows + lmiRow] : t.comparisonRate[k],
    productId: t.productId[i],
    repayment: round2(repayment),
    afterInterestOnly: round2(afterInterestOnly),
    interestOnlyMonths,
    lvr: round2(lvr),
    lmiPremium: premium,
    lmiRow,
    amountFinanced: round2(financed),
    misses,
    closeness,
    termMonths,
    buffered,
    indicative,
  };
}

/** The product's benchmark term in whole years, within its term limits. */
export function assumedTermYears(product: CatalogueProduct, minTerm: number, maxTerm: number): number {
  return Math.min(maxTerm, Math.max(minTerm, Math.round(product.benchmark.termMonths / 12)));
}

/** The least housing cost the product's policy assumes for any living situation. */
export function leastHousingFloor(t: ProductTable, i: number): number {
  let least = Number.POSITIVE_INFINITY;
  for (let s = 0; s < LIVING_SITUATIONS.length; s++)
    least = Math.min(least, t.housingFloor[i * LIVING_SITUATIONS.length + s]);
  return least;
}

/** The largest housing cost the product's policy assumes for any living situation. */
export function greatestHousingFloor(t: ProductTable, i: number): number {
  let greatest = 0;
  for (let s = 0; s < LIVING_SITUATIONS.length; s++)
    greatest = Math.max(greatest, t.housingFloor[i * LIVING_SITUATIONS.length + s]);
  return greatest;
}
