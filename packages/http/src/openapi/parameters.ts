/** The headers and parameters of both documents, their schemas and bounds read from the domain. */
import {
  HEADER_SCHEMAS,
  SANDBOX_SCORE_RANGE,
  SANDBOX_SCORE_WORDS,
  TRACKING_TOKEN_SCHEMA,
  pageQuerySchema,
  uuid,
} from '@loanmatch/domain';
import { toOpenApiSchema, type Schema } from './schemas';

const { idempotencyKey, requestId } = HEADER_SCHEMAS;
const { limit, cursor } = pageQuerySchema.properties;

/** A response header; `required` when every answer that lists it carries it. */
const header = (description: string, schema: Schema, required = false): Schema => ({
  description,
  schema,
  ...(required ? { required } : {}),
});

export const HEADERS: Record<string, Schema> = {
  XRequestId: header(
    "On every response: the caller's `X-Request-Id` when it is valid, else a new UUID. Quote it to support.",
    { ...requestId },
    true,
  ),
  RateLimit: header(
    'IETF draft-8: the quota policy, what remains (`r`) and seconds until reset (`t`), e.g. `"a"; r=119; t=60`.',
    { type: 'string' },
  ),
  RateLimitPolicy: header('IETF draft-8: the quota (`q`) per window of `w` seconds, e.g. `"a"; q=120; w=60`.', {
    type: 'string',
  }),
  RetryAfter: header('Seconds to wait before retrying.', { type: 'string', pattern: '^[0-9]+$' }, true),
  IdempotencyReplayed: header(
    '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    { const: 'true' },
  ),
  WWWAuthenticate: header('The authentication scheme expected.', { type: 'string' }, true),
  CacheControlNoStore: header(
    'The answer holds a secret shown once: not to be stored by caches.',
    { const: 'no-store' },
    true,
  ),
  Location: header("The lender's address, with `lm_ref=<offerId>`.", { type: 'string', format: 'uri' }, true),
};

export const PARAMETERS: Record<string, Schema> = {
  XRequestId: {
    name: 'X-Request-Id',
    in: 'header',
    description: 'Your id for this request, echoed in the response (when not valid, the service makes one).',
    schema: { ...requestId },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes a retry safe: the same key with the same request answers the first response again (`Idempotency-Replayed: true`) and does nothing twice. Scoped to your partner account, kept 24 hours.',
    schema: { ...idempotencyKey },
  },
  SandboxScore: {
    name: 'X-Sandbox-Score',
    in: 'header',
    description:
      "Sandbox only (a live server refuses it): the simulated result. A word level, a whole number on Equifax Australia's scale, or `unavailable` (a bureau outage: the check completes in degraded mode). Without it the sandbox draws a stable score from the applicant's details.",
    schema: {
      oneOf: [
        { type: 'string', enum: [...SANDBOX_SCORE_WORDS] },
        { type: 'integer', format: 'int32', ...SANDBOX_SCORE_RANGE, description: 'Written as its digits (`742`).' },
      ],
    },
    examples: { level: { value: 'good' }, number: { value: 742 }, outage: { value: 'unavailable' } },
  },
  ApplicationId: {
    name: 'applicationId',
    in: 'path',
    required: true,
    description: 'The `applicationId` create answered.',
    schema: uuid,
  },
  WebhookId: { name: 'webhookId', in: 'path', required: true, schema: uuid },
  Limit: { name: 'limit', in: 'query', schema: { ...toOpenApiSchema(limit, 'response'), default: limit.default } },
  Cursor: {
    name: 'cursor',
    in: 'query',
    description: 'The `nextCursor` of the previous page.',
    schema: toOpenApiSchema(cursor),
  },
  TrackingToken: {
    name: 'token',
    in: 'path',
    required: true,
    description: "The signed token of an offer's `trackingUrl`.",
    schema: { ...TRACKING_TOKEN_SCHEMA },
  },
};
