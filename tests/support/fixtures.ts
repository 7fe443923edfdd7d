/** Valid data for every loan type and step, for tests to start from and change one thing at a time. */
export const VALID_STEPS = {
  personal: {
    1: { loanAmount: 15000 },
    2: { loanPurpose: 'debt_consolidation', loanTerm: 5, creditScoreEstimate: 'good' },
    3: {
      employmentType: 'full_time',
      employerName: 'Acme Pty Ltd',
      employmentYears: 4,
      employmentMonths: 2,
      grossMonthlyIncome: 8000,
    },
    4: { livingSituation: 'renting', monthlyRent: 1800, residentialYears: 3, dependents: 1 },
  },
  car: {
    1: {
      carLoanPurpose: 'used',
      hasFoundCar: 'yes',
      estimatedCarPrice: 25000,
      vehicleYear: 2020,
      usedCarSaleType: 'dealer',
    },
    2: { loanAmount: 22000, loanTerm: 5, depositAmount: 3000, balloonPaymentPercent: 10 },
    3: { employmentType: 'full_time', employmentYears: 6, grossMonthlyIncome: 7500 },
    4: { livingSituation: 'own_mortgage', dependents: 2 },
  },
  home: {
    1: { occupancyType: 'owner_occupied', loanPurpose: 'new_property', isFirstHomeBuyer: 'yes' },
    2: { propertyValue: 750000, propertyAddress: '1 Example St, Sydney NSW 2000', propertyType: 'house' },
    3: { loanAmount: 600000, loanTerm: 30, repaymentType: 'principal_and_interest', settlementTimeframe: '30_60_days' },
    4: { employmentType: 'full_time', livingSituation: 'renting', employmentYears: 5, grossMonthlyIncome: 14000 },
  },
} as const;

export type LoanType = keyof typeof VALID_STEPS;
export const LOAN_TYPES: LoanType[] = ['personal', 'car', 'home'];

export function validApplicant(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: 'Jordan',
    lastName: 'Citizen',
    email: 'jordan.citizen@example.com',
    mobileNumber: '0412345678',
    dateOfBirth: '1988-07-14',
    consentCreditCheck: true,
    ...overrides,
  };
}

/** A valid flat create body of Variant B. */
export function flatApplication(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    formType: 'personal',
    loanAmount: 15000,
    loanPurpose: 'debt_consolidation',
    firstName: 'Jordan',
    lastName: 'Citizen',
    email: 'jordan.citizen@example.com',
    phone: '0412345678',
    consentCreditCheck: true,
    ...overrides,
  };
}

/** Variant B's create with every step known: the documented create's fields and, flat, personal steps 2-4 and more of step 5. */
export function richFlatApplication(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...flatApplication(),
    ...VALID_STEPS.personal[2],
    ...VALID_STEPS.personal[3],
    ...VALID_STEPS.personal[4],
    dateOfBirth: '1988-07-14',
    suburb: 'Newtown',
    state: 'NSW',
    postcode: '2042',
    ...overrides,
  };
}
