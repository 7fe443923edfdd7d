/** Values in words with their units, for near-misses and conditions: `$54,000`, `$2,900/month`, `6 years`, `85%`. */
import { formatAmount, round2 } from './finance';

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
