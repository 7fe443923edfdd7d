/**
 * Comparison-rate benchmarks (National Credit Regulations, reg 100): the loan each kind of credit's comparison
 * rate is quoted on, its example and its warning. The catalogue file states them; its schema accepts only these.
 */
import { formatAmount, years } from './finance';
import type { FormType } from '../validation/schemas';

/** The loan a comparison rate is quoted on, by kind of credit (National Credit Regulations, reg 100). */
export type ComparisonRateBenchmark = Readonly<{ amount: number; termYears: number; secured: boolean }>;
/** A loan a comparison rate is computed on. */
export type BenchmarkLoan = Readonly<{ amount: number; termMonths: number }>;
type Range = Readonly<{ min: number; max: number }>;

/** $30,000 over 5 years for fixed-term personal and car loans, secured or not; $150,000 over 25 years for home loans. */
export const COMPARISON_RATE_BENCHMARKS: Readonly<Record<FormType, ComparisonRateBenchmark>> = Object.freeze({
  personal: Object.freeze({ amount: 30000, termYears: 5, secured: false }),
  car: Object.freeze({ amount: 30000, termYears: 5, secured: true }),
  home: Object.freeze({ amount: 150000, termYears: 25, secured: true }),
});

export const COMPARISON_RATE_WARNING =
  'WARNING: This comparison rate is true only for the examples given and may not include all fees and charges. ' +
  'Different terms, fees or other loan amounts might result in a different comparison rate.';

/** The benchmark within the product's limits: a product that cannot be written at it is quoted at its nearest amount and term. */
export function benchmarkFor(
  definition: Readonly<{ loanType: FormType; loanAmount: Range; loanTermYears: Range }>,
): BenchmarkLoan {
  const b = COMPARISON_RATE_BENCHMARKS[definition.loanType];
  const clamp = (x: number, min: number, max: number) => Math.min(Math.max(x, min), max);
  return {
    amount: clamp(b.amount, definition.loanAmount.min, definition.loanAmount.max),
    termMonths: clamp(b.termYears * 12, definition.loanTermYears.min * 12, definition.loanTermYears.max * 12),
  };
}

/** "a $30,000 secured loan over 5 years" (terms are whole years). */
export function exampleText(loanType: FormType, { amount, termMonths }: BenchmarkLoan): string {
  const kind = COMPARISON_RATE_BENCHMARKS[loanType].secured ? 'secured' : 'unsecured';
  return `a $${formatAmount(amount)} ${kind} loan over ${years(termMonths / 12)}`;
}

/** The standard warning; a product quoted off the benchmark says so, and which loan it is quoted on instead. */
export function warningText(loanType: FormType, benchmark: BenchmarkLoan): string {
  const b = COMPARISON_RATE_BENCHMARKS[loanType];
  if (benchmark.amount === b.amount && benchmark.termMonths === b.termYears * 12) return COMPARISON_RATE_WARNING;
  return (
    `${COMPARISON_RATE_WARNING} This product is not offered at the benchmark of $${formatAmount(b.amount)} over ` +
    `${years(b.termYears)}: its comparison rate is for the nearest loan it offers, ${exampleText(loanType, benchmark)}.`
  );
}
