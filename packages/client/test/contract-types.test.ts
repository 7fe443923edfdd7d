/**
 * The client's hand-written types against the service's own definitions, so that neither drifts:
 * - request types: each field list, required list and value list is written here once, checked against
 *   the TypeScript type at compile time (`pnpm typecheck`: a missing or extra name fails) and against
 *   the service's JSON Schema at run time; full example payloads go through the service's validator;
 * - response types: the same field names as the service's view types, checked at compile time.
 */
import {
  CURRENT_CONSENT_TEXTS,
  FORM_TYPES,
  WEBHOOK_EVENT_TYPES,
  applicantSchema,
  createRequestSchema,
  parseSandboxScore,
  schemaFor,
  validateApplicantDetails,
  validateCreateRequest,
  validateStepRequest,
  validateVariantBCreate,
  validateVariantBPatch,
  validateWebhookRequest,
  variantBCreateSchema,
  variantBPatchSchema,
  type ApplicationStatus as DomainApplicationStatus,
  type ApplicationView,
  type AttemptView,
  type CreatedApplication as DomainCreatedApplication,
  type CreatedApplicationB as DomainCreatedApplicationB,
  type UpdatedApplicationB as DomainUpdatedApplicationB,
  type ConsentKind,
  type ConsentTextsView,
  type CreditCheckView,
  type JsonSchema,
  type MatchView,
  type OfferView,
  type ReferralView,
  type RegisteredWebhook as DomainRegisteredWebhook,
  type WebhookView,
  type matching,
  DECLINE_REASONS,
  OUTCOME_TYPES,
  outcomeEventSchema,
  validateOutcomeEvent,
  type OutcomeRecorded as DomainOutcomeRecorded,
  type ReferralReportRow as DomainReferralReportRow,
} from '@loanmatch/domain';
import type { AccessTokenGrant as DomainAccessTokenGrant, HttpErrorCode } from '@loanmatch/http';
import type {
  AccessTokenGrant,
  AddressComponents,
  Application,
  ApplicantDetails,
  ApplicationStatus,
  CarLoanPurpose,
  CarStep1,
  CarStep2,
  ConsentTexts,
  CreatedApplication,
  CreatedApplicationB,
  CreateApplicationRequest,
  CreditCheckDetailsB,
  FlatFields,
  UpdatedApplicationB,
  CreditCheckResult,
  CreditScoreEstimate,
  DeliveryAttempt,
  EmploymentStep,
  EmploymentType,
  FlatApplication,
  FormType,
  HomeLoanPurpose,
  HomeStep1,
  HomeStep2,
  HomeStep3,
  HomeStep4,
  LivingSituation,
  LivingStep,
  MatchResult,
  NearMissOffer,
  Offer,
  OfferDetails,
  PersonalLoanPurpose,
  PersonalStep1,
  PersonalStep2,
  PropertyType,
  Referral,
  RegisteredWebhook,
  RegisterWebhookRequest,
  RepaymentType,
  SandboxScore,
  SettlementTimeframe,
  StepFields,
  Webhook,
  WebhookEventType,
  KnownErrorCode,
  DeclineReason,
  OutcomeEvent,
  OutcomeRecorded,
  OutcomeStatus,
  ReferralReportRow,
} from '../src';

// Compile-time helpers --------------------------------------------------------------------------------

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
/** Keys without an index signature (the service's views extend `Record<string, unknown>`). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
type SameKeys<A, B> = Equal<KnownKeys<A>, KnownKeys<B>>;
// biome-ignore lint/complexity/noBannedTypes: `{} extends Pick<T, K>` is how a key is told optional.
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** Names listed once: a name `T` lacks, or one of `T`'s left out, fails the typecheck. */
const fieldsOf = <T>(names: Record<keyof T, true>) => Object.keys(names).sort();
const requiredOf = <T>(names: Record<RequiredKeys<T>, true>) => Object.keys(names).sort();
const valuesOf = <U extends string>(values: Record<U, true>) => Object.keys(values).sort();

// Request types ---------------------------------------------------------------------------------------

const ADDRESS: Required<AddressComponents> = {
  streetNumber: '1',
  streetName: 'Example',
  streetType: 'St',
  suburb: 'Sydney',
  state: 'NSW',
  postcode: '2000',
  country: 'Australia',
  unitNumber: '4',
};

/** Every field of every step, set: what a full payload of each SDK step type looks like. */
const FULL_STEPS: { [F in FormType]: { [S in 1 | 2 | 3 | 4]: Required<StepFields[F][S]> } } = {
  personal: {
    1: { loanAmount: 15000 },
    2: { loanPurpose: 'debt_consolidation', loanTerm: 5, creditScoreEstimate: 'good' },
    3: {
      employmentType: 'full_time',
      employerName: 'Acme',
      employmentYears: 4,
      employmentMonths: 2,
      grossMonthlyIncome: 8000,
      otherIncome: 500,
    },
    4: {
      livingSituation: 'renting',
      homeAddress: '1 Example St',
      homeAddressComponents: ADDRESS,
      monthlyRent: 1800,
      residentialYears: 3,
      residentialMonths: 1,
      dependents: 1,
    },
  },
  car: {
    1: {
      carLoanPurpose: 'used',
      hasFoundCar: 'yes',
      estimatedCarPrice: 25000,
      vehicleYear: 2020,
      usedCarSaleType: 'dealer',
    },
    2: {
      tradeInValue: 2000,
      tradeInPayout: 500,
      depositAmount: 3000,
      loanAmount: 22000,
      loanTerm: 5,
      balloonPaymentPercent: 10,
    },
    3: {
      employmentType: 'contract',
      employerName: 'Acme',
      employmentYears: 6,
      employmentMonths: 0,
      grossMonthlyIncome: 7500,
      otherIncome: 0,
    },
    4: {
      livingSituation: 'own_mortgage',
      homeAddress: '2 Example St',
      homeAddressComponents: ADDRESS,
      monthlyRent: 0,
      residentialYears: 10,
      residentialMonths: 0,
      dependents: 2,
    },
  },
  home: {
    1: { occupancyType: 'owner_occupied', loanPurpose: 'new_property', isFirstHomeBuyer: 'yes' },
    2: {
      propertyValue: 750000,
      propertyAddress: '1 Example St, Sydney NSW 2000',
      propertyAddressComponents: ADDRESS,
      propertyType: 'house',
    },
    3: { loanAmount: 600000, loanTerm: 30, repaymentType: 'principal_and_interest', settlementTimeframe: '30_60_days' },
    4: {
      employmentType: 'full_time',
      livingSituation: 'renting',
      homeAddress: '3 Example St',
      homeAddressComponents: ADDRESS,
      employmentYears: 5,
      employmentMonths: 3,
      grossMonthlyIncome: 14000,
    },
  },
};

/** The required fields of each SDK step type. */
const REQUIRED_STEP_FIELDS: { [F in FormType]: { [S in 1 | 2 | 3 | 4]: string[] } } = {
  personal: {
    1: requiredOf<PersonalStep1>({ loanAmount: true }),
    2: requiredOf<PersonalStep2>({ loanPurpose: true, loanTerm: true }),
    3: requiredOf<EmploymentStep>({ employmentType: true, grossMonthlyIncome: true }),
    4: requiredOf<LivingStep>({ livingSituation: true }),
  },
  car: {
    1: requiredOf<CarStep1>({ carLoanPurpose: true }),
    2: requiredOf<CarStep2>({ loanAmount: true, loanTerm: true }),
    3: requiredOf<EmploymentStep>({ employmentType: true, grossMonthlyIncome: true }),
    4: requiredOf<LivingStep>({ livingSituation: true }),
  },
  home: {
    1: requiredOf<HomeStep1>({ occupancyType: true, loanPurpose: true }),
    2: requiredOf<HomeStep2>({ propertyValue: true, propertyAddress: true, propertyType: true }),
    3: requiredOf<HomeStep3>({ loanAmount: true, loanTerm: true, repaymentType: true, settlementTimeframe: true }),
    4: requiredOf<HomeStep4>({ employmentType: true, livingSituation: true, grossMonthlyIncome: true }),
  },
};

const FULL_APPLICANT: Required<ApplicantDetails> = {
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'jordan@example.com',
  mobileNumber: '0412345678',
  dateOfBirth: '14/07/1988',
  gender: 'prefer_not_to_say',
  maritalStatus: 'de_facto',
  address: '1 Example St, Sydney NSW 2000',
  homeAddress: '1 Example St, Sydney NSW 2000',
  streetNumber: '1',
  streetName: 'Example',
  streetType: 'St',
  suburb: 'Sydney',
  state: 'NSW',
  postcode: '2000',
  unitNumber: '4',
  consentCreditCheck: true,
  creditCheckConsent: true,
  privacyConsent: true,
  consentMarketing: false,
  marketingConsent: false,
  consentTerms: true,
  termsConsent: true,
  consentTextVersion: CURRENT_CONSENT_TEXTS.version,
  consentCapturedAt: '2026-11-23T09:12:00.000Z',
  consentReference: 'consent-7f3a9c',
};

const { mobileNumber, ...APPLICANT_REST } = FULL_APPLICANT;
/** Every flat field of Variant B's create: spec 4.6's, and steps 2-5 under their table names (`phone` for `mobileNumber`). */
const FULL_FLAT: Required<FlatApplication> = {
  formType: 'personal',
  loanAmount: 15000,
  ...FULL_STEPS.personal[2],
  ...FULL_STEPS.personal[3],
  ...FULL_STEPS.personal[4],
  ...APPLICANT_REST,
  dateOfBirth: '1988-07-14',
  phone: mobileNumber,
  clientTags: { campaign: 'spring-2026', 'sub.id': 'A_17' },
};

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

const schemaFields = (schema: JsonSchema | undefined) => Object.keys(schema?.properties ?? {}).sort();

describe("request types against the service's schemas", () => {
  it.each(FORM_TYPES.flatMap((formType) => ([1, 2, 3, 4] as const).map((step) => [formType, step] as const)))(
    "when %s step %s is compared, then its fields and required fields are the schema's, and a full payload is valid",
    (formType, step) => {
      const schema = schemaFor(formType, step);
      expect(Object.keys(FULL_STEPS[formType][step]).sort()).toEqual(schemaFields(schema));
      expect(REQUIRED_STEP_FIELDS[formType][step]).toEqual([...(schema.required ?? [])].sort());
      const data = FULL_STEPS[formType][step];
      const result =
        step === 1 ? validateCreateRequest({ formType, data }) : validateStepRequest(formType, { step, data });
      expect(result).toMatchObject({ ok: true });
    },
  );

  it("when Variant A's create is compared, then its fields are the schema's, and clientTags are taken", () => {
    expect(fieldsOf<CreateApplicationRequest>({ formType: true, data: true, clientTags: true })).toEqual(
      schemaFields(createRequestSchema),
    );
    const request: CreateApplicationRequest = {
      formType: 'car',
      data: FULL_STEPS.car[1],
      clientTags: { campaign: 'spring-2026' },
    };
    expect(validateCreateRequest(request)).toMatchObject({ ok: true, value: { clientTags: request.clientTags } });
  });

  it("when the address components are compared, then they are the schema's", () => {
    expect(
      fieldsOf<AddressComponents>({
        streetNumber: true,
        streetName: true,
        streetType: true,
        suburb: true,
        state: true,
        postcode: true,
        country: true,
        unitNumber: true,
      }),
    ).toEqual(schemaFields(schemaFor('personal', 4).properties.homeAddressComponents));
    expect(schemaFields(schemaFor('home', 2).properties.propertyAddressComponents)).toEqual(
      Object.keys(ADDRESS).sort(),
    );
  });

  it("when step 5 is compared, then its fields and required fields are the schema's, and a full payload is valid", () => {
    expect(Object.keys(FULL_APPLICANT).sort()).toEqual(schemaFields(applicantSchema));
    expect(
      requiredOf<ApplicantDetails>({
        firstName: true,
        lastName: true,
        email: true,
        mobileNumber: true,
        dateOfBirth: true,
      }),
    ).toEqual([...(applicantSchema.required ?? [])].sort());
    expect(validateApplicantDetails({ data: FULL_APPLICANT })).toMatchObject({ ok: true });
  });

  it("when Variant B's flat create and the webhook registration are compared, then a full payload of each is valid", () => {
    expect(Object.keys(FULL_FLAT).sort()).toEqual(schemaFields(variantBCreateSchema));
    expect(
      requiredOf<FlatApplication>({
        formType: true,
        loanAmount: true,
        loanPurpose: true,
        firstName: true,
        lastName: true,
        email: true,
        phone: true,
      }),
    ).toEqual([...(variantBCreateSchema.required ?? [])].sort());
    expect(validateVariantBCreate(FULL_FLAT)).toMatchObject({ ok: true, value: FULL_FLAT });
    // PATCH takes every flat field but step 1's amount and the loan type; CreditCheckDetailsB every step-5 field beside the identity.
    const { formType: _type, loanAmount: _amount, clientTags: _tags, ...fields } = FULL_FLAT;
    const patchFields: Required<FlatFields> = fields;
    expect(Object.keys(patchFields).sort()).toEqual(
      schemaFields(variantBPatchSchema).filter((name) => name !== 'securityToken'),
    );
    expect(validateVariantBPatch({ ...patchFields, securityToken: 'st_x' })).toMatchObject({
      ok: true,
      value: patchFields,
    });
    const { firstName: _first, lastName: _last, email: _email, ...checkRest } = APPLICANT_REST;
    const checkDetails: Required<CreditCheckDetailsB> = checkRest;
    expect([...Object.keys(checkDetails), 'firstName', 'lastName', 'email', 'mobileNumber'].sort()).toEqual(
      schemaFields(applicantSchema),
    );
    const webhook: Required<RegisterWebhookRequest> = {
      url: 'https://partner.example/hooks',
      events: ['application.status_changed'],
    };
    expect(validateWebhookRequest(webhook)).toMatchObject({ ok: true, value: webhook });
  });

  it("when a lender's outcome events are compared, then their fields are the schema's, and each kind is valid", () => {
    const funded: Required<Extract<OutcomeEvent, { type: 'funded' }>> = {
      reference: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
      eventId: 'lender-1',
      type: 'funded',
      occurredAt: '2026-11-20T01:00:00Z',
      fundedAmount: 15000.5,
      fundedAt: '2026-11-20T01:00:00+10:00',
    };
    const declined: Required<Extract<OutcomeEvent, { type: 'declined' }>> = {
      reference: funded.reference,
      eventId: 'lender-2',
      type: 'declined',
      occurredAt: funded.occurredAt,
      declineReason: 'affordability',
    };
    expect([...new Set([...Object.keys(funded), 'declineReason'])].sort()).toEqual(schemaFields(outcomeEventSchema));
    expect([...(outcomeEventSchema.required ?? [])].sort()).toEqual(['eventId', 'occurredAt', 'reference', 'type']);
    const now = new Date('2026-11-21T00:00:00Z');
    expect(validateOutcomeEvent(funded, now)).toMatchObject({ ok: true });
    expect(validateOutcomeEvent(declined, now)).toMatchObject({ ok: true });
  });

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

// Response types: compile-time assertions; a `false` among them fails `pnpm typecheck`. ---------------

type AllTrue<T extends true[]> = T;
// biome-ignore lint/correctness/noUnusedVariables: the type is the assertion; tsc evaluates it.
type ResponseFieldsMatch = AllTrue<
  [
    SameKeys<CreatedApplication, DomainCreatedApplication>,
    SameKeys<Application, ApplicationView>,
    SameKeys<CreditCheckResult, CreditCheckView>,
    SameKeys<MatchResult, MatchView>,
    SameKeys<Offer, OfferView>,
    SameKeys<OfferDetails, matching.OfferDetails>,
    SameKeys<NearMissOffer, matching.NearMissOffer>,
    SameKeys<Referral, ReferralView>,
    SameKeys<ReferralReportRow, DomainReferralReportRow>,
    SameKeys<OutcomeRecorded, DomainOutcomeRecorded>,
    SameKeys<Webhook, WebhookView>,
    SameKeys<RegisteredWebhook, DomainRegisteredWebhook>,
    SameKeys<DeliveryAttempt, AttemptView>,
    SameKeys<AccessTokenGrant, DomainAccessTokenGrant>,
    SameKeys<CreatedApplicationB, DomainCreatedApplicationB>,
    SameKeys<UpdatedApplicationB, DomainUpdatedApplicationB>,
    SameKeys<ConsentTexts, ConsentTextsView>,
    SameKeys<ConsentTexts['versions'][number], ConsentTextsView['versions'][number]>,
    Equal<ConsentTexts['versions'][number]['consents'][number]['consent'], ConsentKind>,
    Equal<ApplicationStatus, DomainApplicationStatus>,
    // Every code the service can send is a known code of the client (UNEXPECTED_RESPONSE is the client's own).
    Equal<Exclude<KnownErrorCode, 'UNEXPECTED_RESPONSE'>, HttpErrorCode>,
  ]
>;
