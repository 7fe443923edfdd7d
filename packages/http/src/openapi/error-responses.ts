/**
 * The error answers of an operation: one response per status, its body narrowed to that status's codes,
 * and examples that belong to the operation. A validation example is the refusal the domain itself gives
 * for a bad value of this operation's input (`refusal`); other codes show the contract's message unless
 * the operation or the contract gives its own words.
 */
import { ERROR_CODES, type FieldViolation, type Result } from '@loanmatch/domain';
import { STATUS_OF, type HttpErrorCode } from '../errors';
import { headerRef, ref } from './components';
import type { Schema } from './schema-translation';

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

export interface ErrorOptions {
  codes: readonly HttpErrorCode[];
  /** Examples of this operation (or its contract), used instead of the contract's message for their codes. */
  examples: readonly ErrorExample[];
  /** Rate-limit headers on every answer after authentication (all but 401). */
  rateLimited: boolean;
  /** `WWW-Authenticate` value the 401 carries. */
  authenticated: boolean;
}

/** The error responses of an operation: one per status, the body narrowed to that status's codes, examples of each. */
export function errorResponses({ codes, examples, rateLimited, authenticated }: ErrorOptions): Record<string, Schema> {
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
