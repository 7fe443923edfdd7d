/** The value lists of the client's types against the service's own lists, and each SandboxScore word against the sandbox. */
import {
  FORM_TYPES,
  WEBHOOK_EVENT_TYPES,
  applicantSchema,
  parseSandboxScore,
  schemaFor,
  type JsonSchema,
  DECLINE_REASONS,
  OUTCOME_TYPES,
} from '@loanmatch/domain';
import type {
  AddressComponents,
  ApplicantDetails,
  CarLoanPurpose,
  CarStep1,
  CreditScoreEstimate,
  EmploymentType,
  FormType,
  HomeLoanPurpose,
  HomeStep1,
  LivingSituation,
  PersonalLoanPurpose,
  PropertyType,
  RepaymentType,
  SandboxScore,
  SettlementTimeframe,
  WebhookEventType,
  DeclineReason,
  OutcomeStatus,
} from '../src';
import { valuesOf } from './type-helpers';

/** Each value list of the SDK types beside the schema that holds the service's list. */
const VALUE_LISTS: [string, string[], JsonSchema | undefined][] = [
  ['FormType', valuesOf<FormType>({ personal: true, car: true, home: true }), { enum: FORM_TYPES }],
  [
    'PersonalLoanPurpose',
    valuesOf<PersonalLoanPurpose>({
      debt_consolidation: true,
      home_improvement: true,
      car_purchase: true,
      medical_expenses: true,
      holiday: true,
      wedding: true,
      education: true,
      business: true,
      other: true,
    }),
    schemaFor('personal', 2).properties.loanPurpose,
  ],
  [
    'CreditScoreEstimate',
    valuesOf<CreditScoreEstimate>({
      excellent: true,
      good: true,
      average: true,
      below_average: true,
      poor: true,
      unknown: true,
    }),
    schemaFor('personal', 2).properties.creditScoreEstimate,
  ],
  [
    'EmploymentType',
    valuesOf<EmploymentType>({
      full_time: true,
      part_time: true,
      casual: true,
      contract: true,
      contractor: true,
      self_employed: true,
      unemployed: true,
      retired: true,
      student: true,
      centrelink: true,
    }),
    schemaFor('personal', 3).properties.employmentType,
  ],
  [
    'LivingSituation',
    valuesOf<LivingSituation>({
      renting: true,
      own_outright: true,
      own_mortgage: true,
      living_with_parents: true,
      boarding: true,
      other: true,
    }),
    schemaFor('personal', 4).properties.livingSituation,
  ],
  [
    'AustralianState',
    valuesOf<NonNullable<AddressComponents['state']>>({
      NSW: true,
      VIC: true,
      QLD: true,
      WA: true,
      SA: true,
      TAS: true,
      ACT: true,
      NT: true,
    }),
    applicantSchema.properties.state,
  ],
  [
    'CarLoanPurpose',
    valuesOf<CarLoanPurpose>({
      new: true,
      used: true,
      refinance: true,
      NewCarPurchase: true,
      UsedCarPurchase: true,
      RefinanceCarLoan: true,
    }),
    schemaFor('car', 1).properties.carLoanPurpose,
  ],
  [
    'hasFoundCar',
    valuesOf<NonNullable<CarStep1['hasFoundCar']>>({ yes: true, no: true }),
    schemaFor('car', 1).properties.hasFoundCar,
  ],
  [
    'UsedCarSaleType',
    valuesOf<NonNullable<CarStep1['usedCarSaleType']>>({ private: true, dealer: true }),
    schemaFor('car', 1).properties.usedCarSaleType,
  ],
  [
    'OccupancyType',
    valuesOf<HomeStep1['occupancyType']>({ owner_occupied: true, investment: true }),
    schemaFor('home', 1).properties.occupancyType,
  ],
  [
    'HomeLoanPurpose',
    valuesOf<HomeLoanPurpose>({ new_property: true, refinance: true, construction: true, equity_release: true }),
    schemaFor('home', 1).properties.loanPurpose,
  ],
  [
    'isFirstHomeBuyer',
    valuesOf<NonNullable<HomeStep1['isFirstHomeBuyer']>>({ yes: true, no: true }),
    schemaFor('home', 1).properties.isFirstHomeBuyer,
  ],
  [
    'PropertyType',
    valuesOf<PropertyType>({
      house: true,
      apartment: true,
      townhouse: true,
      land: true,
      unit: true,
      villa: true,
      other: true,
    }),
    schemaFor('home', 2).properties.propertyType,
  ],
  [
    'RepaymentType',
    valuesOf<RepaymentType>({ principal_and_interest: true, interest_only: true }),
    schemaFor('home', 3).properties.repaymentType,
  ],
  [
    'SettlementTimeframe',
    valuesOf<SettlementTimeframe>({
      within_30_days: true,
      '30_60_days': true,
      '60_90_days': true,
      '90_plus_days': true,
    }),
    schemaFor('home', 3).properties.settlementTimeframe,
  ],
  [
    'gender',
    valuesOf<NonNullable<ApplicantDetails['gender']>>({
      male: true,
      female: true,
      other: true,
      prefer_not_to_say: true,
    }),
    applicantSchema.properties.gender,
  ],
  [
    'maritalStatus',
    valuesOf<NonNullable<ApplicantDetails['maritalStatus']>>({
      single: true,
      married: true,
      de_facto: true,
      divorced: true,
      separated: true,
      widowed: true,
    }),
    applicantSchema.properties.maritalStatus,
  ],
  [
    'OutcomeStatus',
    valuesOf<OutcomeStatus>({
      application_started: true,
      approved: true,
      declined: true,
      funded: true,
      withdrawn: true,
      cancelled: true,
    }),
    { enum: OUTCOME_TYPES },
  ],
  [
    'DeclineReason',
    valuesOf<DeclineReason>({
      credit_history: true,
      affordability: true,
      employment: true,
      identity: true,
      policy: true,
      other: true,
    }),
    { enum: DECLINE_REASONS },
  ],
  [
    'WebhookEventType',
    valuesOf<WebhookEventType>({ 'application.status_changed': true, 'referral.outcome_changed': true }),
    { enum: WEBHOOK_EVENT_TYPES },
  ],
];

describe("request types against the service's schemas", () => {
  it.each(VALUE_LISTS)("when the values of %s are compared, then they are the schema's", (_name, values, schema) => {
    expect(values).toEqual([...(schema?.enum ?? [])].map(String).sort());
  });

  it('when each word of SandboxScore is sent, then the sandbox accepts it', () => {
    const words = valuesOf<Extract<SandboxScore, string>>({
      excellent: true,
      very_good: true,
      good: true,
      average: true,
      below_average: true,
      poor: true,
      unavailable: true,
    });
    for (const word of [...words, '0', '1200']) expect([word, parseSandboxScore(word).ok]).toEqual([word, true]);
  });
});
