/**
 * The OpenAPI 3.1 document of Variant B (the token-exchange contract with flat bodies), served by its listener at
 * `GET /openapi.json`. Paths are relative to the base path (`/v1`); health checks and the reference
 * sit at the listener's root.
 */
import {
  CURRENT_CONSENT_TEXTS,
  validateApplicantDetailsB,
  validateSecurityTokenRequest,
  validateTokenRequest,
  validateVariantBCreate,
  validateVariantBPatch,
} from '@loanmatch/domain';
import { TOKEN_REFUSALS } from '../auth';
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
import type { Schema } from './schemas';
import { documentServers } from './servers';
import { servicePaths } from './service-paths';
import { MATCH_EXAMPLE } from './variant-a';
import { webhookPaths } from './webhook-paths';
import { referralPaths } from './lifecycle';

/** Variant B's 401 is about access tokens, its 429 about the tier's hourly limit. */
const CONTRACT_B: Contract = {
  examples: [
    { code: 'UNAUTHORIZED', message: TOKEN_REFUSALS.missing },
    { code: 'UNAUTHORIZED', message: TOKEN_REFUSALS.expired },
    {
      code: 'RATE_LIMITED',
      message: 'Rate limit exceeded: 1000 requests per hour; retry after the time in Retry-After',
    },
  ],
};
const op = (spec: OperationSpec) => operation(spec, CONTRACT_B);

const { applicationId: APPLICATION_ID } = EXAMPLE_IDS;
const tags = ['Applications'];
const SECURITY_TOKEN = 'st_Q2hhbmdlIG1lOiB0aGlzIGlzIGFuIGV4YW1wbGUgdG9rZW4';

const SPEC_CREATE = {
  formType: 'personal',
  loanAmount: 15000,
  loanPurpose: 'debt_consolidation',
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'jordan@example.com',
  phone: '0412345678',
};

/** Request examples: each is checked against its schema and the domain's own validator by the tests. */
export const EXAMPLES_B = {
  token: { default: { grantType: 'api_key' } },
  create: {
    default: { ...SPEC_CREATE, consentCreditCheck: true },
    spec: SPEC_CREATE,
    complete: {
      ...SPEC_CREATE,
      consentCreditCheck: true,
      loanTerm: 5,
      employmentType: 'full_time',
      employerName: 'Acme Pty Ltd',
      employmentYears: 4,
      grossMonthlyIncome: 8000,
      livingSituation: 'renting',
      monthlyRent: 1800,
      dependents: 1,
      dateOfBirth: '1988-07-14',
    },
  },
  update: {
    default: { securityToken: SECURITY_TOKEN, grossMonthlyIncome: 8000, employmentType: 'full_time', loanTerm: 5 },
  },
  creditCheck: {
    default: { securityToken: SECURITY_TOKEN, dateOfBirth: '1988-07-14' },
    consent: { securityToken: SECURITY_TOKEN, consentCreditCheck: true },
    consentRecord: {
      securityToken: SECURITY_TOKEN,
      consentCreditCheck: true,
      consentTerms: true,
      consentTextVersion: CURRENT_CONSENT_TEXTS.version,
      consentCapturedAt: '2026-11-23T09:12:00+11:00',
      consentReference: 'consent-7f3a9c',
    },
  },
  match: { default: { securityToken: SECURITY_TOKEN } },
};

/** A match of an application that gave only the create's required fields: indicative offers, with their conditions and the term assumed. */
const INDICATIVE_MATCH_EXAMPLE = {
  ...MATCH_EXAMPLE,
  acceptedOffers: MATCH_EXAMPLE.acceptedOffers.map((offer) => ({
    ...offer,
    certainty: 'indicative',
    conditions: [
      { field: 'loanTerm', requirement: 'between 1 and 7 years; this offer assumes 5 years' },
      { field: 'employmentType', requirement: 'one of full_time, part_time, self_employed' },
      {
        field: 'grossMonthlyIncome',
        requirement: 'at least $4,311/month (with housing costs of at most $1,650/month and no dependants)',
      },
      {
        field: 'livingSituation',
        requirement: 'housing costs of at most $1,650/month and no dependants, at the income above',
      },
    ],
    assumedLoanTermMonths: 60,
  })),
  nearMissOffers: [],
};

function paths(): Record<string, Schema> {
  const byId = [paramRef('ApplicationId')];
  const securityTokenErrors = ['VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_SECURITY_TOKEN'] as const;
  return {
    '/auth/token': {
      post: op({
        operationId: 'exchangeApiKey',
        summary: 'Exchange your API key for an access token',
        description:
          'Send the key in `X-API-Key`. The token is a JWT that lasts 15 minutes; exchange again when one expires. Revoking the key ends its tokens.',
        tags: ['Authentication'],
        security: [{ apiKeyHeader: [] }],
        requestBody: { schema: ref('TokenRequest'), examples: EXAMPLES_B.token },
        success: {
          status: 200,
          description: 'An access token.',
          data: ref('AccessToken'),
          headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
          examples: {
            default: {
              accessToken: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6Ii4uLiJ9.e30.c2lnbmF0dXJl',
              tokenType: 'Bearer',
              expiresIn: 900,
            },
          },
        },
        errors: ['VALIDATION_ERROR'],
        examples: [
          refusal(validateTokenRequest({ grantType: 'password' })),
          {
            code: 'UNAUTHORIZED',
            message: 'A valid API key is required: send X-API-Key: <API key> with the body {"grantType": "api_key"}',
          },
        ],
      }),
    },
    '/applications': {
      post: op({
        operationId: 'createApplicationB',
        summary: 'Create an application with flat fields',
        description:
          "A personal loan. Answers the `applicationId` and the `securityToken`, shown this once: PATCH, credit check and match bodies carry it. Spec 4.6's fields are enough to reach offers (indicative ones); every other field of steps 2-5 may come here, or later by PATCH, for pre-qualified offers.",
        tags,
        parameters: [paramRef('IdempotencyKey')],
        requestBody: { schema: ref('CreateApplicationBRequest'), examples: EXAMPLES_B.create },
        success: {
          status: 201,
          description: 'Created, in status `draft` (`in_progress` when fields of steps 2-4 made complete steps).',
          data: ref('CreatedApplicationB'),
          headers: {
            'Cache-Control': headerRef('CacheControlNoStore'),
            'Idempotency-Replayed': headerRef('IdempotencyReplayed'),
          },
          examples: { default: { applicationId: APPLICATION_ID, securityToken: SECURITY_TOKEN } },
        },
        errors: ['VALIDATION_ERROR', 'IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_UNRESOLVED', 'IDEMPOTENCY_KEY_REUSED'],
        examples: [
          refusal(validateVariantBCreate({ ...SPEC_CREATE, email: `${'j'.repeat(250)}@example.com` })),
          refusal(validateVariantBCreate({ ...SPEC_CREATE, loanAmount: 999 })),
        ],
      }),
    },
    '/applications/{applicationId}': {
      patch: op({
        operationId: 'updateApplicationB',
        summary: 'Add or replace fields',
        description:
          "The security token first (404 for an application that is not yours, 403 for a wrong token; nothing changes), then each field by its table's rule. " +
          "Fields of steps 2-4 may change at any time (after the credit check, the next match uses them, as Variant A's step save does); step 5's fields until the credit check (409 `CREDIT_CHECK_ALREADY_COMPLETED` after it, 409 `CREDIT_CHECK_IN_PROGRESS` while it runs).",
        tags,
        parameters: byId,
        requestBody: { schema: ref('UpdateApplicationBRequest'), examples: EXAMPLES_B.update },
        success: {
          status: 200,
          description: 'Changed.',
          data: ref('UpdatedApplicationB'),
          examples: {
            default: {
              applicationId: APPLICATION_ID,
              status: 'in_progress',
              lastStep: 3,
              creditCheckComplete: false,
              missingFields: ['livingSituation'],
            },
          },
        },
        errors: [
          ...securityTokenErrors,
          'CREDIT_CHECK_ALREADY_COMPLETED',
          'CREDIT_CHECK_IN_PROGRESS',
          'PERSONAL_DATA_ERASED',
        ],
        examples: [
          refusal(validateVariantBPatch({ securityToken: SECURITY_TOKEN, loanTerm: 9 })),
          {
            code: 'CREDIT_CHECK_ALREADY_COMPLETED',
            message: "phone: the applicant's details cannot change after the credit check, which ran on them",
          },
        ],
      }),
    },
    '/applications/{applicationId}/credit-check': {
      post: op({
        operationId: 'runCreditCheckB',
        summary: 'Run the soft credit check',
        description:
          "The security token first (404 for an application that is not yours, 403 for a wrong token), then Variant A's checks, except that steps 2-4 and `dateOfBirth` are not needed: step 5 is what create and PATCH gave, with this body's step-5 fields laid over it. One check per application.",
        tags,
        parameters: [...byId, paramRef('IdempotencyKey'), paramRef('SandboxScore')],
        requestBody: { schema: ref('CreditCheckBRequest'), examples: EXAMPLES_B.creditCheck },
        success: CREDIT_CHECK_SUCCESS,
        errors: [...securityTokenErrors, ...CREDIT_CHECK_CONFLICTS.filter((code) => code !== 'STEPS_INCOMPLETE')],
        examples: [
          refusal(
            validateApplicantDetailsB(
              { firstName: 'Jordan', lastName: 'Citizen', email: 'jordan@example.com', mobileNumber: '0412345678' },
              new Date(EXAMPLE_IDS.at),
            ),
          ),
        ],
      }),
    },
    '/applications/{applicationId}/match': {
      post: op({
        operationId: 'matchApplicationB',
        summary: 'Match offers',
        description:
          "As Variant A's match, once the security token is verified, on what the application tells: offers are `pre_qualified` when every rule was assessed, `indicative` (with `conditions`, and `assumedLoanTermMonths` when no term was given) when some could not be.",
        tags,
        parameters: byId,
        requestBody: { schema: ref('SecurityTokenRequest'), examples: EXAMPLES_B.match },
        success: {
          status: 200,
          description: 'Accepted offers, pre-qualified first, and near-misses.',
          data: ref('MatchResult'),
          examples: { default: MATCH_EXAMPLE, indicative: INDICATIVE_MATCH_EXAMPLE },
        },
        errors: [...securityTokenErrors, 'CREDIT_CHECK_REQUIRED'],
        examples: [refusal(validateSecurityTokenRequest({}))],
      }),
    },
    '/applications/{applicationId}/security-token': {
      post: op({
        operationId: 'issueSecurityTokenB',
        summary: 'Issue a new security token',
        description:
          'For any application of the partner, one made through Variant A included: carries it over to Variant B, or replaces a lost token. The previous token stops working.',
        tags,
        parameters: byId,
        success: {
          status: 200,
          description: 'The new token, shown this once.',
          data: ref('IssuedSecurityToken'),
          headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
          examples: { default: { securityToken: SECURITY_TOKEN } },
        },
        errors: ['NOT_FOUND'],
      }),
    },
  };
}

/** Variant B's document for a listener reached at `publicUrl`, built from `source` (the domain's schemas by default). */
export function buildVariantBDocument(options: DocumentOptions): Schema {
  const servers = documentServers('Variant B', options);
  return contractDocument({
    servers,
    title: 'LoanMatch partner API, Variant B',
    description:
      'The token-exchange contract over the same applications as Variant A, complete on its own. Exchange your API key at `POST /auth/token` for a 15-minute access token, send it as `Authorization: Bearer <access token>`, create an application with flat fields, run the credit check and match, proving each call on an application with its `securityToken`. `PATCH /applications/{applicationId}` adds fields later.\n\n' +
      'Every answer is `{success: true, data}` or `{success: false, error, message, details?}` and carries `X-Request-Id`. Limits are per partner per hour by tier (Free 100, Standard 1000, Enterprise 10000 by default), token exchanges included.',
    security: {
      accessToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'An access token from `POST /auth/token`: a JWT (HS256) following the practices of RFC8725. The algorithm is fixed, never read from the token; the issuer, audience and expiry are verified on every call.',
      },
      apiKeyHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'Your API key, for the token exchange only.',
      },
    },
    tags: [
      { name: 'Authentication' },
      { name: 'Applications', description: 'Spec 4.6.' },
      CONSENTS_TAG,
      { name: 'Referrals' },
      WEBHOOKS_TAG,
      SERVICE_TAG,
    ],
    paths: mergePaths(
      paths(),
      referralPaths(op),
      consentPaths(CONTRACT_B),
      webhookPaths(CONTRACT_B),
      servicePaths(servers.root),
    ),
  });
}
