/**
 * Shared fixtures for the validation tests: a minimal valid document per step (the baseline that each
 * test mutates one field of) and small helpers. No bound of the spec is written here; tests read
 * bounds from the schemas.
 */
import { DomainError, type FieldViolation, type Result } from '../src/errors';
import { validateApplicantDetails, type FormType, type StepNumber } from '../src/validation';

export type Data = Record<string, unknown>;

/** A fixed "today" for step-5 tests: 15 June 2025, midday UTC. */
export const NOW = new Date('2025-06-15T12:00:00Z');

/**
 * Minimal valid data per loan type and step. Where a conditional rule could fire when one field is
 * changed (car step 1, home step 1), the baseline already carries the conditionally required fields,
 * so that a generated test changes exactly one thing. Car step 2 uses a 5-year term so any balloon
 * percentage in range is allowed.
 */
export const BASELINES: Record<FormType, Record<StepNumber, Data>> = {
  personal: {
    1: { loanAmount: 20000 },
    2: { loanPurpose: 'debt_consolidation', loanTerm: 5 },
    3: { employmentType: 'full_time', grossMonthlyIncome: 8000 },
    4: { livingSituation: 'renting' },
  },
  car: {
    1: {
      carLoanPurpose: 'used',
      hasFoundCar: 'yes',
      estimatedCarPrice: 25000,
      vehicleYear: 2018,
      usedCarSaleType: 'dealer',
    },
    2: { loanAmount: 25000, loanTerm: 5 },
    3: { employmentType: 'full_time', grossMonthlyIncome: 8000 },
    4: { livingSituation: 'renting' },
  },
  home: {
    1: { occupancyType: 'owner_occupied', loanPurpose: 'new_property', isFirstHomeBuyer: 'yes' },
    2: { propertyValue: 750000, propertyAddress: '1 Example St, Sydney NSW 2000', propertyType: 'house' },
    3: {
      loanAmount: 600000,
      loanTerm: 30,
      repaymentType: 'principal_and_interest',
      settlementTimeframe: 'within_30_days',
    },
    4: { employmentType: 'full_time', livingSituation: 'own_mortgage', grossMonthlyIncome: 12000 },
  },
};

/** Minimal valid step-5 data (applicant is 35 on NOW). */
export const APPLICANT_BASELINE: Data = {
  firstName: 'Jane',
  lastName: 'Citizen',
  email: 'jane@example.com',
  mobileNumber: '0412345678',
  dateOfBirth: '1990-05-17',
  consentCreditCheck: true,
};

/** Step 5 validated for the applicant baseline with `overrides` applied, measured against `now`. */
export const applicant = (overrides: Data, now: Date = NOW) =>
  validateApplicantDetails({ data: { ...APPLICANT_BASELINE, ...overrides } }, now);

export const clone = <T>(value: T): T => structuredClone(value);

/** A copy of `doc` with `value` at `path` (intermediate objects created); `undefined` removes the field. */
export function withField(doc: Data, path: readonly string[], value: unknown): Data {
  const copy = clone(doc);
  let target = copy;
  for (const segment of path.slice(0, -1)) {
    if (typeof target[segment] !== 'object' || target[segment] === null) target[segment] = {};
    target = target[segment] as Data;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

export function getField(doc: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, segment) => (node as Data | undefined)?.[segment], doc);
}

/** The value of an ok result; fails the test (showing the violations) otherwise. */
export function expectOk<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.message}: ${JSON.stringify(result.error.details)}`);
  return result.value;
}

/** The error of a failed result; fails the test otherwise. Also checks the common shape of every failure. */
export function expectError<T>(result: Result<T>): DomainError & { details: FieldViolation[] } {
  if (result.ok) throw new Error(`expected a validation error, got ok: ${JSON.stringify(result.value)}`);
  const { error } = result;
  expect(error).toBeInstanceOf(DomainError);
  expect(error.code).toBe('VALIDATION_ERROR');
  expect(error.details?.length).toBeGreaterThan(0);
  expect(error.message).toBe(error.details?.[0].message);
  return error as DomainError & { details: FieldViolation[] };
}

/** The first (reported) violation of a failed result. */
export const firstViolation = <T>(result: Result<T>): FieldViolation => expectError(result).details[0];
