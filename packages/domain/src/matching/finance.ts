/**
 * Loan arithmetic: repayments, and the comparison rate as the National Credit Code defines it (the
 * internal rate of return of every payment the borrower makes, fees included, quoted as 12 × the monthly
 * rate). Repayments are monthly in arrears at annual rate / 12, a balloon paid with the last; interest-only
 * months pay the interest, then the principal amortises at the rate it reverts to; the establishment fee
 * (and an LMI premium not capitalised) is paid at settlement, the monthly fee with each repayment.
 */
/** Present value of 1 paid at the end of each of `months` months at monthly rate `i`. */
export function annuityFactor(i: number, months: number): number {
  return i === 0 ? months : (1 - (1 + i) ** -months) / i;
}

/** The level monthly repayment of `principal` over `termMonths`, `balloon` paid with the last. Not rounded. */
export function monthlyRepayment(
  principal: number,
  annualRatePercent: number,
  termMonths: number,
  balloon = 0,
): number {
  const i = annualRatePercent / 1200;
  if (i === 0) return (principal - balloon) / termMonths;
  const discount = (1 + i) ** -termMonths;
  return ((principal - balloon * discount) * i) / (1 - discount);
}

/** A loan: its amount (without a capitalised premium), its rate (interest only: then `revertRatePercent`). */
export type LoanTerms = Readonly<{
  amount: number;
  termMonths: number;
  annualRatePercent: number;
  establishmentFee: number;
  monthlyFee: number;
  interestOnlyMonths?: number;
  revertRatePercent?: number;
  balloon?: number;
  lmiPremium?: number;
  lmiCapitalised?: boolean;
}>;

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
  // The interest-only payments (none without the period), then the amortising ones.
  const interestOnly = principal * (loan.annualRatePercent / 1200) + loan.monthlyFee;
  const amortising = monthlyRepayment(principal, amortisingRate, loan.termMonths - io, balloon) + loan.monthlyFee;
  const advance = loan.amount - loan.establishmentFee - (capitalised ? 0 : premium);
  const f = (i: number): number =>
    interestOnly * annuityFactor(i, io) +
    amortising * annuityFactor(i, loan.termMonths - io) * (1 + i) ** -io +
    balloon * (1 + i) ** -loan.termMonths -
    advance;
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

/** The ceiling on the annual cost rate (nominal, like the comparison rate) of any credit offered or near-missed. */
export const COST_RATE_CAP_PERCENT = 48;

/** Whole amounts with thousands separators: 23400 → "23,400". */
export function formatAmount(x: number): string {
  const sign = x < 0 ? '-' : '';
  return sign + String(Math.round(Math.abs(x))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Rounds to cents (and rates to 2 decimals). */
export const round2 = (x: number): number => Math.round((x + Number.EPSILON) * 100) / 100;

// Values in words with their units, for near-misses and conditions: `$54,000`, `$2,900/month`, `6 years`, `85%`.

/** Dollars, whole when the value is whole to the cent, else with cents: `$54,000`, `-$79.11`. */
export function dollars(x: number): string {
  const cents = round2(x);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.trunc(abs);
  const fraction = Math.round((abs - whole) * 100);
  return `${sign}$${formatAmount(whole)}${fraction === 0 ? '' : `.${String(fraction).padStart(2, '0')}`}`;
}

export const perMonth = (x: number): string => `${dollars(x)}/month`;

/** A percentage to 2 decimals at most: `85%`, `84.12%`. */
export const percent = (x: number): string => `${round2(x)}%`;

export const years = (n: number): string => `${n} year${n === 1 ? '' : 's'}`;
export const months = (n: number): string => `${n} month${n === 1 ? '' : 's'}`;
