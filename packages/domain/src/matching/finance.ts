/**
 * Loan arithmetic: amortised repayments, and the comparison rate as the National Credit Code defines
 * it (the internal rate of return of every payment the borrower makes, fees included, on a benchmark
 * loan; monthly, quoted as the nominal annual rate 12 × the monthly rate). The model:
 * - repayments are monthly, in arrears, from month 1; interest accrues monthly at annual rate / 12;
 * - a balloon is paid with the last repayment, so the level repayment amortises the principal less the
 *   present value of the balloon;
 * - interest-only: for the interest-only months the repayment is principal × monthly rate, then the
 *   principal is amortised over the remaining months at the rate it reverts to;
 * - the establishment fee is paid at settlement (the borrower receives the amount less the fee);
 *   the monthly fee is paid with each repayment;
 * - a lenders mortgage insurance premium is either capitalised (added to the principal repaid) or paid
 *   at settlement like the establishment fee.
 */

const monthlyRateOf = (annualRatePercent: number): number => annualRatePercent / 1200;

/** Present value of 1 paid at the end of each of `months` months at monthly rate `i`. */
export function annuityFactor(i: number, months: number): number {
  return i === 0 ? months : (1 - (1 + i) ** -months) / i;
}

/**
 * The level monthly repayment that repays `principal` over `termMonths` at `annualRatePercent`,
 * leaving `balloon` to be paid with the last repayment. Not rounded.
 */
export function monthlyRepayment(
  principal: number,
  annualRatePercent: number,
  termMonths: number,
  balloon = 0,
): number {
  const i = monthlyRateOf(annualRatePercent);
  if (i === 0) return (principal - balloon) / termMonths;
  const discount = (1 + i) ** -termMonths;
  return ((principal - balloon * discount) * i) / (1 - discount);
}

/** The repayments of one loan: `interestOnlyMonths` of interest, then level repayments, then any balloon. */
export interface LoanTerms {
  /** The loan asked for (without any capitalised premium). */
  readonly amount: number;
  readonly termMonths: number;
  /** The rate of the loan; interest only: the rate during the interest-only months. */
  readonly annualRatePercent: number;
  readonly establishmentFee: number;
  readonly monthlyFee: number;
  readonly interestOnlyMonths?: number;
  /** Interest only: the rate after the interest-only months (`annualRatePercent` when absent). */
  readonly revertRatePercent?: number;
  readonly balloon?: number;
  /** Lenders mortgage insurance premium, in dollars: added to the principal when capitalised, else paid at settlement. */
  readonly lmiPremium?: number;
  readonly lmiCapitalised?: boolean;
}

/**
 * The comparison rate of a loan, in percent per year (nominal: 12 × the monthly IRR), not rounded. The
 * payments' present value less what the borrower receives falls as the rate rises, so the root is
 * bracketed and found by Newton steps that fall back to bisection when they leave the bracket.
 */
export function comparisonRate(loan: LoanTerms): number {
  const io = loan.interestOnlyMonths ?? 0;
  const balloon = loan.balloon ?? 0;
  const premium = loan.lmiPremium ?? 0;
  const capitalised = loan.lmiCapitalised === true;
  const principal = loan.amount + (capitalised ? premium : 0);
  const amortisingRate = io > 0 ? (loan.revertRatePercent ?? loan.annualRatePercent) : loan.annualRatePercent;
  const segments: { payment: number; months: number }[] = [];
  if (io > 0)
    segments.push({ payment: principal * monthlyRateOf(loan.annualRatePercent) + loan.monthlyFee, months: io });
  segments.push({
    payment: monthlyRepayment(principal, amortisingRate, loan.termMonths - io, balloon) + loan.monthlyFee,
    months: loan.termMonths - io,
  });
  const advance = loan.amount - loan.establishmentFee - (capitalised ? 0 : premium);
  const f = (i: number): number => {
    let pv = 0;
    let elapsed = 0;
    for (const { payment, months } of segments) {
      pv += payment * annuityFactor(i, months) * (1 + i) ** -elapsed;
      elapsed += months;
    }
    return pv + balloon * (1 + i) ** -loan.termMonths - advance;
  };
  if (f(0) <= 0) return 0; // no interest and no fees: nothing to find (fees are never negative)
  let lo = 0;
  let hi = 0.01;
  while (f(hi) > 0) hi *= 2;
  let i = (lo + hi) / 2;
  for (let step = 0; step < 200; step++) {
    const value = f(i);
    if (value > 0) lo = i;
    else hi = i;
    const h = Math.max(i * 1e-6, 1e-12);
    const slope = (f(i + h) - f(i - h)) / (2 * h);
    let next = i - value / slope;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - i) < 1e-15) return next * 1200;
    i = next;
  }
  return i * 1200;
}

/**
 * The ceiling on the annual cost rate of any credit offered (percent per year, nominal like the
 * comparison rate): no product priced above it is offered, accepted or near-missed.
 */
export const COST_RATE_CAP_PERCENT = 48;

/** Whole amounts with thousands separators: 23400 → "23,400". */
export function formatAmount(x: number): string {
  const sign = x < 0 ? '-' : '';
  return sign + String(Math.round(Math.abs(x))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Rounds to cents (and rates to 2 decimals). */
export const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;
