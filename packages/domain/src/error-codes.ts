/**
 * Every error code the service answers with, and for each its HTTP status, the layer that raises it
 * and a message in the service's words (the OpenAPI documents' example). The domain's `ErrorCode`,
 * the HTTP layer's `STATUS_OF`, the documents and the client SDK's `KnownErrorCode` are derived from
 * this table, so a new code is one row here. It imports nothing; the client SDK reads its types only.
 */
export interface ErrorCodeEntry {
  readonly status: number;
  /** `domain`: a `DomainError` may carry it (the HTTP layer answers it too); `http`: only the HTTP layer. */
  readonly raisedBy: 'domain' | 'http';
  readonly example: string;
}

// The OpenAPI documents list the codes in this order.
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, raisedBy: 'domain', example: 'loanAmount: must be between 1000 and 100000' },
  INVALID_JSON: { status: 400, raisedBy: 'http', example: 'The request body is not valid JSON' },
  UNAUTHORIZED: {
    status: 401,
    raisedBy: 'domain',
    example: 'A valid API key is required: send Authorization: Bearer <API key>',
  },
  FORBIDDEN: { status: 403, raisedBy: 'http', example: 'Not allowed' },
  INVALID_SECURITY_TOKEN: {
    status: 403,
    raisedBy: 'domain',
    example: 'securityToken: is not the security token of this application',
  },
  NOT_FOUND: { status: 404, raisedBy: 'domain', example: 'Application not found' },
  STEP_OUT_OF_ORDER: { status: 409, raisedBy: 'domain', example: 'step: step 3 cannot be saved before step 2' },
  STEPS_INCOMPLETE: {
    status: 409,
    raisedBy: 'domain',
    example: 'Steps 1-4 must be saved before the credit check; missing step 4',
  },
  CREDIT_CHECK_REQUIRED: {
    status: 409,
    raisedBy: 'domain',
    example: 'Run the credit check before matching: POST /applications/{applicationId}/credit-check',
  },
  CREDIT_CHECK_ALREADY_COMPLETED: {
    status: 409,
    raisedBy: 'domain',
    example: 'The credit check for this application has already completed; an application has one soft check',
  },
  CREDIT_CHECK_IN_PROGRESS: {
    status: 409,
    raisedBy: 'domain',
    example: 'A credit check for this application is running; retry shortly',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    raisedBy: 'domain',
    example: 'The first request with this Idempotency-Key is still running; retry shortly',
  },
  IDEMPOTENCY_KEY_UNRESOLVED: {
    status: 409,
    raisedBy: 'domain',
    example:
      'The first request with this Idempotency-Key may have partly completed; check the application before retrying with a new key',
  },
  WEBHOOK_DISABLED: {
    status: 409,
    raisedBy: 'domain',
    example:
      'This webhook is disabled (The endpoint answered 410 Gone at 2026-11-22T03:20:00.000Z); register the endpoint again once it is fixed',
  },
  WEBHOOK_LIMIT_REACHED: {
    status: 409,
    raisedBy: 'domain',
    example: 'A partner may have 10 webhooks; delete one before registering another',
  },
  /** An operator erased the applicant's personal details: no credit check can run on this application. */
  PERSONAL_DATA_ERASED: {
    status: 409,
    raisedBy: 'domain',
    example:
      'The personal data of this application was erased; it takes no personal data again. Start a new application',
  },
  /** A lender's outcome event that the referral's lifecycle does not allow where it falls (by `occurredAt`). */
  OUTCOME_TRANSITION_INVALID: {
    status: 409,
    raisedBy: 'domain',
    example: 'type: a funded referral cannot become declined; a funded referral may only become cancelled',
  },
  /** An operator's change would leave a partner with both contracts sunset. */
  NO_CONTRACT_LEFT: {
    status: 409,
    raisedBy: 'domain',
    example:
      'Variant A and Variant B would both be sunset for this partner, leaving no contract; send force: true to do so all the same',
  },
  /** The contract is past its sunset for the partner, or in a brownout. */
  CONTRACT_RETIRED: {
    status: 410,
    raisedBy: 'http',
    example:
      'Variant A was retired on 2027-06-30T00:00:00.000Z: move to Variant B; see https://partners.example.com/migrating-to-variant-b',
  },
  LINK_EXPIRED: { status: 410, raisedBy: 'domain', example: 'This offer link has expired; ask for a new match' },
  /** The applicant's personal data was erased: the lead is gone, its disclosure records stay. */
  LEAD_ERASED: {
    status: 410,
    raisedBy: 'domain',
    example: "The applicant's personal data was erased; this lead can no longer be read",
  },
  LEAD_EXPIRED: {
    status: 410,
    raisedBy: 'domain',
    example: 'This lead is older than 30 days and can no longer be read',
  },
  PAYLOAD_TOO_LARGE: { status: 413, raisedBy: 'http', example: 'The request body is larger than 32 KB' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    raisedBy: 'http',
    example: 'The request body must be JSON, sent with Content-Type: application/json',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    raisedBy: 'http',
    example: 'The request headers did not all arrive within 60 s; send the request again',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    raisedBy: 'http',
    example: 'The request headers are too large: keep them under 16 KB in all',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    raisedBy: 'domain',
    example: 'Idempotency-Key was already used for a different request; use a new key for a new request',
  },
  RATE_LIMITED: {
    status: 429,
    raisedBy: 'http',
    example: 'Rate limit exceeded: 120 requests per minute; retry after the time in Retry-After',
  },
  INTERNAL_ERROR: {
    status: 500,
    raisedBy: 'http',
    example: 'An internal error occurred; quote request id 3f0c2a9e-5b1d-4c61-9a57-0d6f3e2b8c41 to support',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    raisedBy: 'domain',
    example: 'The service is temporarily unavailable; retry shortly',
  },
} as const satisfies Readonly<Record<string, ErrorCodeEntry>>;

/** Every code the service answers with. */
export type ServiceErrorCode = keyof typeof ERROR_CODES;

/** The codes a `DomainError` may carry. */
export type DomainErrorCode = {
  [C in ServiceErrorCode]: (typeof ERROR_CODES)[C]['raisedBy'] extends 'domain' ? C : never;
}[ServiceErrorCode];
