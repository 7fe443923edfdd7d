/**
 * Every error code the service answers with: its HTTP status, the layer that raises it (`http`: only the
 * HTTP layer) and the OpenAPI documents' example message. Everything else derives from this table.
 */
const domain = (status: number, example: string) => ({ status, raisedBy: 'domain' as const, example });
const http = (status: number, example: string) => ({ status, raisedBy: 'http' as const, example });

// The OpenAPI documents list the codes in this order.
export const ERROR_CODES = {
  VALIDATION_ERROR: domain(400, 'loanAmount: must be between 1000 and 100000'),
  INVALID_JSON: http(400, 'The request body is not valid JSON'),
  UNAUTHORIZED: domain(401, 'A valid API key is required: send Authorization: Bearer <API key>'),
  FORBIDDEN: http(403, 'Not allowed'),
  INVALID_SECURITY_TOKEN: domain(403, 'securityToken: is not the security token of this application'),
  NOT_FOUND: domain(404, 'Application not found'),
  STEP_OUT_OF_ORDER: domain(409, 'step: step 3 cannot be saved before step 2'),
  STEPS_INCOMPLETE: domain(409, 'Steps 1-4 must be saved before the credit check; missing step 4'),
  CREDIT_CHECK_REQUIRED: domain(
    409,
    'Run the credit check before matching: POST /applications/{applicationId}/credit-check',
  ),
  CREDIT_CHECK_ALREADY_COMPLETED: domain(
    409,
    'The credit check for this application has already completed; an application has one soft check',
  ),
  CREDIT_CHECK_IN_PROGRESS: domain(409, 'A credit check for this application is running; retry shortly'),
  IDEMPOTENCY_IN_PROGRESS: domain(409, 'The first request with this Idempotency-Key is still running; retry shortly'),
  IDEMPOTENCY_KEY_UNRESOLVED: domain(
    409,
    'The first request with this Idempotency-Key may have partly completed; check the application before retrying with a new key',
  ),
  WEBHOOK_DISABLED: domain(
    409,
    'This webhook is disabled (The endpoint answered 410 Gone at 2026-11-22T03:20:00.000Z); register the endpoint again once it is fixed',
  ),
  WEBHOOK_LIMIT_REACHED: domain(409, 'A partner may have 10 webhooks; delete one before registering another'),
  PERSONAL_DATA_ERASED: domain(
    409,
    'The personal data of this application was erased; it takes no personal data again. Start a new application',
  ),
  OUTCOME_TRANSITION_INVALID: domain(
    409,
    'type: a funded referral cannot become declined; a funded referral may only become cancelled',
  ),
  /** An operator's change would leave a partner with both contracts sunset. */
  NO_CONTRACT_LEFT: domain(
    409,
    'Variant A and Variant B would both be sunset for this partner, leaving no contract; send force: true (pnpm ops: --force) to do so all the same',
  ),
  /** The contract is past its sunset for the partner, or in a brownout. */
  CONTRACT_RETIRED: http(
    410,
    'Variant A was retired on 2027-06-30T00:00:00.000Z: move to Variant B; see https://partners.example.com/migrating-to-variant-b',
  ),
  LINK_EXPIRED: domain(410, 'This offer link has expired; ask for a new match'),
  /** The applicant's personal data was erased: the lead is gone, its disclosure records stay. */
  LEAD_ERASED: domain(410, "The applicant's personal data was erased; this lead can no longer be read"),
  LEAD_EXPIRED: domain(410, 'This lead is older than 30 days and can no longer be read'),
  PAYLOAD_TOO_LARGE: http(413, 'The request body is larger than 32 KB'),
  UNSUPPORTED_MEDIA_TYPE: http(415, 'The request body must be JSON, sent with Content-Type: application/json'),
  REQUEST_TIMEOUT: http(408, 'The request headers did not all arrive within 60 s; send the request again'),
  HEADERS_TOO_LARGE: http(431, 'The request headers are too large: keep them under 16 KB in all'),
  IDEMPOTENCY_KEY_REUSED: domain(
    422,
    'Idempotency-Key was already used for a different request; use a new key for a new request',
  ),
  RATE_LIMITED: http(429, 'Rate limit exceeded: 120 requests per minute; retry after the time in Retry-After'),
  INTERNAL_ERROR: http(
    500,
    'An internal error occurred; quote request id 3f0c2a9e-5b1d-4c61-9a57-0d6f3e2b8c41 to support',
  ),
  SERVICE_UNAVAILABLE: domain(503, 'The service is temporarily unavailable; retry shortly'),
};

export type ServiceErrorCode = keyof typeof ERROR_CODES;

export type DomainErrorCode = {
  [C in ServiceErrorCode]: (typeof ERROR_CODES)[C]['raisedBy'] extends 'domain' ? C : never;
}[ServiceErrorCode];
