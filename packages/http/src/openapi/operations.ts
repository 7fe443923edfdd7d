/**
 * One operation of a document from a short spec (a row of a path module's table): `X-Request-Id` in and
 * out, rate-limit headers after authentication, and one error response per status, its body narrowed to
 * that status's codes, with examples. The codes every authenticated operation may answer are added here;
 * their examples are the operation's own, then its contract's (the words of its 401 and 429), then
 * `error-codes.ts`'s.
 */
import { ERROR_CODES, type FieldViolation, type Result } from '@loanmatch/domain';
import { STATUS_OF, type HttpErrorCode } from '../errors';
import { ref, type Schema } from './schemas';

const paramRef = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` });
export const headerRef = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });
/** `{success: true, data: <schema>}`. */
const envelope = (data: Schema): Schema => ({
  type: 'object',
  properties: { success: { const: true }, data },
  required: ['success', 'data'],
});
export const REPLAYED = { 'Idempotency-Replayed': headerRef('IdempotencyReplayed') };
export const NO_STORE = { 'Cache-Control': headerRef('CacheControlNoStore') };

/** Ids and times the examples share; an offer's id is the `reference` of its referral (the `lm_ref`). */
export const EXAMPLE_IDS = {
  applicationId: '6f1c2b8e-3d4a-4f5b-9c7d-2e1f0a9b8c7d',
  webhookId: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
  offerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  referralId: '5e4d3c2b-1a09-4f8e-8d7c-6b5a4f3e2d1c',
  at: '2026-11-22T03:20:00.000Z',
};
/** The day the examples' refusals are worked out on, so the documents do not change with the clock. */
export const EXAMPLE_DAY = new Date('2026-11-25T00:00:00Z');

/** An error answer as the service gives it. */
export interface ErrorExample {
  readonly code: HttpErrorCode;
  readonly message: string;
  readonly details?: readonly FieldViolation[];
}

/** The example of a refusal: the very message and details of a failed domain result. */
export function refusal(result: Result<unknown>): ErrorExample {
  if (result.ok) throw new TypeError('an error example must come from a refusal');
  return result.error;
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  /** Parameter components by name, or a parameter of this operation alone. */
  parameters?: Array<string | Schema>;
  /** The request body's schema component and its examples. */
  body?: { schema: string; examples: Record<string, unknown> };
  /** The success answer: status (200), description, the `data` component of its envelope, other content, headers. */
  success: { status?: number; description: string; data?: string; content?: Schema; headers?: Record<string, Schema> };
  /** Examples of the success answer's `data`. */
  examples?: Record<string, unknown>;
  /**
   * What it may answer beyond the codes of every authenticated operation: a code, or an example of its
   * answer (every `VALIDATION_ERROR` needs one).
   */
  errors?: ReadonlyArray<HttpErrorCode | ErrorExample>;
  /** `[]` for the public routes (no key, no rate limit); otherwise the document's default scheme. */
  security?: Schema[];
}

/** Every authenticated operation may also answer these. */
const ALWAYS: readonly HttpErrorCode[] = ['UNAUTHORIZED', 'RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/** …and the body reader's refusals: a request that takes no body may still send one. */
const BODY: readonly HttpErrorCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
const RATE_LIMIT_HEADERS = { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimitPolicy') };

const withExamples = (examples: Record<string, unknown> | undefined, wrap: (value: unknown) => unknown) =>
  examples
    ? { examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value: wrap(value) }])) }
    : {};

/** The operation of `spec`, under the tag of its group, with its contract's examples of the common codes. */
export function operation(spec: OperationSpec, tag: string, contractExamples: readonly ErrorExample[]): Schema {
  const open = spec.security?.length === 0;
  const errors = spec.errors ?? [];
  const own = errors.filter((error) => typeof error !== 'string');
  const codes = [
    ...new Set([
      ...errors.map((error) => (typeof error === 'string' ? error : error.code)),
      ...(open ? ['INTERNAL_ERROR' as const] : [...BODY, ...ALWAYS]),
    ]),
  ];
  const examples = [...own, ...contractExamples.filter((example) => !own.some(({ code }) => code === example.code))];
  const { status = 200, description, data, headers } = spec.success;
  const content = {
    ...(data && { 'application/json': { schema: envelope(ref(data)), ...withExamples(spec.examples, dataOf) } }),
    ...spec.success.content,
  };
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [tag],
    ...(spec.security ? { security: spec.security } : {}),
    parameters: [
      ...(spec.parameters ?? []).map((p) => (typeof p === 'string' ? paramRef(p) : p)),
      paramRef('XRequestId'),
    ],
    ...(spec.body && {
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: ref(spec.body.schema), ...withExamples(spec.body.examples, (v) => v) },
        },
      },
    }),
    responses: {
      [String(status)]: {
        description,
        headers: { 'X-Request-Id': headerRef('XRequestId'), ...(open ? {} : RATE_LIMIT_HEADERS), ...headers },
        ...(Object.keys(content).length > 0 && { content }),
      },
      ...errorResponses(codes, examples, open),
    },
  };
}

const dataOf = (value: unknown) => ({ success: true, data: value });

function errorResponses(codes: HttpErrorCode[], examples: readonly ErrorExample[], open: boolean) {
  const byStatus = new Map<number, HttpErrorCode[]>();
  for (const code of codes) byStatus.set(STATUS_OF[code], [...(byStatus.get(STATUS_OF[code]) ?? []), code]);
  const out: Record<string, Schema> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, Schema> = { 'X-Request-Id': headerRef('XRequestId') };
    if (!open && status !== 401) Object.assign(headers, RATE_LIMIT_HEADERS);
    if (status === 429 || (status === 503 && !open)) headers['Retry-After'] = headerRef('RetryAfter');
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

/** The examples of one code, named by the code (and the field they refuse, when there are several). */
function namedExamples(code: HttpErrorCode, examples: readonly ErrorExample[]): Array<[string, Schema]> {
  const own = examples.filter((example) => example.code === code);
  // The contract's message of a validation error is no example of this operation's input.
  if (own.length === 0 && code === 'VALIDATION_ERROR')
    throw new TypeError(`an operation that answers ${code} must show its own example`);
  const chosen = own.length > 0 ? own : [{ code, message: ERROR_CODES[code].example }];
  return chosen.map(({ message, details }, i) => [
    chosen.length === 1 ? code : `${code}: ${details?.[0]?.field ?? i + 1}`,
    { value: { success: false, error: code, message, ...(details ? { details } : {}) } },
  ]);
}
