/**
 * Request bodies, field for field as spec section 2 lists them. Written by hand (the service's JSON
 * Schemas are built by functions, so no type can be derived from them); `test/request-types.test.ts` and
 * `test/value-lists.test.ts` check every field name, which fields are required, and every value list
 * against those schemas, and run example payloads through the service's own validator, so a drift
 * fails a test.
 *
 * Numbers are typed `number`; the service also accepts numeric strings, this client sends numbers.
 */

export type FormType = 'personal' | 'car' | 'home';
export type YesNo = 'yes' | 'no';

export type PersonalLoanPurpose =
  | 'debt_consolidation'
  | 'home_improvement'
  | 'car_purchase'
  | 'medical_expenses'
  | 'holiday'
  | 'wedding'
  | 'education'
  | 'business'
  | 'other';
export type CreditScoreEstimate = 'excellent' | 'good' | 'average' | 'below_average' | 'poor' | 'unknown';
export type EmploymentType =
  | 'full_time'
  | 'part_time'
  | 'casual'
  | 'contract'
  | 'contractor'
  | 'self_employed'
  | 'unemployed'
  | 'retired'
  | 'student'
  | 'centrelink';
export type LivingSituation =
  | 'renting'
  | 'own_outright'
  | 'own_mortgage'
  | 'living_with_parents'
  | 'boarding'
  | 'other';
export type AustralianState = 'NSW' | 'VIC' | 'QLD' | 'WA' | 'SA' | 'TAS' | 'ACT' | 'NT';
export type CarLoanPurpose = 'new' | 'used' | 'refinance' | 'NewCarPurchase' | 'UsedCarPurchase' | 'RefinanceCarLoan';
export type UsedCarSaleType = 'private' | 'dealer';
export type OccupancyType = 'owner_occupied' | 'investment';
export type HomeLoanPurpose = 'new_property' | 'refinance' | 'construction' | 'equity_release';
export type PropertyType = 'house' | 'apartment' | 'townhouse' | 'land' | 'unit' | 'villa' | 'other';
export type RepaymentType = 'principal_and_interest' | 'interest_only';
export type SettlementTimeframe = 'within_30_days' | '30_60_days' | '60_90_days' | '90_plus_days';

/** `homeAddressComponents` and `propertyAddressComponents`. */
export interface AddressComponents {
  streetNumber?: string;
  streetName?: string;
  streetType?: string;
  suburb?: string;
  state?: AustralianState;
  postcode?: string;
  country?: string;
  unitNumber?: string;
}

// 2.2 Personal loan --------------------------------------------------------------------------------

export interface PersonalStep1 {
  /** 1000-100000 */
  loanAmount: number;
}

export interface PersonalStep2 {
  loanPurpose: PersonalLoanPurpose;
  /** Years, 1-7. */
  loanTerm: number;
  creditScoreEstimate?: CreditScoreEstimate;
}

/** Personal and car step 3: employment and income. */
export interface EmploymentStep {
  employmentType: EmploymentType;
  employerName?: string;
  employmentYears?: number;
  employmentMonths?: number;
  /** 0-1000000 */
  grossMonthlyIncome: number;
  /** Default 0. */
  otherIncome?: number;
}

/** Personal and car step 4: living situation. */
export interface LivingStep {
  livingSituation: LivingSituation;
  homeAddress?: string;
  homeAddressComponents?: AddressComponents;
  /** Default 0. */
  monthlyRent?: number;
  residentialYears?: number;
  residentialMonths?: number;
  dependents?: number;
}

// 2.3 Car loan -------------------------------------------------------------------------------------

/** `estimatedCarPrice` is required for a found car or a refinance; a found used car also needs `vehicleYear` and `usedCarSaleType`. */
export interface CarStep1 {
  carLoanPurpose: CarLoanPurpose;
  hasFoundCar?: YesNo;
  estimatedCarPrice?: number;
  vehicleYear?: number;
  usedCarSaleType?: UsedCarSaleType;
}

/** `balloonPaymentPercent` must be 0 for a 6 or 7 year term. */
export interface CarStep2 {
  tradeInValue?: number;
  tradeInPayout?: number;
  depositAmount?: number;
  /** 5000-200000 */
  loanAmount: number;
  /** Years, 1-7. */
  loanTerm: number;
  balloonPaymentPercent?: number;
}

// 2.4 Home loan ------------------------------------------------------------------------------------

/** `isFirstHomeBuyer` is required for `new_property` and `construction`. */
export interface HomeStep1 {
  occupancyType: OccupancyType;
  loanPurpose: HomeLoanPurpose;
  isFirstHomeBuyer?: YesNo;
}

export interface HomeStep2 {
  propertyValue: number;
  propertyAddress: string;
  propertyAddressComponents?: AddressComponents;
  propertyType: PropertyType;
}

export interface HomeStep3 {
  loanAmount: number;
  /** Years, 1-30. */
  loanTerm: number;
  repaymentType: RepaymentType;
  settlementTimeframe: SettlementTimeframe;
}

export interface HomeStep4 {
  employmentType: EmploymentType;
  livingSituation: LivingSituation;
  homeAddress?: string;
  homeAddressComponents?: AddressComponents;
  employmentYears?: number;
  employmentMonths?: number;
  grossMonthlyIncome: number;
}

/** The data of each step of each loan type: `StepFields['car'][2]` is `CarStep2`. */
export interface StepFields {
  personal: { 1: PersonalStep1; 2: PersonalStep2; 3: EmploymentStep; 4: LivingStep };
  car: { 1: CarStep1; 2: CarStep2; 3: EmploymentStep; 4: LivingStep };
  home: { 1: HomeStep1; 2: HomeStep2; 3: HomeStep3; 4: HomeStep4 };
}

/** Steps saved with `saveStep`; step 1 comes with create, step 5 with the credit check. */
export type PatchStep = 2 | 3 | 4;

/**
 * Your own attribution, carried onto the application's referrals, outcomes, reports and webhooks: at most
 * 5 entries, keys of 1-32 and values of 1-128 characters of `[A-Za-z0-9_.-]`.
 */
export type ClientTags = Record<string, string>;

/** `POST /applications` (4.1): the loan type and its step 1, and optionally your `clientTags`. */
export type CreateApplicationRequest = {
  [F in FormType]: { formType: F; data: StepFields[F][1]; clientTags?: ClientTags };
}[FormType];

// 2.5 Step 5 ---------------------------------------------------------------------------------------

/**
 * Applicant details and consent, sent with the credit check. One of `consentCreditCheck`,
 * `creditCheckConsent` or `privacyConsent` must be `true`, or no check runs. The check stores a consent
 * record of what was given, under which wording, when.
 */
export interface ApplicantDetails {
  firstName: string;
  lastName: string;
  email: string;
  /** 8-20 characters. */
  mobileNumber: string;
  /** `YYYY-MM-DD` or `DD/MM/YYYY`; the applicant must be 18 or older. */
  dateOfBirth: string;
  gender?: 'male' | 'female' | 'other' | 'prefer_not_to_say';
  maritalStatus?: 'single' | 'married' | 'de_facto' | 'divorced' | 'separated' | 'widowed';
  address?: string;
  homeAddress?: string;
  streetNumber?: string;
  streetName?: string;
  streetType?: string;
  suburb?: string;
  state?: AustralianState;
  postcode?: string;
  unitNumber?: string;
  consentCreditCheck?: boolean;
  creditCheckConsent?: boolean;
  privacyConsent?: boolean;
  consentMarketing?: boolean;
  marketingConsent?: boolean;
  consentTerms?: boolean;
  termsConsent?: boolean;
  /** The version of the consent wording shown (`consents()`); when omitted, the record keeps the current one, marked as not stated. */
  consentTextVersion?: string;
  /** When the applicant gave the consents: RFC 3339 with its offset (`2026-11-23T09:12:00+11:00`), not in the future. */
  consentCapturedAt?: string;
  /** Your own reference for this consent: 1-100 letters, digits, `.`, `_`, `:`, `/` or `-`. */
  consentReference?: string;
}

/** `X-Sandbox-Score` (sandbox only): a level, a score 0-1200, or `unavailable` (a simulated bureau outage). */
export type SandboxScore =
  | 'excellent'
  | 'very_good'
  | 'good'
  | 'average'
  | 'below_average'
  | 'poor'
  | 'unavailable'
  | number;

// Variant B (4.6) ----------------------------------------------------------------------------------

/** Step 5 beside the identity fixed at create (names, e-mail, phone). */
type ApplicantRest = Omit<ApplicantDetails, 'firstName' | 'lastName' | 'email' | 'mobileNumber'>;

/**
 * The fields of personal steps 2-5 that Variant B takes flat, each optional, under their table names:
 * step 5's `mobileNumber` is `phone`; `homeAddress` is step 4's. A step's fields, once all known and
 * valid, are saved as the step; offers are `indicative` until the term, employment, income and living
 * situation are known.
 */
export type FlatFields = Partial<
  PersonalStep2 &
    EmploymentStep &
    LivingStep &
    ApplicantRest & { firstName: string; lastName: string; email: string; phone: string }
>;

/** `POST /v1/applications`: spec 4.6's fields (a personal loan's amount and purpose, the applicant's names and contact), and any other flat field. */
export interface FlatApplication extends FlatFields {
  formType: 'personal';
  loanAmount: number;
  loanPurpose: PersonalLoanPurpose;
  firstName: string;
  lastName: string;
  email: string;
  /** Step 5's `mobileNumber`. */
  phone: string;
  consentCreditCheck?: boolean;
  /** Your own attribution (see `ClientTags`); fixed at create. */
  clientTags?: ClientTags;
}

/**
 * Variant B's credit check: step-5 fields to lay over those given at create and by PATCH (all optional:
 * no date of birth is needed; consent, if it was not given before). Names, e-mail and phone are always
 * those of create.
 */
export type CreditCheckDetailsB = Partial<ApplicantRest>;

// Webhooks -----------------------------------------------------------------------------------------

export type WebhookEventType = 'application.status_changed' | 'referral.outcome_changed';

export interface RegisterWebhookRequest {
  /** https on a public address (the sandbox also takes loopback http). */
  url: string;
  /** Every type by default. */
  events?: WebhookEventType[];
}

// Referrals: reports and lenders' outcomes ---------------------------------------------------------

/** `GET /reports/referrals`: days `YYYY-MM-DD` (UTC, both included; the last 30 days by default). */
export interface ReferralReportQuery {
  from?: string;
  to?: string;
  /** `day` (default), `lender`, `product`, or `tag:<key>` of one of your `clientTags`. */
  groupBy?: 'day' | 'lender' | 'product' | `tag:${string}`;
}

export type DeclineReason = 'credit_history' | 'affordability' | 'employment' | 'identity' | 'policy' | 'other';

/** What a lender reports of a referral (`POST /api/lender/v1/outcomes`). Times carry their offset. */
interface OutcomeEventBase {
  /** The `lm_ref` the tracking redirect added to your address. */
  reference: string;
  /** Yours, unique among your events: sending it again answers the first answer. */
  eventId: string;
  occurredAt: string;
}

export type OutcomeEvent =
  | (OutcomeEventBase & { type: 'application_started' | 'approved' | 'withdrawn' | 'cancelled' })
  | (OutcomeEventBase & { type: 'declined'; declineReason: DeclineReason })
  | (OutcomeEventBase & {
      type: 'funded';
      /** AUD, at most two decimal places. */
      fundedAmount: number;
      fundedAt: string;
    });
