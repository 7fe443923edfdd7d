/**
 * The assessment of one product for one application, rule by rule:
 * - category rules (purpose, employment type, sale type, occupancy, first home buyer, repayment type)
 *   either pass or rule the product out: no margin makes a wrong category "nearly right";
 * - measured rules (credit band, amount, term, income, time in job, vehicle age, balloon, LVR against
 *   the property or the vehicle, serviceability) pass, or miss by a distance; a miss within the
 *   catalogue's margin keeps the product as a near-miss, a miss beyond it rules the product out;
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
import type { Applicant } from './applicant';
import { COST_RATE_CAP_PERCENT, annuityFactor, round2 } from './finance';
import { largestLoanWithPremium, lmiCellOf } from './lmi';
import {
  BANDS_BEST_FIRST,
  EMPLOYMENT_TYPES,
  type BandPrice,
  type CatalogueProduct,
  type NearMissPolicy,
} from './types';

export type RuleId =
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
  | 'vehicleLvr'
  | 'serviceability';

/** One missed rule, in numbers; the words are written only for the near-misses returned. */
export interface Miss {
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

/** A product that passed (no misses) or nearly passed, on the terms assessed. */
export interface Candidate {
  readonly product: CatalogueProduct;
  /** The price assessed: at the applicant's band, or at the band a credit near-miss would need. */
  readonly price: BandPrice;
  /** On the benchmark loan; with LMI, with the premium of the applicant's LVR. */
  readonly comparisonRate: number;
  /** The repayment and, for interest only, the repayment after the period: both to cents. */
  readonly repayment: number;
  readonly afterInterestOnly: number;
  readonly interestOnlyMonths: number;
  /** Percent, 2 decimals. */
  readonly lvr: number;
  /** Home: the LMI premium in dollars (0 without LMI), and the row of the product's table it came from (-1 without). */
  readonly lmiPremium: number;
  readonly lmiRow: number;
  /** What is repaid: the amount plus a capitalised premium, to cents. */
  readonly amountFinanced: number;
  readonly misses: readonly Miss[];
  /** The sum of the misses' distances. */
  readonly closeness: number;
  /** The term assessed: the one asked for, brought within the product's limits, or assumed. */
  readonly termMonths: number;
  /** The repayment at the rate plus the serviceability buffer, on the amount assessed. */
  readonly buffered: number;
  /** A rule needed what the application does not tell: an accepted offer is indicative. */
  readonly indicative: boolean;
}

/** What every product's assessment of one application shares. */
export interface Context {
  readonly a: Applicant;
  readonly bandRank: number;
  /** Index into a product's `prices`: the applicant's variant and band. */
  readonly slot: number;
  readonly nearMiss: NearMissPolicy;
  readonly referenceYear: number;
  /** The loan takes the place of the applicant's housing cost (owner-occupied, not releasing equity). */
  readonly replacesHousing: boolean;
}

const CAP_MONTHLY = COST_RATE_CAP_PERCENT / 1200;

/** Records a miss by `over` (in the margin's unit): false when it is beyond the margin. */
function missed(
  misses: Miss[],
  rule: RuleId,
  over: number,
  margin: number,
  bound: number,
  needed: number,
  actual: number,
  alternative?: number,
): boolean {
  if (over > margin) return false;
  misses.push({ rule, distance: over / margin, bound, needed, actual, alternative });
  return true;
}

/** A loan over a loan-to-value limit of `value`: records the miss, answers the largest loan within it (-1 beyond the margin). */
function lvrMiss(misses: Miss[], rule: RuleId, asked: number, value: number, limit: number, margin: number): number {
  const actual = (asked / value) * 100;
  const needed = Math.floor((value * limit) / 100);
  return missed(misses, rule, actual - limit, margin, limit, needed, actual) ? needed : -1;
}

export function assess(p: CatalogueProduct, x: Context): Candidate | null {
  const { a, nearMiss } = x;
  const m = nearMiss.margins;
  const d = p.definition;
  const car = d.loanType === 'car' ? d.car : undefined;
  const home = d.loanType === 'home' ? d.home : undefined;
  if (!(d.purposes as readonly string[]).includes(a.purpose)) return null;
  if (a.employmentType !== undefined && !d.employment.types.includes(a.employmentType)) return null;
  if (car && a.saleType !== undefined && !car.saleTypes.includes(a.saleType)) return null;
  const occupancy = home?.occupancy[a.occupancy];
  if (home && (!occupancy || (home.firstHomeBuyerOnly && !a.firstHomeBuyer))) return null;
  if (home && !home.repaymentTypes.includes(a.repaymentType)) return null;

  const misses: Miss[] = [];

  // Credit band: priced, or declined within the margin of the product's minimum band.
  let price = p.prices[x.slot];
  if (price === null) {
    const minRank = BANDS_BEST_FIRST.indexOf(d.minimumBand);
    const gap = x.bandRank - minRank;
    if (gap <= 0) return null;
    price = p.prices[x.slot - gap];
    if (!price || price.capped || !missed(misses, 'creditBand', gap, m.creditBands, minRank, minRank, x.bandRank))
      return null;
  } else if (price.capped) return null;

  // The amount that would qualify (the one asked for, unless an amount rule is missed).
  const asked = a.loanAmount;
  const { min: minAmount, max: maxAmount } = d.loanAmount;
  let amount = asked;
  if (asked > maxAmount) {
    const over = ((asked - maxAmount) / maxAmount) * 100;
    if (!missed(misses, 'maxLoanAmount', over, m.loanAmountPercent, maxAmount, maxAmount, asked)) return null;
    amount = maxAmount;
  } else if (asked < minAmount) {
    const under = ((minAmount - asked) / minAmount) * 100;
    if (!missed(misses, 'minLoanAmount', under, m.loanAmountPercent, minAmount, minAmount, asked)) return null;
    amount = minAmount;
  }

  // The term that would qualify (the one asked for, unless a term rule is missed; when none was asked
  // for, the product's benchmark term, which its comparison rate is quoted on).
  const { min: minTerm, max: maxTerm } = d.loanTermYears;
  let termYears = a.termKnown
    ? a.termYears
    : Math.min(maxTerm, Math.max(minTerm, Math.round(p.benchmark.termMonths / 12)));
  if (termYears > maxTerm) {
    if (!missed(misses, 'maxLoanTerm', termYears - maxTerm, m.loanTermYears, maxTerm, maxTerm, termYears)) return null;
    termYears = maxTerm;
  } else if (termYears < minTerm) {
    if (!missed(misses, 'minLoanTerm', minTerm - termYears, m.loanTermYears, minTerm, minTerm, termYears)) return null;
    termYears = minTerm;
  }

  const policy = p.serviceability;
  const countedOther = a.otherIncome * (policy.otherIncomePercent / 100);
  const assessable = a.grossMonthlyIncome + countedOther;
  const minIncome = d.minimumMonthlyIncome;
  if (a.incomeKnown && assessable < minIncome) {
    const short = ((minIncome - assessable) / minIncome) * 100;
    if (!missed(misses, 'minIncome', short, m.incomePercent, minIncome, minIncome - countedOther, assessable))
      return null;
  }
  const minMonths = d.employment.minimumMonthsInJob;
  if (a.employmentKnown && a.monthsInJob < minMonths)
    if (!missed(misses, 'timeInJob', minMonths - a.monthsInJob, m.timeInJobMonths, minMonths, minMonths, a.monthsInJob))
      return null;

  // The vehicle's age, the balloon that would qualify, and the loan against what the vehicle calls for.
  let balloonPercent = 0;
  if (car) {
    const { maxVehicleAgeYears: maxAge, balloon } = car;
    if (a.vehicleAge > maxAge)
      if (
        !missed(
          misses,
          'vehicleAge',
          a.vehicleAge - maxAge,
          m.vehicleAgeYears,
          maxAge,
          x.referenceYear - maxAge,
          a.vehicleAge,
        )
      )
        return null;
    balloonPercent = a.balloonPercent;
    if (balloonPercent > balloon.maxPercent) {
      const over = balloonPercent - balloon.maxPercent;
      if (
        !missed(
          misses,
          'balloonPercent',
          over,
          m.balloonPercentPoints,
          balloon.maxPercent,
          balloon.maxPercent,
          balloonPercent,
        )
      )
        return null;
      balloonPercent = balloon.maxPercent;
    }
    if (balloonPercent > 0 && termYears > balloon.maxTermYears) {
      const over = termYears - balloon.maxTermYears;
      if (
        !missed(misses, 'balloonTerm', over, m.balloonTermYears, balloon.maxTermYears, balloon.maxTermYears, termYears)
      )
        return null;
      termYears = balloon.maxTermYears;
    }
    const value = a.vehicleValue;
    if (a.vehicleKnown && asked * 100 > car.maxLvrPercent * value) {
      const needed =
        value > 0 ? lvrMiss(misses, 'vehicleLvr', asked, value, car.maxLvrPercent, m.lvrPercentPoints) : -1;
      amount = Math.min(amount, needed);
      if (needed < 0 || amount < minAmount) return null;
    }
  }

  const termMonths = termYears * 12;
  let lvr = 0;
  let interestOnlyMonths = 0;
  if (home && occupancy) {
    const maxLvr = occupancy.maxLvrPercent;
    lvr = (asked / a.propertyValue) * 100;
    if (asked * 100 > maxLvr * a.propertyValue) {
      const needed = lvrMiss(misses, 'lvr', asked, a.propertyValue, maxLvr, m.lvrPercentPoints);
      amount = Math.min(amount, needed);
      if (needed < 0 || amount < minAmount) return null;
    }
    if (a.interestOnly) {
      interestOnlyMonths = Math.min(home.interestOnly ? home.interestOnly.maxYears * 12 : 0, termMonths - 12);
      if (interestOnlyMonths <= 0) return null;
    }
  }

  // Lenders mortgage insurance above the product's threshold, on the amount that would qualify; a
  // capitalised premium is repaid with the loan.
  let premium = 0;
  let lmiRow = -1;
  if (home && p.lmiTable && amount * 100 > home.lmiAboveLvrPercent * a.propertyValue) {
    const cell = lmiCellOf(p.lmiTable, amount, a.propertyValue);
    if (cell === undefined) return null; // outside the table: the catalogue's rules prevent it
    lmiRow = cell.row;
    premium = round2(amount * cell.rate);
  }
  const capitalised = premium > 0 && home?.lmi?.capitalised === true;
  const financed = capitalised ? amount + premium : amount;

  // Serviceability: income after tax, less housing, living costs and the monthly fee, must carry the
  // repayment at the rate plus the buffer (interest-only loans: principal and interest after the period).
  const monthlyFee = d.fees.monthly;
  const floors = policy.housingCostFloor;
  const floor = a.livingSituation ? floors[a.livingSituation] : Math.min(...Object.values(floors));
  const housing = x.replacesHousing ? 0 : Math.max(a.monthlyRent, floor);
  const outgoings = housing + policy.livingCosts.base + policy.livingCosts.perDependant * a.dependants + monthlyFee;
  const netIncomeShare = policy.netIncomePercent / 100;
  const capacity = assessable * netIncomeShare - outgoings;
  const amortisedMonths = termMonths - interestOnlyMonths;
  const bufferedMonthly = (price.rate + policy.bufferPercentPoints) / 1200;
  const balloonShare = balloonPercent / 100;
  const bufferedDiscount = Math.exp(-amortisedMonths * Math.log1p(bufferedMonthly));
  /** The buffered repayment per dollar borrowed. */
  const perDollar =
    bufferedMonthly === 0
      ? (1 - balloonShare) / amortisedMonths
      : ((1 - balloonShare * bufferedDiscount) * bufferedMonthly) / (1 - bufferedDiscount);
  const buffered = financed * perDollar;
  if (a.incomeKnown && buffered > capacity) {
    const financedLimit = capacity > 0 ? capacity / perDollar : 0;
    const largest = capitalised
      ? largestLoanWithPremium(p.lmiTable!, home!.lmiAboveLvrPercent, a.propertyValue, financedLimit)
      : financedLimit;
    const needed = Math.floor(largest / 100) * 100;
    const over = ((amount - largest) / amount) * 100;
    const income = Math.ceil((outgoings + buffered) / netIncomeShare - countedOther);
    const surplus = capacity - buffered;
    if (
      needed < minAmount ||
      !missed(misses, 'serviceability', over, m.serviceabilityPercent, amount, needed, surplus, income)
    )
      return null;
  }
  if (misses.length > nearMiss.maxMissedRules) return null;

  // The loan's own repayment, and the cost-rate cap on the loan itself: its annual cost rate (the IRR
  // of the advance less the establishment fee against repayments plus fees) exceeds the cap exactly
  // when the payments' present value at the cap exceeds the advance. Interest only: the loading applies
  // during the period, principal and interest after it at the rate it reverts to. A premium paid at
  // settlement is taken from the advance like the establishment fee.
  const monthly = price.rate / 1200;
  const balloon = amount * balloonShare;
  let repayment: number;
  let afterInterestOnly = 0;
  let valueAtCap: number;
  if (interestOnlyMonths > 0) {
    const revert = price.revertRate / 1200;
    repayment = financed * monthly;
    afterInterestOnly =
      revert === 0
        ? financed / amortisedMonths
        : (financed * revert) / (1 - Math.exp(-amortisedMonths * Math.log1p(revert)));
    valueAtCap =
      (repayment + monthlyFee) * annuityFactor(CAP_MONTHLY, interestOnlyMonths) +
      (afterInterestOnly + monthlyFee) *
        annuityFactor(CAP_MONTHLY, amortisedMonths) *
        (1 + CAP_MONTHLY) ** -interestOnlyMonths;
  } else {
    const discount = Math.exp(-termMonths * Math.log1p(monthly));
    repayment =
      monthly === 0 ? (financed - balloon) / termMonths : ((financed - balloon * discount) * monthly) / (1 - discount);
    valueAtCap =
      (repayment + monthlyFee) * annuityFactor(CAP_MONTHLY, termMonths) + balloon * (1 + CAP_MONTHLY) ** -termMonths;
  }
  if (valueAtCap > amount - d.fees.establishment - (capitalised ? 0 : premium)) return null;

  let closeness = 0;
  for (const { distance } of misses) closeness += distance;
  // Employment unknown matters only to a product that limits the type or asks for time in the job.
  const indicative =
    !a.complete &&
    (!a.termKnown ||
      !a.incomeKnown ||
      !a.livingKnown ||
      !a.vehicleKnown ||
      d.employment.types.length < EMPLOYMENT_TYPES.length ||
      minMonths > 0);
  return {
    product: p,
    price,
    comparisonRate: lmiRow >= 0 ? price.lmiComparisonRates[lmiRow] : price.comparisonRate,
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
