/**
 * The OpenAPI 3.1 document of Variant B (the token-exchange contract with flat bodies), served by its
 * listener at `GET /openapi.json`. Paths are relative to the base path (`/v1`); health checks and the
 * reference sit at the listener's root.
 */
import {
  validateApplicantDetailsB,
  validateSecurityTokenRequest,
  validateTokenRequest,
  validateVariantBCreate,
  validateVariantBPatch,
} from '@loanmatch/domain';
import { TOKEN_REFUSALS } from '../auth';
import { contractDocument, type DocumentOptions, type PathGroup } from './document';
import { EXAMPLE_IDS, NO_STORE, REPLAYED, refusal } from './operations';
import type { Schema } from './schemas';
import {
  CONSENT_RECORD,
  IDEMPOTENCY_CONFLICTS,
  CREDIT_CHECK_CONFLICTS,
  CREDIT_CHECK_SUCCESS,
  EXAMPLES_A,
  MATCH_EXAMPLE,
} from './variant-a';
import { CONSENTS, REFERRALS, SERVICE, WEBHOOKS } from './partner-paths';

const SECURITY_TOKEN = 'st_Q2hhbmdlIG1lOiB0aGlzIGlzIGFuIGV4YW1wbGUgdG9rZW4';
/** The fields the flat create requires. */
const SPEC_CREATE = {
  formType: 'personal',
  loanAmount: 15000,
  loanPurpose: 'debt_consolidation',
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'jordan@example.com',
  phone: '0412345678',
};

const { firstName, lastName, email, phone } = SPEC_CREATE;

/** Request examples: each is checked against its schema and the domain's own validator by the tests. */
export const EXAMPLES_B = {
  token: { default: { grantType: 'api_key' } },
  create: {
    default: { ...SPEC_CREATE, consentCreditCheck: true },
    spec: SPEC_CREATE,
    complete: {
      ...SPEC_CREATE,
      consentCreditCheck: true,
      loanTerm: EXAMPLES_A.steps.personalStep2.data.loanTerm,
      ...EXAMPLES_A.steps.personalStep3.data,
      employerName: 'Acme Pty Ltd',
      ...EXAMPLES_A.steps.personalStep4.data,
      dateOfBirth: '1988-07-14',
    },
  },
  update: {
    default: { securityToken: SECURITY_TOKEN, grossMonthlyIncome: 8000, employmentType: 'full_time', loanTerm: 5 },
  },
  creditCheck: {
    default: { securityToken: SECURITY_TOKEN, dateOfBirth: '1988-07-14' },
    consent: { securityToken: SECURITY_TOKEN, consentCreditCheck: true },
    consentRecord: { securityToken: SECURITY_TOKEN, consentCreditCheck: true, ...CONSENT_RECORD },
  },
  match: { default: { securityToken: SECURITY_TOKEN } },
};

/** Every call on an application proves it with the application's security token. */
const SECURITY_TOKEN_ERRORS = ['NOT_FOUND', 'INVALID_SECURITY_TOKEN'] as const;
const VERIFIED_FIRST =
  'The security token first (404 for an application that is not yours, 403 for a wrong token; nothing changes).';

const AUTHENTICATION: PathGroup = {
  tag: { name: 'Authentication' },
  operations: {
    'POST /auth/token': {
      operationId: 'exchangeApiKey',
      summary: 'Exchange your API key for an access token',
      description:
        'Send the key in `X-API-Key`. The token lasts 15 minutes; exchange again when one expires. Revoking the key ends its tokens.',
      security: [{ apiKeyHeader: [] }],
      body: { schema: 'TokenRequest', examples: EXAMPLES_B.token },
      success: { description: 'An access token.', data: 'AccessToken', headers: NO_STORE },
      errors: [
        refusal(validateTokenRequest({ grantType: 'password' })),
        {
          code: 'UNAUTHORIZED',
          message: 'A valid API key is required: send X-API-Key: <API key> with the body {"grantType": "api_key"}',
        },
      ],
    },
  },
};

const APPLICATIONS: PathGroup = {
  tag: { name: 'Applications' },
  operations: {
    'POST /applications': {
      operationId: 'createApplicationB',
      summary: 'Create an application with flat fields',
      description:
        'A personal loan. Answers the `applicationId` and the `securityToken`, shown this once. The required fields are enough to reach offers (indicative ones); every other field of steps 2-5 may come here, or later by PATCH, for pre-qualified offers.',
      parameters: ['IdempotencyKey'],
      body: { schema: 'CreateApplicationBRequest', examples: EXAMPLES_B.create },
      success: {
        status: 201,
        description: 'Created, in status `draft` (`in_progress` when fields of steps 2-4 made complete steps).',
        data: 'CreatedApplicationB',
        headers: { ...NO_STORE, ...REPLAYED },
      },
      errors: [
        refusal(validateVariantBCreate({ ...SPEC_CREATE, email: `${'j'.repeat(250)}@example.com` })),
        refusal(validateVariantBCreate({ ...SPEC_CREATE, loanAmount: 999 })),
        ...IDEMPOTENCY_CONFLICTS,
      ],
    },
    'PATCH /applications/{applicationId}': {
      operationId: 'updateApplicationB',
      summary: 'Add or replace fields',
      description: `${VERIFIED_FIRST} Fields of steps 2-4 may change at any time (after the credit check, the next match uses them); step 5's fields until the credit check.`,
      parameters: ['ApplicationId'],
      body: { schema: 'UpdateApplicationBRequest', examples: EXAMPLES_B.update },
      success: { description: 'Changed.', data: 'UpdatedApplicationB' },
      errors: [
        refusal(validateVariantBPatch({ securityToken: SECURITY_TOKEN, loanTerm: 9 })),
        ...SECURITY_TOKEN_ERRORS,
        {
          code: 'CREDIT_CHECK_ALREADY_COMPLETED',
          message: "phone: the applicant's details cannot change after the credit check, which ran on them",
        },
        'CREDIT_CHECK_IN_PROGRESS',
        'PERSONAL_DATA_ERASED',
      ],
    },
    'POST /applications/{applicationId}/credit-check': {
      operationId: 'runCreditCheckB',
      summary: 'Run the soft credit check',
      description: `${VERIFIED_FIRST} Then Variant A's checks, except that steps 2-4 and \`dateOfBirth\` are not needed. One check per application.`,
      parameters: ['ApplicationId', 'IdempotencyKey', 'SandboxScore'],
      body: { schema: 'CreditCheckBRequest', examples: EXAMPLES_B.creditCheck },
      success: CREDIT_CHECK_SUCCESS,
      errors: [
        refusal(
          validateApplicantDetailsB({ firstName, lastName, email, mobileNumber: phone }, new Date(EXAMPLE_IDS.at)),
        ),
        ...SECURITY_TOKEN_ERRORS,
        ...CREDIT_CHECK_CONFLICTS.filter((code) => code !== 'STEPS_INCOMPLETE'),
      ],
    },
    'POST /applications/{applicationId}/match': {
      operationId: 'matchApplicationB',
      summary: 'Match offers',
      description: `${VERIFIED_FIRST} Then Variant A's match, on what the application tells: offers are \`indicative\` when some rule could not be assessed.`,
      parameters: ['ApplicationId'],
      body: { schema: 'SecurityTokenRequest', examples: EXAMPLES_B.match },
      success: { description: 'Accepted offers, pre-qualified first, and near-misses.', data: 'MatchResult' },
      examples: { default: MATCH_EXAMPLE },
      errors: [
        refusal(validateSecurityTokenRequest({})),
        ...SECURITY_TOKEN_ERRORS,
        'CREDIT_CHECK_REQUIRED',
        // An application carried over from Variant A may lack what matching needs (a car loan's own steps).
        { code: 'STEPS_INCOMPLETE', message: 'Matching needs more of the application: step 2 loanAmount' },
      ],
    },
    'POST /applications/{applicationId}/security-token': {
      operationId: 'issueSecurityTokenB',
      summary: 'Issue a new security token',
      description:
        'For any application of the partner, one made through Variant A included: carries it over to Variant B, or replaces a lost token. The previous token stops working.',
      parameters: ['ApplicationId'],
      success: { description: 'The new token, shown this once.', data: 'IssuedSecurityToken', headers: NO_STORE },
      examples: { default: { securityToken: SECURITY_TOKEN } },
      errors: ['NOT_FOUND'],
    },
  },
};

/** Variant B's document for a listener reached at `options.publicUrl`. */
export function variantBDocument(options: DocumentOptions): Schema {
  return contractDocument(options, {
    name: 'Variant B',
    description:
      'The token-exchange contract over the same applications as Variant A, complete on its own. Exchange your API key at `POST /auth/token` for a 15-minute access token, send it as `Authorization: Bearer <access token>`, create an application with flat fields, run the credit check and match, proving each call on an application with its `securityToken`. `PATCH /applications/{applicationId}` adds fields later. ' +
      'Limits are per partner per hour by tier (Free 100, Standard 1000, Enterprise 10000 by default), token exchanges included.',
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
    // Its 401 is about access tokens, its 429 about the tier's hourly limit.
    examples: [
      { code: 'UNAUTHORIZED', message: TOKEN_REFUSALS.missing },
      { code: 'UNAUTHORIZED', message: TOKEN_REFUSALS.expired },
      {
        code: 'RATE_LIMITED',
        message: 'Rate limit exceeded: 1000 requests per hour; retry after the time in Retry-After',
      },
    ],
    groups: [AUTHENTICATION, APPLICATIONS, CONSENTS, REFERRALS, WEBHOOKS, SERVICE],
  });
}
