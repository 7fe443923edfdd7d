/**
 * A near-miss in words, one row per rule, each value with its unit. A credit reason says only that the
 * lender's credit criteria were not met: no band, score or anything derived from them (the minimum band
 * with the near-miss margin would give the applicant's band away).
 */
import type { Applicant } from './applicant';
import type { NearMissOffer, Requirement } from './match-types';
import type { CatalogueProduct } from './catalogue';
import { dollars, months, percent, perMonth, years } from './finance';

/** The rules a product may be near-missed on: those with a wording below. */
export type RuleId = keyof typeof WORDING;

/**
 * A missed rule: the share of its margin used, the product's bound, the value that would pass, the
 * applicant's (serviceability: the amount assessed, the largest serviced, the surplus, the income needed).
 */
export type Miss = Readonly<{
  rule: RuleId;
  distance: number;
  bound: number;
  needed: number;
  actual: number;
  alternative?: number;
}>;

type Words = (miss: Miss, a: Applicant, p: CatalogueProduct) => string;
type Direction = 'atMost' | 'atLeast';

/**
 * A rule's reason (the assessed quantity, the rule, the applicant's value) and requirement: the field and
 * direction, the `value` (`miss.needed` when absent), the text; on one field and direction the tightest is kept.
 */
type RuleWording = Readonly<{
  field: string;
  rule: Words;
  actual: Words;
  requires: readonly [field: string, direction: Direction];
  value?: (miss: Miss) => number;
  text: Words;
}>;

/** A product nearly passed (assess.ts), for an applicant. */
type NearMiss = Readonly<{ product: CatalogueProduct; headline: string; misses: readonly Miss[] }>;

export function nearMissOffer(c: NearMiss, { a }: Readonly<{ a: Applicant }>): NearMissOffer {
  const p = c.product;
  const requirements: (Requirement & { direction: Direction; value: number })[] = [];
  for (const miss of c.misses) {
    const { requires, value, text }: RuleWording = WORDING[miss.rule];
    const [field, direction] = requires;
    const requirement = { field, direction, value: value ? value(miss) : miss.needed, requirement: text(miss, a, p) };
    const same = requirements.findIndex((r) => r.field === field && r.direction === direction);
    const kept = requirements[same];
    if (same < 0) requirements.push(requirement);
    else if (direction === 'atMost' ? requirement.value < kept.value : requirement.value > kept.value)
      requirements[same] = requirement;
  }
  return {
    lender: p.lender,
    product: p.product,
    headline: c.headline,
    reasons: c.misses.map((miss) => {
      const { field, rule, actual } = WORDING[miss.rule];
      return { field, rule: rule(miss, a, p), actual: actual(miss, a, p) };
    }),
    wouldQualifyIf: requirements.map(({ field, requirement }) => ({ field, requirement })),
  };
}

/**
 * A bound on a field, its values in `unit`: "at most $50,000", "at least 2 years"; its requirement on the
 * field `requires` (the same by default). A rule words its reason or requirement itself where they say more.
 */
function bounded(field: string, direction: Direction, unit: (n: number) => string, requires = field): RuleWording {
  const bound = direction === 'atMost' ? 'at most' : 'at least';
  return {
    field,
    rule: (m) => `${bound} ${unit(m.bound)}`,
    actual: (m) => unit(m.actual),
    requires: [requires, direction],
    text: (m) => `${bound} ${unit(m.needed)}`,
  };
}

const WORDING = {
  creditBand: {
    field: 'creditScore',
    rule: () => "the lender's credit criteria",
    actual: () => 'not met',
    // One requirement on this field: its value only takes part in merging, and is never shown.
    requires: ['creditScore', 'atLeast'],
    value: () => 0,
    text: () => "the lender's credit criteria met (the lender explains its assessment to the applicant)",
  },
  maxLoanAmount: bounded('loanAmount', 'atMost', dollars),
  minLoanAmount: bounded('loanAmount', 'atLeast', dollars),
  maxLoanTerm: bounded('loanTerm', 'atMost', years),
  minLoanTerm: bounded('loanTerm', 'atLeast', years),
  minIncome: {
    ...bounded('grossMonthlyIncome', 'atLeast', perMonth),
    rule: (m) => `assessable income of at least ${perMonth(m.bound)}`,
    value: (m) => Math.ceil(m.needed),
    text: (m) => `at least ${perMonth(Math.ceil(m.needed))}`,
  },
  timeInJob: {
    ...bounded('timeInJob', 'atLeast', months),
    rule: (m) => `at least ${months(m.bound)} in the current job`,
    text: (m) => `at least ${months(m.needed)} in the current job (${months(m.needed - m.actual)} more)`,
  },
  vehicleAge: {
    ...bounded('vehicleAge', 'atLeast', years, 'vehicleYear'),
    rule: (m) => `vehicle at most ${years(m.bound)} old`,
    text: (m) => `model year ${m.needed} or newer`,
  },
  balloonPercent: {
    ...bounded('balloonPaymentPercent', 'atMost', percent),
    rule: (m) => `balloon at most ${percent(m.bound)} of the loan amount`,
    text: (m) => `at most ${percent(m.needed)} of the loan amount`,
  },
  balloonTerm: {
    ...bounded('loanTerm', 'atMost', years),
    rule: (m) => `a balloon only on terms of at most ${years(m.bound)}`,
    text: (m) => `at most ${years(m.needed)} (the longest term with a balloon)`,
  },
  lvr: {
    ...bounded('lvr', 'atMost', percent, 'loanAmount'),
    rule: (m, a) => `LVR at most ${percent(m.bound)} for ${a.occupancy.replace(/_/g, ' ')} loans`,
    text: (m, a) =>
      `at most ${dollars(m.needed)} (a deposit of at least ${dollars(a.propertyValue - m.needed)} brings the LVR to ${percent(m.bound)})`,
  },
  vehicleLvr: {
    ...bounded('lvr', 'atMost', percent, 'loanAmount'),
    rule: (m, a) =>
      `loan at most ${percent(m.bound)} of what the vehicle calls for (price less deposit and trade-in, plus any trade-in payout: ${dollars(a.vehicleValue)})`,
    text: (m) => `at most ${dollars(m.needed)} for this vehicle`,
  },
  serviceability: {
    ...bounded('serviceability', 'atMost', perMonth, 'loanAmount'),
    rule: (_m, _a, p) =>
      `repayments assessed at the rate plus a buffer of ${p.serviceability.bufferPercentPoints} percentage points must fit within income after tax, housing and living costs`,
    text: (m, a) =>
      `at most ${dollars(m.needed)} (the largest amount the income services), or ` +
      (m.bound < a.loanAmount ? `at most ${dollars(m.bound)} with ` : '') +
      `a gross monthly income of at least ${perMonth(m.alternative ?? 0)}`,
  },
} satisfies Record<string, RuleWording>;
