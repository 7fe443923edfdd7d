/**
 * The OpenAPI 3.1 document of Variant A (the five-step contract), served by its listener at
 * `GET /openapi.json`. Paths are relative to the base path (`/api/partner/v1`); the tracking route, the
 * lender route, health checks and the reference itself sit at the listener's root (path-level `servers`).
 */
import {
  CURRENT_CONSENT_TEXTS,
  checkIdempotencyKey,
  parseSandboxScore,
  validateApplicantDetails,
  validateCreateRequest,
  validateStepRequest,
} from '@loanmatch/domain';
import { contractDocument, type DocumentOptions, type PathGroup } from './document';
import { LEAD_EVENTS, LENDERS, LENDER_SECURITY, LENDER_WEBHOOKS } from './lenders';
import { EXAMPLE_IDS, REPLAYED, headerRef, refusal } from './operations';
import { PARAMETERS } from './parameters';
import type { Schema } from './schemas';
import { CONSENTS, REFERRALS, SERVICE, WEBHOOKS } from './partner-paths';

const { applicationId, offerId, at } = EXAMPLE_IDS;

/** Step 5 with the one consent the check needs. */
const APPLICANT_EXAMPLE = {
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'jordan@example.com',
  mobileNumber: '0412345678',
  dateOfBirth: '14/07/1988',
  consentCreditCheck: true,
};

/** The consent record a credit check may carry: what was shown, when the applicant agreed, and your reference. */
export const CONSENT_RECORD = {
  consentTerms: true,
  consentTextVersion: CURRENT_CONSENT_TEXTS.version,
  consentCapturedAt: '2026-11-23T09:12:00+11:00',
  consentReference: 'consent-7f3a9c',
};

/** Request examples: each is checked against its schema and the domain's own validator by the tests. */
export const EXAMPLES_A = {
  create: {
    personal: { formType: 'personal', data: { loanAmount: 15000 } },
    car: {
      formType: 'car',
      data: {
        carLoanPurpose: 'used',
        hasFoundCar: 'yes',
        estimatedCarPrice: 25000,
        vehicleYear: 2020,
        usedCarSaleType: 'dealer',
      },
    },
    home: {
      formType: 'home',
      data: { occupancyType: 'owner_occupied', loanPurpose: 'new_property', isFirstHomeBuyer: 'yes' },
    },
  },
  steps: {
    personalStep2: { step: 2, data: { loanPurpose: 'debt_consolidation', loanTerm: 5, creditScoreEstimate: 'good' } },
    personalStep3: { step: 3, data: { employmentType: 'full_time', employmentYears: 4, grossMonthlyIncome: 8000 } },
    personalStep4: { step: 4, data: { livingSituation: 'renting', monthlyRent: 1800, dependents: 1 } },
  },
  creditCheck: {
    default: { data: APPLICANT_EXAMPLE },
    consentRecord: { data: { ...APPLICANT_EXAMPLE, privacyConsent: true, ...CONSENT_RECORD } },
  },
};

const APPLICATION_EXAMPLE = {
  applicationId,
  formType: 'personal',
  status: 'in_progress',
  lastStep: 2,
  steps: { '1': EXAMPLES_A.create.personal.data, '2': EXAMPLES_A.steps.personalStep2.data },
  creditCheckComplete: false,
  creditCheckedAt: null,
  createdAt: at,
  updatedAt: at,
};

export const MATCH_EXAMPLE = {
  applicationId,
  matchId: '9a7b3c1d-2e4f-4a6b-8c0d-1e2f3a4b5c6d',
  generatedAt: at,
  degraded_mode: false,
  assessment: { basis: 'bureau' },
  acceptedOffers: [
    {
      offerId,
      lender: { id: 'harbour-credit', name: 'Harbour Credit' },
      product: { id: 'harbour-personal-fixed', name: 'Fixed Rate Personal Loan' },
      headline: '9.49% p.a. fixed (comparison rate 10.12% p.a.)',
      certainty: 'pre_qualified',
      offerDetails: {
        interestRate: 9.49,
        comparisonRate: 10.12,
        comparisonRateWarning:
          'WARNING: This comparison rate is true only for the examples given and may not include all fees and charges.',
        comparisonRateExample: 'a $30,000 unsecured loan over 5 years',
        loanAmount: 15000,
        loanTermMonths: 60,
        monthlyRepayment: 314.9,
        establishmentFee: 250,
        monthlyFee: 5,
      },
      conditions: [],
      expiresAt: '2026-11-22T05:20:00.000Z',
      trackingUrl: 'http://127.0.0.1:3000/r/DW2WgpMg0k3LC12OLgbn0bKRTCZ0UZ1bsJQ5ZrGBPm0yCPH8hmqk2BvJ8Ss',
    },
  ],
  nearMissOffers: [
    {
      lender: { id: 'southern-mutual', name: 'Southern Mutual' },
      product: { id: 'southern-personal-variable', name: 'Variable Personal Loan' },
      headline: '8.99% p.a. variable',
      reasons: [{ field: 'timeInJob', rule: 'at least 6 months in the current job', actual: '4 months' }],
      wouldQualifyIf: [{ field: 'timeInJob', requirement: 'at least 6 months in the current job (2 months more)' }],
    },
  ],
};

/** The credit check's success on either contract. */
export const CREDIT_CHECK_SUCCESS = { description: 'The check ran.', data: 'CreditCheckResult', headers: REPLAYED };

/** Why a request with an `Idempotency-Key` may be refused: its first request is running, died, or was another. */
export const IDEMPOTENCY_CONFLICTS = [
  'IDEMPOTENCY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_UNRESOLVED',
  'IDEMPOTENCY_KEY_REUSED',
] as const;

/** Why a credit check is refused after the caller and the application were verified (either contract). */
export const CREDIT_CHECK_CONFLICTS = [
  'STEPS_INCOMPLETE',
  'CREDIT_CHECK_ALREADY_COMPLETED',
  'CREDIT_CHECK_IN_PROGRESS',
  'PERSONAL_DATA_ERASED',
  ...IDEMPOTENCY_CONFLICTS,
] as const;

const APPLICATIONS: PathGroup = {
  tag: { name: 'Applications' },
  operations: {
    'POST /applications': {
      operationId: 'createApplication',
      summary: 'Create an application (step 1)',
      description:
        'The loan type is fixed from here on. Send an `Idempotency-Key` so a retry cannot make a second application.',
      parameters: ['IdempotencyKey'],
      body: { schema: 'CreateApplicationRequest', examples: EXAMPLES_A.create },
      success: {
        status: 201,
        description: 'Created, in status `draft`.',
        data: 'CreatedApplication',
        headers: REPLAYED,
      },
      errors: [
        refusal(validateCreateRequest({ formType: 'personal', data: { loanAmount: 999 } })),
        refusal(checkIdempotencyKey('key with spaces', false)),
        ...IDEMPOTENCY_CONFLICTS,
      ],
    },
    'GET /applications/{applicationId}': {
      operationId: 'getApplication',
      summary: 'Read an application',
      description: 'Status, last step and steps 1-4. Never step 5, never a score.',
      parameters: ['ApplicationId'],
      success: { description: 'The application.', data: 'Application' },
      examples: { default: APPLICATION_EXAMPLE },
      errors: ['NOT_FOUND'],
    },
    'PATCH /applications/{applicationId}': {
      operationId: 'saveStep',
      summary: 'Save step 2, 3 or 4',
      description:
        'Steps are saved in order; sending a step again replaces it. A step saved after the credit check keeps the check. ' +
        "Once the applicant's personal data has been erased, the application takes no step again.",
      parameters: ['ApplicationId'],
      body: { schema: 'SaveStepRequest', examples: EXAMPLES_A.steps },
      success: { description: 'Saved: the application as it now is.', data: 'Application' },
      examples: { default: APPLICATION_EXAMPLE },
      errors: [
        refusal(validateStepRequest('personal', { step: 2, data: { loanPurpose: 'debt_consolidation', loanTerm: 9 } })),
        'NOT_FOUND',
        'STEP_OUT_OF_ORDER',
        'PERSONAL_DATA_ERASED',
      ],
    },
    'POST /applications/{applicationId}/credit-check': {
      operationId: 'runCreditCheck',
      summary: 'Submit step 5 and run the soft credit check',
      description:
        'Needs steps 1-4. One check per application: a retry with the same `Idempotency-Key` answers the first result; a new key after a completed check answers 409.',
      parameters: [
        'ApplicationId',
        {
          ...PARAMETERS.IdempotencyKey,
          required: true,
          description: `${String(PARAMETERS.IdempotencyKey.description)} Required here.`,
        },
        'SandboxScore',
      ],
      body: { schema: 'CreditCheckRequest', examples: EXAMPLES_A.creditCheck },
      success: CREDIT_CHECK_SUCCESS,
      errors: [
        refusal(validateApplicantDetails({ data: { ...APPLICANT_EXAMPLE, consentCreditCheck: false } })),
        refusal(checkIdempotencyKey(undefined, true)),
        refusal(parseSandboxScore('great')),
        'NOT_FOUND',
        ...CREDIT_CHECK_CONFLICTS,
      ],
    },
    'POST /applications/{applicationId}/match': {
      operationId: 'matchApplication',
      summary: 'Match offers',
      description: 'No body. Each call is a fresh run with fresh tracking links; call again after changing a step.',
      parameters: ['ApplicationId'],
      success: { description: 'Accepted offers and near-misses.', data: 'MatchResult' },
      examples: { default: MATCH_EXAMPLE },
      errors: [
        'NOT_FOUND',
        'CREDIT_CHECK_REQUIRED',
        { code: 'STEPS_INCOMPLETE', message: 'Matching needs more of the application: step 4 livingSituation' },
      ],
    },
  },
};

const TRACKING: PathGroup = {
  tag: { name: 'Tracking', description: "On this listener's root: the address of every `trackingUrl`." },
  root: '',
  operations: {
    'GET /r/{token}': {
      operationId: 'followTrackingLink',
      summary: "Follow an offer's tracking link",
      description:
        "For the applicant's browser, not for your server: records the referral once per offer, moves the application to `referred`, and forwards to the lender.",
      security: [],
      parameters: ['TrackingToken'],
      success: {
        status: 302,
        description: 'To the lender.',
        headers: {
          Location: headerRef('Location'),
          'Cache-Control': { schema: { const: 'no-store' } },
          'Referrer-Policy': { schema: { const: 'no-referrer' } },
        },
      },
      errors: [{ code: 'NOT_FOUND', message: 'Unknown link' }, 'LINK_EXPIRED', 'SERVICE_UNAVAILABLE'],
    },
  },
};

/** Variant A's document for a listener reached at `options.publicUrl`. */
export function variantADocument(options: DocumentOptions): Schema {
  return contractDocument(options, {
    name: 'Variant A',
    description:
      'Build a loan application in five steps, run a soft credit check, and get matched lender offers. Authenticate with `Authorization: Bearer <API key>`; keys carry their environment (`lm_sandbox_…`, `lm_live_…`). ' +
      'Limit: 120 requests a minute per key by default (`RateLimit`, `RateLimit-Policy`, `Retry-After` on 429).',
    security: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description: 'Your API key: `Authorization: Bearer lm_sandbox_…`. Keep it on your server.',
      },
      ...LENDER_SECURITY,
    },
    examples: [],
    groups: [APPLICATIONS, REFERRALS, CONSENTS, WEBHOOKS, TRACKING, LENDERS, LENDER_WEBHOOKS, SERVICE],
    events: LEAD_EVENTS,
  });
}
