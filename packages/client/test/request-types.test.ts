/** The client's request types against the service's JSON Schemas: each field list and required list, and full example payloads through the service's validators. */
import {
  CURRENT_CONSENT_TEXTS,
  FORM_TYPES,
  applicantSchema,
  createRequestSchema,
  schemaFor,
  validateApplicantDetails,
  validateCreateRequest,
  validateStepRequest,
  validateVariantBCreate,
  validateVariantBPatch,
  validateWebhookRequest,
  variantBCreateSchema,
  variantBPatchSchema,
  type JsonSchema,
  outcomeEventSchema,
  validateOutcomeEvent,
} from '@loanmatch/domain';
import type {
  AddressComponents,
  ApplicantDetails,
  CarStep1,
  CarStep2,
  CreateApplicationRequest,
  CreditCheckDetailsB,
  FlatFields,
  EmploymentStep,
  FlatApplication,
  FormType,
  HomeStep1,
  HomeStep2,
  HomeStep3,
  HomeStep4,
  LivingStep,
  PersonalStep1,
  PersonalStep2,
  RegisterWebhookRequest,
  StepFields,
  OutcomeEvent,
} from '../src';
import { fieldsOf, requiredOf } from './type-helpers';

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
});
