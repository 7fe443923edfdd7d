/** What matching reads from an application: its step data as the values the rules compare, and the band to price at. */
import type { ScoreBand } from '../credit/bureau';
import { NUMERIC_STRING } from '../validation/validate';
import type { CreditAssessment, MatchInput, MissingField } from './match-types';
import {
  EMPLOYMENT_TYPES,
  HOME_LOAN_PURPOSES,
  LIVING_SITUATIONS,
  OCCUPANCY_TYPES,
  PERSONAL_LOAN_PURPOSES,
  REPAYMENT_TYPES,
  USED_CAR_SALE_TYPES,
  type FormType,
} from '../validation/schemas';
import { BANDS_BEST_FIRST, CAR_PURPOSES } from './catalogue-schema';

/** How many bands below the applicant's own estimate matching prices when the bureau was unavailable. */
const SELF_ESTIMATE_BANDS_DOWN = 1;
/** The band assumed when the bureau was unavailable and the applicant gave no usable estimate. */
const UNKNOWN_ESTIMATE_BAND: ScoreBand = 'below_average';

/** Stored step data holds numbers; a numeric string (the form partners may send) is read the same way. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && NUMERIC_STRING.test(value)) return Number(value);
  return undefined;
}

/** Car step 1 allows long aliases of its purposes. */
const CAR_PURPOSE_ALIASES: Aliases = { NewCarPurchase: 'new', UsedCarPurchase: 'used', RefinanceCarLoan: 'refinance' };
type Aliases = Readonly<Record<string, string>>;

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

type Step = 1 | 2 | 3 | 4;
type Where = { amount: Step; term: Step; work: Step; living: Step; purpose: [Step, string, readonly string[]] };

/** Where each loan type keeps what matching reads: the steps of the amount, term, work and living, and its purpose. */
const WHERE: Record<FormType, Where> = {
  personal: { amount: 1, term: 2, work: 3, living: 4, purpose: [2, 'loanPurpose', PERSONAL_LOAN_PURPOSES] },
  car: { amount: 2, term: 2, work: 3, living: 4, purpose: [1, 'carLoanPurpose', CAR_PURPOSES] },
  home: { amount: 3, term: 3, work: 4, living: 4, purpose: [1, 'loanPurpose', HOME_LOAN_PURPOSES] },
};

/** The applicant as matching sees it, or the fields it needs that are missing or unreadable. */
export function readApplicant(input: MatchInput) {
  const missing: MissingField[] = [];
  const stepOf = (step: Step): Readonly<Record<string, unknown>> => input.steps[step] ?? {};
  const numberAt = (step: Step, field: string) => numberOf(stepOf(step)[field]);
  const optional = (step: Step, field: string) => numberAt(step, field) ?? 0;
  const positive = (step: Step, field: string) => {
    const value = numberAt(step, field);
    return value !== undefined && value > 0 ? value : undefined;
  };
  /** One of `values` (read through `aliases`), or undefined. */
  const oneOf = <T extends string>(step: Step, field: string, values: readonly T[], aliases: Aliases = {}) => {
    const raw = stepOf(step)[field];
    return typeof raw === 'string' ? values.find((v) => v === (aliases[raw] ?? raw)) : undefined;
  };
  const need = <T>(step: Step, field: string, value: T | undefined): T => {
    if (value === undefined) missing.push({ step, field });
    return value as T;
  };

  const { formType } = input;
  const f = WHERE[formType];
  const loanAmount = need(f.amount, 'loanAmount', positive(f.amount, 'loanAmount'));
  const [purposeStep, purposeField, purposes] = f.purpose;
  const aliases = formType === 'car' ? CAR_PURPOSE_ALIASES : {};
  const purpose = need(purposeStep, purposeField, oneOf(purposeStep, purposeField, purposes, aliases));
  // The term, employment, income and living situation may be unknown: the offers are then indicative.
  const termYears = positive(f.term, 'loanTerm') ?? Number.NaN;
  const employmentType = oneOf(f.work, 'employmentType', EMPLOYMENT_TYPES);
  const grossMonthlyIncome = numberAt(f.work, 'grossMonthlyIncome') ?? Number.NaN;
  const livingSituation = oneOf(f.living, 'livingSituation', LIVING_SITUATIONS);

  let saleType: (typeof USED_CAR_SALE_TYPES)[number] | undefined;
  let vehicleAge = Number.NaN;
  let vehicleValue = Number.NaN;
  let vehicleContribution = 0;
  if (formType === 'car') {
    vehicleContribution = optional(2, 'depositAmount') + optional(2, 'tradeInValue') - optional(2, 'tradeInPayout');
    const price = numberAt(1, 'estimatedCarPrice');
    if (price !== undefined) vehicleValue = price - vehicleContribution;
    // A new car has no age to assess and is sold by a dealer; a used or refinanced car is assessed on
    // its year when known, a used car on its sale type when known.
    const year = numberAt(1, 'vehicleYear');
    if (purpose !== 'new' && year !== undefined) vehicleAge = Math.max(0, input.referenceYear - year);
    const sold = stepOf(1).usedCarSaleType;
    saleType =
      purpose === 'new' ? 'dealer' : purpose === 'used' ? USED_CAR_SALE_TYPES.find((s) => s === sold) : undefined;
  }

  const home = formType === 'home';
  const occupancy = home ? need(1, 'occupancyType', oneOf(1, 'occupancyType', OCCUPANCY_TYPES)) : 'owner_occupied';
  const repaymentType = home
    ? need(3, 'repaymentType', oneOf(3, 'repaymentType', REPAYMENT_TYPES))
    : 'principal_and_interest';
  const propertyValue = home ? need(2, 'propertyValue', positive(2, 'propertyValue')) : 0;

  if (missing.length > 0) return missing;
  // What the application does not tell (a Variant B application may be thin) is `NaN` or undefined; the
  // vehicle's value is its price less the deposit and trade-in, plus any trade-in payout.
  const termKnown = !Number.isNaN(termYears);
  const incomeKnown = !Number.isNaN(grossMonthlyIncome);
  const vehicleKnown = formType !== 'car' || !Number.isNaN(vehicleValue);
  return {
    formType,
    loanAmount,
    termYears,
    purpose,
    employmentType,
    monthsInJob: Math.floor(optional(f.work, 'employmentYears') * 12 + 1e-9) + optional(f.work, 'employmentMonths'),
    grossMonthlyIncome,
    otherIncome: optional(f.work, 'otherIncome'),
    livingSituation,
    monthlyRent: optional(f.living, 'monthlyRent'),
    dependants: optional(f.living, 'dependents'),
    termKnown,
    employmentKnown: employmentType !== undefined,
    /** The time in the job is told when either of its two fields is; when neither is, it is not assessed. */
    tenureKnown:
      numberAt(f.work, 'employmentYears') !== undefined || numberAt(f.work, 'employmentMonths') !== undefined,
    incomeKnown,
    livingKnown: livingSituation !== undefined,
    vehicleKnown,
    /** A used or refinanced car's age, and a used car's sale type, are assessed once told. */
    vehicleAgeKnown: formType !== 'car' || purpose === 'new' || !Number.isNaN(vehicleAge),
    saleTypeKnown: formType !== 'car' || purpose !== 'used' || saleType !== undefined,
    saleType,
    vehicleAge,
    balloonPercent: formType === 'car' ? optional(2, 'balloonPaymentPercent') : 0,
    vehicleValue,
    vehicleContribution,
    occupancy,
    firstHomeBuyer: home && stepOf(1).isFirstHomeBuyer === 'yes',
    repaymentType,
    interestOnly: repaymentType === 'interest_only',
    propertyValue,
  };
}

export type Applicant = Exclude<ReturnType<typeof readApplicant>, MissingField[]>;
