/**
 * The words of a near-miss, one row per rule: what the reason calls the rule and the applicant's value,
 * and what the applicant would need. Only the near-misses returned are worded; the assessment works
 * in numbers (`Miss`).
 */
import type { Applicant } from './applicant';
import type { Miss, RuleId } from './assess';
import { formatAmount, round2 } from './finance';
import { BANDS_BEST_FIRST, OCCUPANCY_TYPES, type BandPrice, type CatalogueProduct } from './types';

/** What some rules' words quote beside the miss itself. */
export interface WordingFacts {
  readonly applicant: Applicant;
  readonly product: CatalogueProduct;
  /** The price of the band that would qualify. */
  readonly price: BandPrice;
}

export interface RuleWording {
  /** The reason's assessed quantity: an input field, or `creditScore`, `timeInJob`, `lvr`, `vehicleAge`, `serviceability`. */
  readonly field: string;
  readonly rule: (miss: Miss, facts: WordingFacts) => string;
  /** The applicant's value as the reason shows it; `miss.actual` when absent. */
  readonly actual?: (miss: Miss) => number | string;
  readonly requirement: {
    /** The field to change: an input field, or `creditScore` / `timeInJob`. */
    readonly field: string;
    /** Requirements on one field and in one direction combine: the tightest `value` is kept. */
    readonly direction: 'atMost' | 'atLeast';
    /** `miss.needed` when absent. */
    readonly value?: (miss: Miss) => number;
    readonly text: (miss: Miss, facts: WordingFacts) => string;
  };
}

const years = (n: number): string => `${n} year${n === 1 ? '' : 's'}`;
const words = (id: string): string => id.replace(/_/g, ' ');

export const NEAR_MISS_WORDING: { readonly [R in RuleId]: RuleWording } = {
  creditBand: {
    field: 'creditScore',
    rule: (m) => `minimum credit band ${BANDS_BEST_FIRST[m.bound]}`,
    actual: (m) => BANDS_BEST_FIRST[m.actual],
    // Bands are ranked best first: "at least" a band is at most its rank, compared negated.
    requirement: {
      field: 'creditScore',
      direction: 'atLeast',
      value: (m) => -m.needed,
      text: (m) => `a credit score band of ${BANDS_BEST_FIRST[m.bound]} or better`,
    },
  },
  maxLoanAmount: {
    field: 'loanAmount',
    rule: (m) => `at most ${formatAmount(m.bound)}`,
    requirement: { field: 'loanAmount', direction: 'atMost', text: (m) => `at most ${formatAmount(m.needed)}` },
  },
  minLoanAmount: {
    field: 'loanAmount',
    rule: (m) => `at least ${formatAmount(m.bound)}`,
    requirement: { field: 'loanAmount', direction: 'atLeast', text: (m) => `at least ${formatAmount(m.needed)}` },
  },
  maxLoanTerm: {
    field: 'loanTerm',
    rule: (m) => `at most ${years(m.bound)}`,
    requirement: { field: 'loanTerm', direction: 'atMost', text: (m) => `at most ${years(m.needed)}` },
  },
  minLoanTerm: {
    field: 'loanTerm',
    rule: (m) => `at least ${years(m.bound)}`,
    requirement: { field: 'loanTerm', direction: 'atLeast', text: (m) => `at least ${years(m.needed)}` },
  },
  minIncome: {
    field: 'grossMonthlyIncome',
    rule: (m) => `assessable income of at least ${formatAmount(m.bound)} a month`,
    actual: (m) => round2(m.actual),
    requirement: {
      field: 'grossMonthlyIncome',
      direction: 'atLeast',
      value: (m) => Math.ceil(m.needed),
      text: (m) => `at least ${formatAmount(Math.ceil(m.needed))}`,
    },
  },
  timeInJob: {
    field: 'timeInJob',
    rule: (m) => `at least ${m.bound} months in the current job`,
    requirement: {
      field: 'timeInJob',
      direction: 'atLeast',
      text: (m) => `at least ${m.needed} months in the current job (${m.needed - m.actual} more)`,
    },
  },
  vehicleAge: {
    field: 'vehicleAge',
    rule: (m) => `vehicle at most ${years(m.bound)} old`,
    requirement: { field: 'vehicleYear', direction: 'atLeast', text: (m) => `${m.needed} or newer` },
  },
  balloonPercent: {
    field: 'balloonPaymentPercent',
    rule: (m) => `balloon at most ${m.bound}% of the loan amount`,
    requirement: { field: 'balloonPaymentPercent', direction: 'atMost', text: (m) => `at most ${m.needed}%` },
  },
  balloonTerm: {
    field: 'loanTerm',
    rule: (m) => `a balloon only on terms of at most ${years(m.bound)}`,
    requirement: {
      field: 'loanTerm',
      direction: 'atMost',
      text: (m) => `at most ${years(m.needed)} (the longest term with a balloon)`,
    },
  },
  lvr: {
    field: 'lvr',
    rule: (m, { applicant }) => `LVR at most ${m.bound}% for ${words(OCCUPANCY_TYPES[applicant.occupancyIndex])} loans`,
    actual: (m) => round2(m.actual),
    requirement: {
      field: 'loanAmount',
      direction: 'atMost',
      text: (m, { applicant }) =>
        `at most ${formatAmount(m.needed)} (a deposit of at least ${formatAmount(applicant.propertyValue - m.needed)} brings the LVR to ${m.bound}%)`,
    },
  },
  serviceability: {
    field: 'serviceability',
    rule: (_m, { product, price }) => {
      const buffer = product.serviceability.bufferPercentPoints;
      return `repayments assessed at ${(price.rate + buffer).toFixed(2)}% (the rate plus a ${buffer}-point buffer) must fit within income after tax, housing and living costs`;
    },
    actual: (m) => Math.round(m.actual),
    requirement: {
      field: 'loanAmount',
      direction: 'atMost',
      text: (m, { applicant }) =>
        `at most ${formatAmount(m.needed)} (the largest amount the income services), or ` +
        (m.bound < applicant.loanAmount ? `at most ${formatAmount(m.bound)} with ` : '') +
        `a gross monthly income of at least ${formatAmount(m.alternative ?? 0)}`,
    },
  },
};
