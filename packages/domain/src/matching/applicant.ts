/**
 * What matching reads from an application: the stored step data of one loan type turned into the
 * numbers and category indices the rules compare, and the credit band to price at.
 */
import type { ScoreBand } from '../credit/bureau';
import {
  BANDS_BEST_FIRST,
  CAR_PURPOSES,
  EMPLOYMENT_TYPES,
  LIVING_SITUATIONS,
  OCCUPANCY_TYPES,
  PURPOSES_BY_TYPE,
  REPAYMENT_TYPES,
  SALE_TYPES,
  type FormType,
} from './types';
import type { CreditAssessment, MatchInput, MissingField } from './match-types';
import { NUMERIC_STRING } from '../validation/validate';

export interface Applicant {
  readonly formType: FormType;
  readonly loanAmount: number;
  /** `NaN` when not known (`termKnown` false): each product is then assessed over an assumed term. */
  readonly termYears: number;
  readonly purposeBit: number;
  /** Every bit when the employment type is not known, so that no product is ruled out on it. */
  readonly employmentBit: number;
  readonly monthsInJob: number;
  /** `NaN` when not known (`incomeKnown` false). */
  readonly grossMonthlyIncome: number;
  readonly otherIncome: number;
  /** `-1` when not known (`livingKnown` false). */
  readonly livingIndex: number;
  /** What the application does not tell (a Variant B application may be thin); all true when complete. */
  readonly termKnown: boolean;
  readonly employmentKnown: boolean;
  readonly incomeKnown: boolean;
  readonly livingKnown: boolean;
  /** Car: the vehicle's price is known (true for other loan types). */
  readonly vehicleKnown: boolean;
  /** All known: every rule can be assessed on the application's data. */
  readonly complete: boolean;
  readonly monthlyRent: number;
  readonly dependants: number;
  /** Car: the sale type's bit (a new car: dealer), 0 when not known (car not found yet, a refinance). */
  readonly saleTypeBit: number;
  /** Car: the vehicle's age in years, `NaN` when not known or a new car. */
  readonly vehicleAge: number;
  readonly balloonPercent: number;
  /**
   * Car: what the vehicle calls for, the amount its loan-to-value ratio is measured against: the price
   * less the deposit and the trade-in, plus any payout owed on the trade-in. `NaN` when the price is not known.
   */
  readonly vehicleValue: number;
  /** Car: the deposit and trade-in less its payout, which the vehicle's price is reduced by (0 otherwise). */
  readonly vehicleContribution: number;
  /** Home. */
  readonly occupancyIndex: number;
  readonly firstHomeBuyer: boolean;
  readonly repaymentTypeBit: number;
  readonly interestOnly: boolean;
  readonly propertyValue: number;
}

/** How many bands below the applicant's own estimate matching prices when the bureau was unavailable. */
export const SELF_ESTIMATE_BANDS_DOWN = 1;
/** The band assumed when the bureau was unavailable and the applicant gave no usable estimate. */
export const UNKNOWN_ESTIMATE_BAND: ScoreBand = 'below_average';

/** Stored step data holds numbers; a numeric string (the form partners may send) is read the same way. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && NUMERIC_STRING.test(value)) return Number(value);
  return undefined;
}

/** Car step 1 allows long aliases of its purposes. */
const CAR_PURPOSE_ALIASES: Readonly<Record<string, string>> = {
  NewCarPurchase: 'new',
  UsedCarPurchase: 'used',
  RefinanceCarLoan: 'refinance',
};

export function assessCredit(input: MatchInput): CreditAssessment {
  if (input.credit.band !== null) return { basis: 'bureau', band: input.credit.band };
  const given = input.creditScoreEstimate ?? input.steps[2]?.creditScoreEstimate;
  const rank = typeof given === 'string' ? BANDS_BEST_FIRST.indexOf(given as ScoreBand) : -1;
  if (rank < 0) {
    return {
      basis: 'self_estimate',
      band: UNKNOWN_ESTIMATE_BAND,
      estimate: 'unknown',
      notice:
        'The credit bureau could not be reached and no credit estimate was given, so these results are assessed cautiously, as for a weak credit history. ' +
        'Lenders will confirm with their own credit check.',
    };
  }
  const band = BANDS_BEST_FIRST[Math.min(rank + SELF_ESTIMATE_BANDS_DOWN, BANDS_BEST_FIRST.length - 1)];
  return {
    basis: 'self_estimate',
    band,
    estimate: given as string,
    // The estimate is echoed as the partner sent it; the band assessed is never named.
    notice:
      `The credit bureau could not be reached, so these results use the applicant's own credit estimate (${String(given)}), ` +
      'assessed cautiously one step lower. Lenders will confirm with their own credit check.',
  };
}

/** Where each loan type keeps what matching reads: [step, field]. */
const FIELDS: Record<
  FormType,
  Record<'loanAmount' | 'loanTerm' | 'purpose' | 'employment' | 'living', [1 | 2 | 3 | 4, string]>
> = {
  personal: {
    loanAmount: [1, 'loanAmount'],
    loanTerm: [2, 'loanTerm'],
    purpose: [2, 'loanPurpose'],
    employment: [3, ''],
    living: [4, ''],
  },
  car: {
    loanAmount: [2, 'loanAmount'],
    loanTerm: [2, 'loanTerm'],
    purpose: [1, 'carLoanPurpose'],
    employment: [3, ''],
    living: [4, ''],
  },
  home: {
    loanAmount: [3, 'loanAmount'],
    loanTerm: [3, 'loanTerm'],
    purpose: [1, 'loanPurpose'],
    employment: [4, ''],
    living: [4, ''],
  },
};

/** The applicant as matching sees it, or the fields it needs that are missing or unreadable. */
export function readApplicant(
  input: MatchInput,
): { ok: true; applicant: Applicant } | { ok: false; missing: MissingField[] } {
  const missing: MissingField[] = [];
  const stepOf = (step: 1 | 2 | 3 | 4): Readonly<Record<string, unknown>> => input.steps[step] ?? {};
  const need = <T>(step: 1 | 2 | 3 | 4, field: string, value: T | undefined): T => {
    if (value === undefined) missing.push({ step, field });
    return value as T;
  };
  const optional = (step: 1 | 2 | 3 | 4, field: string) => numberOf(stepOf(step)[field]) ?? 0;
  /** The bit of a value within its list of allowed values (`0` marks it missing). */
  const bitOf = (
    step: 1 | 2 | 3 | 4,
    field: string,
    universe: readonly string[],
    aliases: Readonly<Record<string, string>> = {},
  ) => {
    const raw = stepOf(step)[field];
    const index = typeof raw === 'string' ? universe.indexOf(aliases[raw] ?? raw) : -1;
    return need(step, field, index < 0 ? undefined : index);
  };

  const { formType } = input;
  const f = FIELDS[formType];
  const positiveValue = (step: 1 | 2 | 3 | 4, field: string) => {
    const value = numberOf(stepOf(step)[field]);
    return value !== undefined && value > 0 ? value : undefined;
  };
  const positive = (step: 1 | 2 | 3 | 4, field: string) => need(step, field, positiveValue(step, field));
  /** Index of a value within its list of allowed values; -1 when not given (or not readable). */
  const indexOf = (step: 1 | 2 | 3 | 4, field: string, universe: readonly string[]) => {
    const raw = stepOf(step)[field];
    return typeof raw === 'string' ? universe.indexOf(raw) : -1;
  };
  const loanAmount = positive(f.loanAmount[0], f.loanAmount[1]);
  const purpose = bitOf(
    f.purpose[0],
    f.purpose[1],
    PURPOSES_BY_TYPE[formType],
    formType === 'car' ? CAR_PURPOSE_ALIASES : {},
  );
  // The term, employment, income and living situation may be unknown: the offers are then indicative.
  const termYears = positiveValue(f.loanTerm[0], f.loanTerm[1]) ?? Number.NaN;
  const work = f.employment[0];
  const employment = indexOf(work, 'employmentType', EMPLOYMENT_TYPES);
  const grossMonthlyIncome = numberOf(stepOf(work).grossMonthlyIncome) ?? Number.NaN;
  const monthsInJob = Math.floor(optional(work, 'employmentYears') * 12 + 1e-9) + optional(work, 'employmentMonths');
  const living = f.living[0];
  const livingIndex = indexOf(living, 'livingSituation', LIVING_SITUATIONS);
  const termKnown = !Number.isNaN(termYears);
  const employmentKnown = employment >= 0;
  const incomeKnown = !Number.isNaN(grossMonthlyIncome);
  const livingKnown = livingIndex >= 0;

  let saleTypeBit = 0;
  let vehicleAge = Number.NaN;
  let balloonPercent = 0;
  let vehicleValue = Number.NaN;
  let vehicleContribution = 0;
  if (formType === 'car') {
    balloonPercent = optional(2, 'balloonPaymentPercent');
    vehicleContribution = optional(2, 'depositAmount') + optional(2, 'tradeInValue') - optional(2, 'tradeInPayout');
    const price = numberOf(stepOf(1).estimatedCarPrice);
    if (price !== undefined) vehicleValue = price - vehicleContribution;
    // A new car has no age to assess and is sold by a dealer; a used or refinanced car is assessed on
    // its year when known, a used car on its sale type when known.
    const carPurpose = CAR_PURPOSES[purpose];
    if (carPurpose !== 'new') {
      const year = numberOf(stepOf(1).vehicleYear);
      if (year !== undefined) vehicleAge = Math.max(0, input.referenceYear - year);
    }
    const sale =
      carPurpose === 'new'
        ? SALE_TYPES.indexOf('dealer')
        : carPurpose === 'used'
          ? SALE_TYPES.indexOf(stepOf(1).usedCarSaleType as 'dealer')
          : -1;
    if (sale >= 0) saleTypeBit = 1 << sale;
  }

  let occupancyIndex = 0;
  let firstHomeBuyer = false;
  let repaymentTypeBit = 0;
  let propertyValue = 0;
  if (formType === 'home') {
    occupancyIndex = bitOf(1, 'occupancyType', OCCUPANCY_TYPES);
    firstHomeBuyer = stepOf(1).isFirstHomeBuyer === 'yes';
    repaymentTypeBit = 1 << bitOf(3, 'repaymentType', REPAYMENT_TYPES);
    propertyValue = positive(2, 'propertyValue');
  }

  if (missing.length > 0) return { ok: false, missing };
  const vehicleKnown = formType !== 'car' || !Number.isNaN(vehicleValue);
  return {
    ok: true,
    applicant: {
      formType,
      loanAmount,
      termYears,
      purposeBit: 1 << purpose,
      employmentBit: employmentKnown ? 1 << employment : -1,
      monthsInJob,
      grossMonthlyIncome,
      otherIncome: optional(work, 'otherIncome'),
      livingIndex,
      termKnown,
      employmentKnown,
      incomeKnown,
      livingKnown,
      vehicleKnown,
      complete: termKnown && employmentKnown && incomeKnown && livingKnown && vehicleKnown,
      monthlyRent: optional(living, 'monthlyRent'),
      dependants: optional(living, 'dependents'),
      saleTypeBit,
      vehicleAge,
      balloonPercent,
      vehicleValue,
      vehicleContribution,
      occupancyIndex,
      firstHomeBuyer,
      repaymentTypeBit,
      interestOnly: repaymentTypeBit === 1 << REPAYMENT_TYPES.indexOf('interest_only'),
      propertyValue,
    },
  };
}
