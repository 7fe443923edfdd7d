/**
 * A small catalogue with round numbers, so that the tests can work their expected figures by hand,
 * and builders of applications (the step data as stored, one baseline per loan type, overridden per
 * test). The real catalogue is tested in its own right in catalogue.test.ts.
 */
import {
  COMPARISON_RATE_BENCHMARKS,
  loadCatalogue,
  type Catalogue,
  type CatalogueFile,
  type MatchInput,
  type ScoreBand,
} from '../../src/matching';
import { STANDARD_NEAR_MISS } from '../../../../tools/catalogue-generator/src';

type Data = Record<string, unknown>;

export const REFERENCE_YEAR = 2025;

/** Serviceability policy of the test catalogue: 75% of income after tax, half of other income counted. */
export const TEST_POLICY = {
  bufferPercentPoints: 3,
  netIncomePercent: 75,
  otherIncomePercent: 50,
  livingCosts: { base: 1500, perDependant: 500 },
  housingCostFloor: {
    renting: 1000,
    own_outright: 0,
    own_mortgage: 1500,
    living_with_parents: 0,
    boarding: 500,
    other: 500,
  },
} as const;

const MAIN_EMPLOYMENT = ['full_time', 'part_time'] as const;

export const TEST_CATALOGUE_FILE: CatalogueFile = {
  version: 1,
  effectiveFrom: '2025-07-01',
  nearMiss: STANDARD_NEAR_MISS,
  comparisonRateBenchmarks: COMPARISON_RATE_BENCHMARKS,
  serviceabilityPolicies: { test: TEST_POLICY },
  // Round premiums, to work LMI figures by hand: 1% of the loan above 80% up to 85% LVR (loans to $500,000), and so on.
  lmiTables: {
    test: {
      loanAmountUpTo: [500000, 2000000],
      rows: [
        { lvrAbovePercent: 80, lvrUpToPercent: 85, premiumPercent: [1, 1.5] },
        { lvrAbovePercent: 85, lvrUpToPercent: 90, premiumPercent: [2, 2.5] },
        { lvrAbovePercent: 90, lvrUpToPercent: 95, premiumPercent: [3, 3.5] },
      ],
    },
  },
  lenders: [
    { id: 'test-bank', name: 'Test Bank', url: 'https://test-bank.example/apply' },
    { id: 'test-motors', name: 'Test Motors', url: 'https://test-motors.example/apply' },
    { id: 'test-finance', name: 'Test Finance', url: 'https://test-finance.example/apply' },
  ],
  products: [
    {
      id: 'test-personal',
      lenderId: 'test-bank',
      name: 'Personal Loan',
      loanType: 'personal',
      purposes: [
        'debt_consolidation',
        'home_improvement',
        'car_purchase',
        'medical_expenses',
        'holiday',
        'wedding',
        'education',
        'other',
      ],
      loanAmount: { min: 5000, max: 50000 },
      loanTermYears: { min: 1, max: 7 },
      minimumBand: 'average',
      minimumMonthlyIncome: 3000,
      employment: { types: [...MAIN_EMPLOYMENT], minimumMonthsInJob: 6 },
      serviceability: 'test',
      fees: { establishment: 250, monthly: 10 },
      rates: { excellent: 10, very_good: 11, good: 12, average: 14, below_average: 'decline', poor: 'decline' },
    },
    {
      id: 'test-costly',
      lenderId: 'test-finance',
      name: 'Small Loan',
      loanType: 'personal',
      purposes: ['debt_consolidation', 'medical_expenses', 'other'],
      loanAmount: { min: 2000, max: 5000 },
      loanTermYears: { min: 1, max: 2 },
      minimumBand: 'poor',
      minimumMonthlyIncome: 1000,
      employment: { types: ['full_time', 'part_time', 'casual', 'centrelink'], minimumMonthsInJob: 0 },
      serviceability: 'test',
      fees: { establishment: 400, monthly: 20 },
      rates: { excellent: 20, very_good: 22, good: 24, average: 26, below_average: 30, poor: 45 },
    },
    {
      id: 'test-car',
      lenderId: 'test-motors',
      name: 'Car Loan',
      loanType: 'car',
      purposes: ['new', 'used'],
      loanAmount: { min: 5000, max: 100000 },
      loanTermYears: { min: 1, max: 7 },
      minimumBand: 'good',
      minimumMonthlyIncome: 2500,
      employment: { types: [...MAIN_EMPLOYMENT], minimumMonthsInJob: 0 },
      serviceability: 'test',
      fees: { establishment: 0, monthly: 0 },
      car: {
        saleTypes: ['dealer', 'private'],
        maxVehicleAgeYears: 10,
        balloon: { maxPercent: 30, maxTermYears: 5 },
        maxLvrPercent: 120,
      },
      rates: { excellent: 8, very_good: 9, good: 10, average: 'decline', below_average: 'decline', poor: 'decline' },
    },
    {
      id: 'test-home-80',
      lenderId: 'test-bank',
      name: 'Basic Home Loan',
      loanType: 'home',
      purposes: ['new_property', 'refinance'],
      loanAmount: { min: 100000, max: 2000000 },
      loanTermYears: { min: 10, max: 30 },
      minimumBand: 'good',
      minimumMonthlyIncome: 4000,
      employment: { types: [...MAIN_EMPLOYMENT], minimumMonthsInJob: 0 },
      serviceability: 'test',
      fees: { establishment: 0, monthly: 0 },
      home: {
        occupancy: { owner_occupied: { maxLvrPercent: 80 } },
        lmiAboveLvrPercent: 80,
        firstHomeBuyerOnly: false,
        repaymentTypes: ['principal_and_interest'],
      },
      rates: { excellent: 6, very_good: 6.2, good: 6.5, average: 'decline', below_average: 'decline', poor: 'decline' },
    },
    {
      id: 'test-home-95',
      lenderId: 'test-bank',
      name: 'Home Loan',
      loanType: 'home',
      purposes: ['new_property', 'refinance', 'construction'],
      loanAmount: { min: 100000, max: 2000000 },
      loanTermYears: { min: 10, max: 30 },
      minimumBand: 'good',
      minimumMonthlyIncome: 4000,
      employment: { types: [...MAIN_EMPLOYMENT], minimumMonthsInJob: 0 },
      serviceability: 'test',
      fees: { establishment: 600, monthly: 10 },
      home: {
        occupancy: {
          owner_occupied: { maxLvrPercent: 95 },
          investment: { maxLvrPercent: 90, rateLoadingPercentPoints: 0.5 },
        },
        lmiAboveLvrPercent: 80,
        lmi: { table: 'test', capitalised: true },
        firstHomeBuyerOnly: false,
        repaymentTypes: ['principal_and_interest', 'interest_only'],
        interestOnly: { maxYears: 5, rateLoadingPercentPoints: 0.61 },
      },
      rates: {
        excellent: 5.89,
        very_good: 6.09,
        good: 6.39,
        average: 'decline',
        below_average: 'decline',
        poor: 'decline',
      },
    },
  ],
};

export function testCatalogue(file: CatalogueFile = TEST_CATALOGUE_FILE): Catalogue {
  const loaded = loadCatalogue(file);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

/** The test catalogue with one product changed: `change` edits a deep copy of it in place. */
export function catalogueWith(id: string, change: (product: Record<string, any>) => void): Catalogue {
  const file = structuredClone(TEST_CATALOGUE_FILE) as unknown as { products: Record<string, any>[] };
  change(file.products.find((p) => p.id === id)!);
  return testCatalogue(file as unknown as CatalogueFile);
}

type Steps = { 1: Data; 2: Data; 3: Data; 4: Data };

export const PERSONAL: Steps = {
  1: { loanAmount: 30000 },
  2: { loanPurpose: 'debt_consolidation', loanTerm: 5 },
  3: { employmentType: 'full_time', grossMonthlyIncome: 8000, employmentYears: 3, otherIncome: 0 },
  4: { livingSituation: 'renting', monthlyRent: 1500, dependents: 0 },
};

export const CAR: Steps = {
  1: {
    carLoanPurpose: 'used',
    hasFoundCar: 'yes',
    estimatedCarPrice: 45000,
    vehicleYear: 2019,
    usedCarSaleType: 'dealer',
  },
  2: { loanAmount: 40000, loanTerm: 5, balloonPaymentPercent: 30 },
  3: { employmentType: 'full_time', grossMonthlyIncome: 9000, employmentYears: 4, otherIncome: 0 },
  4: { livingSituation: 'renting', monthlyRent: 1500, dependents: 0 },
};

export const HOME: Steps = {
  1: { occupancyType: 'owner_occupied', loanPurpose: 'new_property', isFirstHomeBuyer: 'no' },
  2: { propertyValue: 800000, propertyAddress: '1 Example St, Sydney NSW 2000', propertyType: 'house' },
  3: {
    loanAmount: 600000,
    loanTerm: 30,
    repaymentType: 'principal_and_interest',
    settlementTimeframe: 'within_30_days',
  },
  4: { employmentType: 'full_time', livingSituation: 'renting', grossMonthlyIncome: 20000, employmentYears: 5 },
};

const BASELINES = { personal: PERSONAL, car: CAR, home: HOME };

/** An application of one loan type: the baseline with some fields of some steps replaced. */
export function application(
  formType: 'personal' | 'car' | 'home',
  changes: Partial<Record<1 | 2 | 3 | 4, Data>> = {},
  band: ScoreBand | null = 'excellent',
  extra: Partial<Pick<MatchInput, 'creditScoreEstimate'>> = {},
): MatchInput {
  const base = BASELINES[formType];
  const steps = {
    1: { ...base[1], ...changes[1] },
    2: { ...base[2], ...changes[2] },
    3: { ...base[3], ...changes[3] },
    4: { ...base[4], ...changes[4] },
  };
  return { formType, steps, credit: { band, degradedMode: band === null }, referenceYear: REFERENCE_YEAR, ...extra };
}
