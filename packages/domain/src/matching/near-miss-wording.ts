/**
 * The words of a near-miss, one row per rule: what the reason calls the rule and the applicant's value,
 * and what the applicant would need, each value with its unit. Only the near-misses returned are worded;
 * the assessment works in numbers (`Miss`).
 * A credit reason says only that the lender's credit criteria were not met: no band, score or anything
 * derived from them (the product's minimum band with the near-miss margin would give the applicant's band
 * away); the lender tells the applicant the rest.
 */
import type { Applicant } from './applicant';
import type { Miss, RuleId } from './assess';
import type { CatalogueProduct } from './types';
import { dollars, months, percent, perMonth, years } from './units';

/** What some rules' words quote beside the miss itself. */
export interface WordingFacts {
  readonly applicant: Applicant;
  readonly product: CatalogueProduct;
}

export interface RuleWording {
  /** The reason's assessed quantity: an input field, or `creditScore`, `timeInJob`, `lvr`, `vehicleAge`, `serviceability`. */
  readonly field: string;
  readonly rule: (miss: Miss, facts: WordingFacts) => string;
  /** The applicant's value as the reason shows it, with its unit. */
  readonly actual: (miss: Miss, facts: WordingFacts) => string;
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

const words = (id: string): string => id.replace(/_/g, ' ');

export const NEAR_MISS_WORDING: { readonly [R in RuleId]: RuleWording } = {
  creditBand: {
    field: 'creditScore',
    rule: () => "the lender's credit criteria",
    actual: () => 'not met',
    // One requirement on this field: its value only takes part in merging, and is never shown.
    requirement: {
      field: 'creditScore',
      direction: 'atLeast',
      value: () => 0,
      text: () => "the lender's credit criteria met (the lender explains its assessment to the applicant)",
    },
  },
  maxLoanAmount: {
    field: 'loanAmount',
    rule: (m) => `at most ${dollars(m.bound)}`,
    actual: (m) => dollars(m.actual),
    requirement: { field: 'loanAmount', direction: 'atMost', text: (m) => `at most ${dollars(m.needed)}` },
  },
  minLoanAmount: {
    field: 'loanAmount',
    rule: (m) => `at least ${dollars(m.bound)}`,
    actual: (m) => dollars(m.actual),
    requirement: { field: 'loanAmount', direction: 'atLeast', text: (m) => `at least ${dollars(m.needed)}` },
  },
  maxLoanTerm: {
    field: 'loanTerm',
    rule: (m) => `at most ${years(m.bound)}`,
    actual: (m) => years(m.actual),
    requirement: { field: 'loanTerm', direction: 'atMost', text: (m) => `at most ${years(m.needed)}` },
  },
  minLoanTerm: {
    field: 'loanTerm',
    rule: (m) => `at least ${years(m.bound)}`,
    actual: (m) => years(m.actual),
    requirement: { field: 'loanTerm', direction: 'atLeast', text: (m) => `at least ${years(m.needed)}` },
  },
  minIncome: {
    field: 'grossMonthlyIncome',
    rule: (m) => `assessable income of at least ${perMonth(m.bound)}`,
    actual: (m) => perMonth(m.actual),
    requirement: {
      field: 'grossMonthlyIncome',
      direction: 'atLeast',
      value: (m) => Math.ceil(m.needed),
      text: (m) => `at least ${perMonth(Math.ceil(m.needed))}`,
    },
  },
  timeInJob: {
    field: 'timeInJob',
    rule: (m) => `at least ${months(m.bound)} in the current job`,
    actual: (m) => months(m.actual),
    requirement: {
      field: 'timeInJob',
      direction: 'atLeast',
      text: (m) => `at least ${months(m.needed)} in the current job (${m.needed - m.actual} more)`,
    },
  },
  vehicleAge: {
    field: 'vehicleAge',
    rule: (m) => `vehicle at most ${years(m.bound)} old`,
    actual: (m) => years(m.actual),
    requirement: { field: 'vehicleYear', direction: 'atLeast', text: (m) => `model year ${m.needed} or newer` },
  },
  balloonPercent: {
    field: 'balloonPaymentPercent',
    rule: (m) => `balloon at most ${percent(m.bound)} of the loan amount`,
    actual: (m) => percent(m.actual),
    requirement: {
      field: 'balloonPaymentPercent',
      direction: 'atMost',
      text: (m) => `at most ${percent(m.needed)} of the loan amount`,
    },
  },
  balloonTerm: {
    field: 'loanTerm',
    rule: (m) => `a balloon only on terms of at most ${years(m.bound)}`,
    actual: (m) => years(m.actual),
    requirement: {
      field: 'loanTerm',
      direction: 'atMost',
      text: (m) => `at most ${years(m.needed)} (the longest term with a balloon)`,
    },
  },
  lvr: {
    field: 'lvr',
    rule: (m, { applicant }) => `LVR at most ${percent(m.bound)} for ${words(applicant.occupancy)} loans`,
    actual: (m) => percent(m.actual),
    requirement: {
      field: 'loanAmount',
      direction: 'atMost',
      text: (m, { applicant }) =>
        `at most ${dollars(m.needed)} (a deposit of at least ${dollars(applicant.propertyValue - m.needed)} brings the LVR to ${percent(m.bound)})`,
    },
  },
  vehicleLvr: {
    field: 'lvr',
    rule: (m, { applicant }) =>
      `loan at most ${percent(m.bound)} of what the vehicle calls for (price less deposit and trade-in, plus any trade-in payout: ${dollars(applicant.vehicleValue)})`,
    actual: (m) => percent(m.actual),
    requirement: {
      field: 'loanAmount',
      direction: 'atMost',
      text: (m) => `at most ${dollars(m.needed)} for this vehicle`,
    },
  },
  serviceability: {
    field: 'serviceability',
    rule: (_m, { product }) =>
      `repayments assessed at the rate plus a buffer of ${product.serviceability.bufferPercentPoints} percentage points must fit within income after tax, housing and living costs`,
    actual: (m) => perMonth(m.actual),
    requirement: {
      field: 'loanAmount',
      direction: 'atMost',
      text: (m, { applicant }) =>
        `at most ${dollars(m.needed)} (the largest amount the income services), or ` +
        (m.bound < applicant.loanAmount ? `at most ${dollars(m.bound)} with ` : '') +
        `a gross monthly income of at least ${perMonth(m.alternative ?? 0)}`,
    },
  },
};
