/**
 * The OpenAPI 3.1 document of Variant A (the five-step contract), served by its listener at
 * `GET /openapi.json`. Paths are relative to the base path (`/api/partner/v1`); the tracking route,
 * health checks and the reference itself sit at the listener's root (path-level `servers`).
 */
import {
  CURRENT_CONSENT_TEXTS,
  checkIdempotencyKey,
  parseSandboxScore,
  validateApplicantDetails,
  validateCreateRequest,
  validateStepRequest,
} from '@loanmatch/domain';
import {
  headerRef,
  paramRef,
  ref,
  refusal,
  EXAMPLE_IDS,
  operation,
  type Contract,
  type OperationSpec,
} from './operations';
import {
  CREDIT_CHECK_CONFLICTS,
  CREDIT_CHECK_SUCCESS,
  SERVICE_TAG,
  WEBHOOKS_TAG,
  contractDocument,
  mergePaths,
  type DocumentOptions,
} from './document';
import { CONSENTS_TAG, consentPaths } from './consents';
import { PARAMETERS } from './parameters';
import type { Schema } from './schemas';
import { documentServers } from './servers';
import { servicePaths } from './service-paths';
import { webhookPaths } from './webhook-paths';
import { LENDERS_TAG, LENDER_SECURITY, lenderPaths, referralPaths } from './lifecycle';
import { leadPaths, leadWebhookEvents } from './lead-paths';

/** Variant A's 401 and 429 read as the contract's list has them (an API key, 120 a minute by default). */
const CONTRACT_A: Contract = { examples: [] };
const op = (spec: OperationSpec) => operation(spec, CONTRACT_A);

const { applicationId: APPLICATION_ID, at: AT } = EXAMPLE_IDS;
const tags = ['Applications'];

/** Step 5 with the one consent the check needs. */
const APPLICANT_EXAMPLE = {
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'jordan@example.com',
  mobileNumber: '0412345678',
  dateOfBirth: '14/07/1988',
  consentCreditCheck: true,
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
    consentRecord: {
      data: {
        ...APPLICANT_EXAMPLE,
        privacyConsent: true,
        consentTerms: true,
        consentTextVersion: CURRENT_CONSENT_TEXTS.version,
        consentCapturedAt: '2026-11-23T09:12:00+11:00',
        consentReference: 'consent-7f3a9c',
      },
    },
  },
};

const applicationView = {
  applicationId: APPLICATION_ID,
  formType: 'personal',
  status: 'in_progress',
  lastStep: 2,
  steps: {
    '1': { loanAmount: 15000 },
    '2': { loanPurpose: 'debt_consolidation', loanTerm: 5, creditScoreEstimate: 'good' },
  },
  creditCheckComplete: false,
  creditCheckedAt: null,
  createdAt: AT,
  updatedAt: AT,
};

const ref2 = (id: string, name: string) => ({ id, name });
export const MATCH_EXAMPLE = {
  applicationId: APPLICATION_ID,
  matchId: '9a7b3c1d-2e4f-4a6b-8c0d-1e2f3a4b5c6d',
  generatedAt: AT,
  degraded_mode: false,
  assessment: { basis: 'bureau' },
  acceptedOffers: [
    {
      offerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
      lender: ref2('harbour-credit', 'Harbour Credit'),
      product: ref2('harbour-personal-fixed', 'Fixed Rate Personal Loan'),
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
      lender: ref2('southern-mutual', 'Southern Mutual'),
      product: ref2('southern-personal-variable', 'Variable Personal Loan'),
      headline: '8.99% p.a. variable',
      reasons: [{ field: 'timeInJob', rule: 'at least 6 months in the current job', actual: '4 months' }],
      wouldQualifyIf: [{ field: 'timeInJob', requirement: 'at least 6 months in the current job (2 more)' }],
    },
  ],
};

function applicationPaths(): Record<string, Schema> {
  const byId = [paramRef('ApplicationId')];
  return {
    '/applications': {
      post: op({
        operationId: 'createApplication',
        summary: 'Create an application (step 1)',
        description:
          'The loan type is fixed from here on. Send an `Idempotency-Key` so a retry cannot make a second application.',
        tags,
        parameters: [paramRef('IdempotencyKey')],
        requestBody: { schema: ref('CreateApplicationRequest'), examples: EXAMPLES_A.create },
        success: {
          status: 201,
          description: 'Created, in status `draft`.',
          data: ref('CreatedApplication'),
          headers: { 'Idempotency-Replayed': headerRef('IdempotencyReplayed') },
          examples: { default: { applicationId: APPLICATION_ID, formType: 'personal', status: 'draft', lastStep: 1 } },
        },
        errors: ['VALIDATION_ERROR', 'IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_UNRESOLVED', 'IDEMPOTENCY_KEY_REUSED'],
        examples: [
          refusal(validateCreateRequest({ formType: 'personal', data: { loanAmount: 999 } })),
          refusal(checkIdempotencyKey('key with spaces', false)),
        ],
      }),
    },
    '/applications/{applicationId}': {
      get: op({
        operationId: 'getApplication',
        summary: 'Read an application',
        description: 'Status, last step and steps 1-4. Never step 5, never a score.',
        tags,
        parameters: byId,
        success: {
          status: 200,
          description: 'The application.',
          data: ref('Application'),
          examples: { default: applicationView },
        },
        errors: ['NOT_FOUND'],
      }),
      patch: op({
        operationId: 'saveStep',
        summary: 'Save step 2, 3 or 4',
        description:
          'Steps are saved in order; sending a step again replaces it. A step saved after the credit check keeps the check. ' +
          "Once the applicant's personal data has been erased, the application takes no step again (409 `PERSONAL_DATA_ERASED`).",
        tags,
        parameters: byId,
        requestBody: { schema: ref('SaveStepRequest'), examples: EXAMPLES_A.steps },
        success: {
          status: 200,
          description: 'Saved: the application as it now is.',
          data: ref('Application'),
          examples: { default: applicationView },
        },
        errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'STEP_OUT_OF_ORDER', 'PERSONAL_DATA_ERASED'],
        examples: [
          refusal(
            validateStepRequest('personal', { step: 2, data: { loanPurpose: 'debt_consolidation', loanTerm: 9 } }),
          ),
        ],
      }),
    },
    '/applications/{applicationId}/credit-check': {
      post: op({
        operationId: 'runCreditCheck',
        summary: 'Submit step 5 and run the soft credit check',
        description:
          'Needs steps 1-4. One check per application: a retry with the same `Idempotency-Key` answers the first result; a new key after a completed check answers 409.',
        tags,
        parameters: [
          ...byId,
          {
            ...PARAMETERS.IdempotencyKey,
            required: true,
            description: `${String(PARAMETERS.IdempotencyKey.description)} Required here.`,
          },
          paramRef('SandboxScore'),
        ],
        requestBody: { schema: ref('CreditCheckRequest'), examples: EXAMPLES_A.creditCheck },
        success: CREDIT_CHECK_SUCCESS,
        errors: ['VALIDATION_ERROR', 'NOT_FOUND', ...CREDIT_CHECK_CONFLICTS],
        examples: [
          refusal(
            validateApplicantDetails({ data: { ...EXAMPLES_A.creditCheck.default.data, consentCreditCheck: false } }),
          ),
          refusal(checkIdempotencyKey(undefined, true)),
          refusal(parseSandboxScore('great')),
        ],
      }),
    },
    '/applications/{applicationId}/match': {
      post: op({
        operationId: 'matchApplication',
        summary: 'Match offers',
        description:
          'No body. Each call is a fresh run with fresh tracking links (about two hours); call again after changing a step.',
        tags,
        parameters: byId,
        success: {
          status: 200,
          description: 'Accepted offers and near-misses.',
          data: ref('MatchResult'),
          examples: { default: MATCH_EXAMPLE },
        },
        errors: ['NOT_FOUND', 'CREDIT_CHECK_REQUIRED', 'STEPS_INCOMPLETE'],
        examples: [
          { code: 'STEPS_INCOMPLETE', message: 'Matching needs more of the application: step 4 livingSituation' },
        ],
      }),
    },
  };
}

function trackingPath(rootServers: Schema[]): Record<string, Schema> {
  return {
    '/r/{token}': {
      servers: rootServers,
      get: op({
        operationId: 'followTrackingLink',
        summary: "Follow an offer's tracking link",
        description:
          "For the applicant's browser, not for your server: records the referral once per offer, moves the application to `referred`, and forwards to the lender. No key.",
        tags: ['Tracking'],
        authenticated: false,
        parameters: [paramRef('TrackingToken')],
        success: {
          status: 302,
          description: 'To the lender.',
          headers: {
            Location: headerRef('Location'),
            'Cache-Control': { schema: { const: 'no-store' } },
            'Referrer-Policy': { schema: { const: 'no-referrer' } },
          },
        },
        errors: ['NOT_FOUND', 'LINK_EXPIRED', 'SERVICE_UNAVAILABLE'],
        examples: [{ code: 'NOT_FOUND', message: 'Unknown link' }],
      }),
    },
  };
}

/** Variant A's document for a listener reached at `publicUrl`, built from `source` (the domain's schemas by default). */
export function buildVariantADocument(options: DocumentOptions): Schema {
  const servers = documentServers('Variant A', options);
  const document = contractDocument({
    servers,
    title: 'LoanMatch partner API, Variant A',
    description:
      'Build a loan application in five steps, run a soft credit check, and get matched lender offers. Authenticate with `Authorization: Bearer <API key>`; keys carry their environment (`lm_sandbox_…`, `lm_live_…`).\n\n' +
      'Every answer is `{success: true, data}` or `{success: false, error, message, details?}` and carries `X-Request-Id`. Numbers may be sent as JSON numbers or plain decimal strings; fields not listed are ignored. ' +
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
    tags: [
      { name: 'Applications', description: 'Spec 4.1-4.5.' },
      { name: 'Referrals' },
      CONSENTS_TAG,
      WEBHOOKS_TAG,
      { name: 'Tracking', description: "On this listener's root: the address of every `trackingUrl`." },
      LENDERS_TAG,
      SERVICE_TAG,
    ],
    paths: mergePaths(
      applicationPaths(),
      consentPaths(CONTRACT_A),
      referralPaths(op),
      webhookPaths(CONTRACT_A),
      trackingPath(servers.root),
      lenderPaths(op, servers.root),
      leadPaths(op, servers.root),
      servicePaths(servers.root),
    ),
  });
  // Lenders' endpoints receive their leads; partners' never do.
  return { ...document, webhooks: { ...(document.webhooks as Schema), ...leadWebhookEvents() } };
}
