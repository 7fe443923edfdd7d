/**
 * The helper that gives every operation the same frame: `X-Request-Id` in and out, rate-limit headers
 * after authentication, and the error responses of its codes with examples of its own. A path module
 * (an operation of one contract, or the webhook routes both share) calls it with its contract's words for
 * the codes every authenticated operation may answer, so adding a path is a change in one module.
 */
import { ERROR_CODES, type FieldViolation, type Result } from '@loanmatch/domain';
import { STATUS_OF, type HttpErrorCode } from '../errors';
import { ref, type Schema } from './schemas';

export { ref, type Schema };
export const paramRef = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` });
export const headerRef = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });
/** `{success: true, data: <schema>}`. */
export const envelope = (data: Schema): Schema => ({
  type: 'object',
  properties: { success: { const: true }, data },
  required: ['success', 'data'],
});

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
// The error answers of an operation: one response per status, its body narrowed to that status's
// codes, and examples that belong to the operation. A validation example is the refusal the domain
// itself gives for a bad value of this operation's input (`refusal`); other codes show the contract's
// message unless the operation or the contract gives its own words.
// ---------------------------------------------------------------------------------------------

/** An error answer as the service gives it. */
export interface ErrorExample {
  readonly code: HttpErrorCode;
  readonly message: string;
  readonly details?: readonly FieldViolation[];
}

/** The example of a refusal: the very message and details of a failed domain result. */
export function refusal(result: Result<unknown>): ErrorExample {
  if (result.ok) throw new TypeError('an error example must come from a refusal');
  const { code, message, details } = result.error;
  return details ? { code, message, details } : { code, message };
}

/** Codes whose contract message is no example on its own: each operation must show its own refusal. */
const OWN_EXAMPLE_REQUIRED: ReadonlySet<HttpErrorCode> = new Set(['VALIDATION_ERROR']);

interface ErrorOptions {
  codes: readonly HttpErrorCode[];
  /** Examples of this operation (or its contract), used instead of the contract's message for their codes. */
  examples: readonly ErrorExample[];
  /** Rate-limit headers on every answer after authentication (all but 401). */
  rateLimited: boolean;
  /** `WWW-Authenticate` value the 401 carries. */
  authenticated: boolean;
}

/** The error responses of an operation: one per status, the body narrowed to that status's codes, examples of each. */
function errorResponses({ codes, examples, rateLimited, authenticated }: ErrorOptions): Record<string, Schema> {
  const byStatus = new Map<number, HttpErrorCode[]>();
  for (const code of codes) byStatus.set(STATUS_OF[code], [...(byStatus.get(STATUS_OF[code]) ?? []), code]);
  const out: Record<string, Schema> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, Schema> = { 'X-Request-Id': headerRef('XRequestId') };
    if (rateLimited && status !== 401)
      Object.assign(headers, { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimitPolicy') });
    if (status === 429 || (status === 503 && authenticated)) headers['Retry-After'] = headerRef('RetryAfter');
    if (status === 401) headers['WWW-Authenticate'] = headerRef('WWWAuthenticate');
    out[String(status)] = {
      description: list.map((code) => `\`${code}\``).join(', '),
      headers,
      content: {
        'application/json': {
          schema: { allOf: [ref('Error'), { properties: { error: { enum: list } } }] },
          examples: Object.fromEntries(list.flatMap((code) => namedExamples(code, examples))),
        },
      },
    };
  }
  return out;
}

function namedExamples(code: HttpErrorCode, examples: readonly ErrorExample[]): Array<[string, Schema]> {
  const own = examples.filter((example) => example.code === code);
  if (own.length === 0 && OWN_EXAMPLE_REQUIRED.has(code))
    throw new TypeError(`an operation that answers ${code} must show its own example`);
  const chosen = own.length > 0 ? own : [{ code, message: ERROR_CODES[code].example }];
  return chosen.map((example, i) => [
    chosen.length === 1 ? code : `${code}: ${example.details?.[0]?.field ?? i + 1}`,
    { value: { success: false, error: code, message: example.message, ...detailsOf(example) } },
  ]);
}

const detailsOf = (example: ErrorExample) => (example.details ? { details: example.details } : {});

// ---------------------------------------------------------------------------------------------
// Ids and times the examples share
// ---------------------------------------------------------------------------------------------

export const EXAMPLE_IDS = {
  applicationId: '6f1c2b8e-3d4a-4f5b-9c7d-2e1f0a9b8c7d',
  webhookId: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
  at: '2026-11-22T03:20:00.000Z',
};
