/**
 * One product assessed for one application. Category rules pass or rule the product out; measured rules
 * pass, or miss within the catalogue's margins (a near-miss) or beyond them (ruled out, as is a cost above
 * the cost-rate cap). A near-miss is assessed on the terms that would qualify, so "at most $23,400" passes
 * every rule together. A thin application is assessed on what it tells: a rule that needs what is missing
 * is not assessed (the offer is indicative), an unknown term is the product's benchmark term, an unknown
 * living situation costs the least housing floor.
 */
import type { Applicant } from './applicant';
import type { Miss, RuleId } from './near-miss';
import { headlineOf, type Catalogue, type CatalogueProduct } from './catalogue';
import { COST_RATE_CAP_PERCENT, annuityFactor, round2 } from './finance';
import { largestLoanWithPremium, lmiCellOf } from './lmi';
import type { ScoreBand } from '../credit/bureau';
import { EMPLOYMENT_TYPES, USED_CAR_SALE_TYPES } from '../validation/schemas';
import { BANDS_BEST_FIRST } from './catalogue-schema';

/** What every product's assessment of one application shares. */
export function contextOf(a: Applicant, band: ScoreBand, catalogue: Catalogue, referenceYear: number) {
  const bandRank = BANDS_BEST_FIRST.indexOf(band);
  const variant = a.formType === 'home' ? (a.interestOnly ? 1 : 0) + (a.occupancy === 'investment' ? 2 : 0) : 0;
  return {
    a,
    bandRank,
    priceIndex: variant * BANDS_BEST_FIRST.length + bandRank,
    nearMiss: catalogue.nearMiss,
    referenceYear,
    /** An owner-occupied home loan takes the place of the rent or mortgage, unless it releases equity. */
    replacesHousing: a.formType === 'home' && a.occupancy === 'owner_occupied' && a.purpose !== 'equity_release',
  };
}
export type Context = ReturnType<typeof contextOf>;
/** A product that passed (no misses) or nearly passed, on the terms assessed. */
export type Candidate = NonNullable<ReturnType<typeof assess>>;

const CAP_MONTHLY = COST_RATE_CAP_PERCENT / 1200;

/** Records a miss by `over` (in the margin's unit), unless it is beyond the margin (false). */
function missed(to: Miss[], rule: RuleId, over: number, margin: number, bound: number, actual: number, needed = bound) {
  if (over > margin) return false;
  to.push({ rule, distance: over / margin, bound, needed, actual });
  return true;
}

/** The repayment of `principal` at monthly rate `i` over `n` months, `balloon` paid with the last. */
function level(principal: number, i: number, n: number, balloon: number): number {
  const discount = Math.exp(-n * Math.log1p(i));
  return i === 0 ? (principal - balloon) / n : ((principal - balloon * discount) * i) / (1 - discount);
}

/** `amount` capped, for a loan of `asked` over `limit` percent of `value`, at the largest within it; -1 beyond the margin. */
function lvrCap(to: Miss[], rule: RuleId, amount: number, asked: number, value: number, limit: number, margin: number) {
  if (asked * 100 <= limit * value) return amount;
  const actual = (asked / value) * 100;
  const needed = Math.floor((value * limit) / 100);
  return value > 0 && missed(to, rule, actual - limit, margin, limit, actual, needed) ? Math.min(amount, needed) : -1;
}

/** Whether a car product finances only some kinds of used-car sale. */
export const limitsSale = (saleTypes: readonly string[]) => saleTypes.length < USED_CAR_SALE_TYPES.length;

export function assess(p: CatalogueProduct, x: Context) {
  const { a } = x;
  const m = x.nearMiss.margins;
  const d = p.definition;
  const car = d.loanType === 'car' ? d.car : undefined;
  const home = d.loanType === 'home' ? d.home : undefined;
  const occupancy = home?.occupancy[a.occupancy];
  if (!(d.purposes as readonly string[]).includes(a.purpose)) return null;
  if (a.employmentType !== undefined && !d.employment.types.includes(a.employmentType)) return null;
  if (car && a.saleType !== undefined && !car.saleTypes.includes(a.saleType)) return null;
  if (home && (!occupancy || (home.firstHomeBuyerOnly && !a.firstHomeBuyer))) return null;
  if (home && !home.repaymentTypes.includes(a.repaymentType)) return null;
  const misses: Miss[] = [];

  // The band: priced, or declined within the margin of the product's minimum band.
  let price = p.prices[x.priceIndex];
  if (price === null) {
    const minRank = BANDS_BEST_FIRST.indexOf(d.minimumBand);
    const gap = x.bandRank - minRank;
    price = gap > 0 ? p.prices[x.priceIndex - gap] : null;
    if (!price || price.capped || !missed(misses, 'creditBand', gap, m.creditBands, minRank, x.bandRank)) return null;
  } else if (price.capped) return null;

  // The amount and term that would qualify: those asked for, unless a rule on them is missed.
  const asked = a.loanAmount;
  const { min: minAmount, max: maxAmount } = d.loanAmount;
  const over = ((asked - maxAmount) / maxAmount) * 100;
  const under = ((minAmount - asked) / minAmount) * 100;
  if (asked > maxAmount && !missed(misses, 'maxLoanAmount', over, m.loanAmountPercent, maxAmount, asked)) return null;
  if (asked < minAmount && !missed(misses, 'minLoanAmount', under, m.loanAmountPercent, minAmount, asked)) return null;
  let amount = Math.min(Math.max(asked, minAmount), maxAmount);
  const { min: minTerm, max: maxTerm } = d.loanTermYears;
  const term = a.termKnown
    ? a.termYears
    : Math.min(maxTerm, Math.max(minTerm, Math.round(p.benchmark.termMonths / 12)));
  if (term > maxTerm && !missed(misses, 'maxLoanTerm', term - maxTerm, m.loanTermYears, maxTerm, term)) return null;
  if (term < minTerm && !missed(misses, 'minLoanTerm', minTerm - term, m.loanTermYears, minTerm, term)) return null;
  let termYears = Math.min(Math.max(term, minTerm), maxTerm);

  const policy = p.serviceability;
  const countedOther = a.otherIncome * (policy.otherIncomePercent / 100);
  const assessable = a.grossMonthlyIncome + countedOther;
  const minIncome = d.minimumMonthlyIncome;
  if (a.incomeKnown && assessable < minIncome) {
    const short = ((minIncome - assessable) / minIncome) * 100;
    if (!missed(misses, 'minIncome', short, m.incomePercent, minIncome, assessable, minIncome - countedOther))
      return null;
  }
  const minMonths = d.employment.minimumMonthsInJob;
  const shortMonths = minMonths - a.monthsInJob;
  if (a.employmentKnown && a.tenureKnown && shortMonths > 0)
    if (!missed(misses, 'timeInJob', shortMonths, m.timeInJobMonths, minMonths, a.monthsInJob)) return null;

  // A car's age, the balloon that would qualify, and the loan against what the vehicle calls for.
  let balloonPercent = 0;
  if (car) {
    const { maxVehicleAgeYears: maxAge, balloon } = car;
    const age = a.vehicleAge;
    const newest = x.referenceYear - maxAge;
    if (age > maxAge && !missed(misses, 'vehicleAge', age - maxAge, m.vehicleAgeYears, maxAge, age, newest))
      return null;
    const extra = a.balloonPercent - balloon.maxPercent;
    const margin = m.balloonPercentPoints;
    if (extra > 0 && !missed(misses, 'balloonPercent', extra, margin, balloon.maxPercent, a.balloonPercent))
      return null;
    balloonPercent = Math.min(a.balloonPercent, balloon.maxPercent);
    const longer = termYears - balloon.maxTermYears;
    if (balloonPercent > 0 && longer > 0) {
      if (!missed(misses, 'balloonTerm', longer, m.balloonTermYears, balloon.maxTermYears, termYears)) return null;
      termYears = balloon.maxTermYears;
    }
    if (a.vehicleKnown)
      amount = lvrCap(misses, 'vehicleLvr', amount, asked, a.vehicleValue, car.maxLvrPercent, m.lvrPercentPoints);
    if (amount < minAmount) return null;
  }

  // A home loan's LVR, interest-only period, and LMI premium on the amount that would qualify.
  const termMonths = termYears * 12;
  let lvr = 0;
  let interestOnlyMonths = 0;
  let premium = 0;
  let lmiRow = -1;
  if (home && occupancy) {
    lvr = (asked / a.propertyValue) * 100;
    amount = lvrCap(misses, 'lvr', amount, asked, a.propertyValue, occupancy.maxLvrPercent, m.lvrPercentPoints);
    if (amount < minAmount) return null;
    if (a.interestOnly) {
      interestOnlyMonths = Math.min((home.interestOnly?.maxYears ?? 0) * 12, termMonths - 12);
      if (interestOnlyMonths <= 0) return null;
    }
    if (p.lmiTable && amount * 100 > home.lmiAboveLvrPercent * a.propertyValue) {
      const cell = lmiCellOf(p.lmiTable, amount, a.propertyValue);
      if (cell === undefined) return null; // outside the table: the catalogue's rules prevent it
      lmiRow = cell.row;
      premium = round2(amount * cell.rate);
    }
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
  const perDollar = level(1, bufferedMonthly, amortisedMonths, balloonShare);
  const buffered = financed * perDollar;
  if (a.incomeKnown && buffered > capacity) {
    const limit = capacity > 0 ? capacity / perDollar : 0;
    const largest =
      capitalised && p.lmiTable && home
        ? largestLoanWithPremium(p.lmiTable, home.lmiAboveLvrPercent, a.propertyValue, limit)
        : limit;
    const needed = Math.floor(largest / 100) * 100;
    const over = ((amount - largest) / amount) * 100;
    const margin = m.serviceabilityPercent;
    if (needed < minAmount || over > margin) return null;
    const alternative = Math.ceil((outgoings + buffered) / netIncomeShare - countedOther);
    misses.push({
      rule: 'serviceability',
      distance: over / margin,
      bound: amount,
      needed,
      actual: capacity - buffered,
      alternative,
    });
  }
  if (misses.length > x.nearMiss.maxMissedRules) return null;

  // The repayment, and the cost-rate cap on the loan itself: its cost rate is above the cap exactly when
  // the payments' present value at the cap exceeds the advance (less the fee and a premium paid upfront).
  const monthly = price.rate / 1200;
  const revert = price.revertRate / 1200;
  const balloon = amount * balloonShare;
  let repayment: number;
  let afterInterestOnly = 0;
  let valueAtCap: number;
  if (interestOnlyMonths > 0) {
    repayment = financed * monthly;
    afterInterestOnly = level(financed, revert, amortisedMonths, 0);
    valueAtCap =
      (repayment + monthlyFee) * annuityFactor(CAP_MONTHLY, interestOnlyMonths) +
      (afterInterestOnly + monthlyFee) *
        annuityFactor(CAP_MONTHLY, amortisedMonths) *
        (1 + CAP_MONTHLY) ** -interestOnlyMonths;
  } else {
    repayment = level(financed, monthly, termMonths, balloon);
    valueAtCap =
      (repayment + monthlyFee) * annuityFactor(CAP_MONTHLY, termMonths) + balloon * (1 + CAP_MONTHLY) ** -termMonths;
  }
  if (valueAtCap > amount - d.fees.establishment - (capitalised ? 0 : premium)) return null;

  const comparisonRate = lmiRow >= 0 ? price.lmiComparisonRates[lmiRow] : price.comparisonRate;
  // Employment unknown matters only to a product that limits the type or asks for time in the job.
  const unknown = !a.termKnown || !a.incomeKnown || !a.livingKnown || !a.vehicleKnown;
  const limitsEmployment = !a.employmentKnown && d.employment.types.length < EMPLOYMENT_TYPES.length;
  const limitsTenure = (!a.employmentKnown || !a.tenureKnown) && minMonths > 0;
  const vehicleUntold = car !== undefined && (!a.vehicleAgeKnown || (!a.saleTypeKnown && limitsSale(car.saleTypes)));
  return {
    product: p,
    price,
    /** On the benchmark loan; with LMI, with the premium of the applicant's LVR. */
    comparisonRate,
    headline: lmiRow < 0 ? price.headline : headlineOf(price.headlinePrefix, comparisonRate),
    repayment: round2(repayment),
    afterInterestOnly: round2(afterInterestOnly),
    interestOnlyMonths,
    lvr: round2(lvr),
    lmiPremium: premium,
    lmiRow,
    amountFinanced: round2(financed),
    misses,
    closeness: misses.reduce((sum, miss) => sum + miss.distance, 0),
    termMonths,
    /** The repayment at the rate plus the serviceability buffer. */
    buffered,
    indicative: unknown || limitsEmployment || limitsTenure || vehicleUntold,
  };
}
