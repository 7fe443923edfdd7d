/**
 * The helper that gives every operation the same frame: `X-Request-Id` in and out, rate-limit headers
 * after authentication, and the error responses of its codes with examples of its own. A path module
 * (an operation of one contract, or the webhook routes both share) calls it with its contract's words for
 * the codes every authenticated operation may answer, so adding a path is a change in one module.
 */
import type { HttpErrorCode } from '../errors';
import { envelope, headerRef, paramRef } from './components';
import { errorResponses, type ErrorExample } from './error-responses';
import type { Schema } from './schema-translation';

/** Every authenticated operation may also answer these. */
const ALWAYS: readonly HttpErrorCode[] = ['UNAUTHORIZED', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/**
 * …and these, which the body reader answers on every authenticated route (a request that takes no body
 * may still send one): a body that is not JSON, too large, or not sent as JSON.
 */
const BODY: readonly HttpErrorCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/** What a contract says for the codes of every authenticated operation (its 401 and 429 read differently). */
export interface Contract {
  readonly examples: readonly ErrorExample[];
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: Schema[];
  requestBody?: { schema: Schema; examples?: Record<string, unknown>; required?: boolean; description?: string };
  /** The success answer: status, the `data` schema (or a whole body for non-JSON answers), headers, examples. */
  success: {
    status: number;
    description: string;
    data?: Schema;
    headers?: Record<string, Schema>;
    examples?: Record<string, unknown>;
    content?: Schema;
  };
  /** Codes of this operation beyond the ones every authenticated operation has. */
  errors?: readonly HttpErrorCode[];
  /** This operation's own examples of its error answers (every `VALIDATION_ERROR` needs one). */
  examples?: readonly ErrorExample[];
  /** `false` for the public routes (tracking, health, reference): no key, no rate limit. */
  authenticated?: boolean;
  security?: Schema[];
}

const RATE_LIMIT_HEADERS = { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimitPolicy') };

export function operation(spec: OperationSpec, contract: Contract): Schema {
  const authenticated = spec.authenticated ?? true;
  const codes: HttpErrorCode[] = [...(spec.errors ?? [])];
  if (authenticated) codes.push(...BODY, ...ALWAYS);
  else codes.push('INTERNAL_ERROR');
  const own = new Set((spec.examples ?? []).map((example) => example.code));
  const examples = [...(spec.examples ?? []), ...contract.examples.filter((example) => !own.has(example.code))];

  const successHeaders = {
    'X-Request-Id': headerRef('XRequestId'),
    ...(authenticated ? RATE_LIMIT_HEADERS : {}),
    ...spec.success.headers,
  };
  const successContent =
    spec.success.content ??
    (spec.success.data
      ? {
          'application/json': {
            schema: envelope(spec.success.data),
            ...(spec.success.examples
              ? { examples: mapExamples(spec.success.examples, (value) => ({ success: true, data: value })) }
              : {}),
          },
        }
      : undefined);

  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    ...(spec.security ? { security: spec.security } : authenticated ? {} : { security: [] }),
    parameters: [...(spec.parameters ?? []), paramRef('XRequestId')],
    ...(spec.requestBody
      ? {
          requestBody: {
            required: spec.requestBody.required ?? true,
            ...(spec.requestBody.description ? { description: spec.requestBody.description } : {}),
            content: {
              'application/json': {
                schema: spec.requestBody.schema,
                ...(spec.requestBody.examples
                  ? { examples: mapExamples(spec.requestBody.examples, (value) => value) }
                  : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [String(spec.success.status)]: {
        description: spec.success.description,
        headers: successHeaders,
        ...(successContent ? { content: successContent } : {}),
      },
      ...errorResponses({ codes: [...new Set(codes)], examples, rateLimited: authenticated, authenticated }),
    },
  };
}

function mapExamples(examples: Record<string, unknown>, wrap: (value: unknown) => unknown): Record<string, Schema> {
  return Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value: wrap(value) }]));
}

// ---------------------------------------------------------------------------------------------
// Ids and times the examples share
// ---------------------------------------------------------------------------------------------

export const EXAMPLE_IDS = {
  applicationId: '6f1c2b8e-3d4a-4f5b-9c7d-2e1f0a9b8c7d',
  webhookId: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
  at: '2026-11-22T03:20:00.000Z',
};
