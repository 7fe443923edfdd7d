/** The properties every answer has, whatever was sent, and the check that no prototype was polluted. */
import { STATUS_OF } from '@loanmatch/http';
import { describeRequest, type FuzzRequest, type FuzzResponse } from './request';

/** Keys that reach an object's prototype when assigned rather than defined. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A stack frame (`at fn (/path/file.ts:12:3)`, `at /path/file.js:1:2`) or a source path. */
const LEAK_PATTERNS: readonly RegExp[] = [
  /\bat \S+ \(\S+:\d+:\d+\)/,
  /\bat \/\S+:\d+:\d+/,
  /\/work\//,
  /\.ts:\d/,
  /node_modules/,
  /\bat async\b/,
];
/** Fields that would carry a credit score; `creditScoreEstimate` is the partner's own step-2 answer. */
const SCORE_FIELD = /^(score|creditScore|bureauScore|scoreValue)$/i;

export interface AnswerExpectations {
  /** Strings that must never appear in any answer: keys, tokens, secrets, their digests, applicant details. */
  secrets: () => readonly string[];
  /** Paths whose successful answer is a redirect rather than JSON (the tracking link). */
  redirects?: RegExp;
  /** Paths whose successful answer may be CSV when asked for (the referral report): a header row first. */
  csv?: { path: RegExp; header: string };
}

/**
 * The properties every answer has, whatever was sent: not a 5xx; `X-Request-Id`, the caller's only when
 * sane; a JSON envelope whose error code belongs to its status; no stack, source path, secret or score.
 * Throws an Error that names the broken property.
 */
export function checkAnswer(req: FuzzRequest, res: FuzzResponse, expect: AnswerExpectations): void {
  const fail = (what: string) => {
    throw new Error(`${what}\n  request: ${describeRequest(req)}\n  answer: ${res.status} ${res.text.slice(0, 300)}`);
  };
  if (res.status >= 500) fail(`a ${res.status} answer`);

  const id = res.headers['x-request-id'];
  if (typeof id !== 'string' || !SANE_REQUEST_ID.test(id))
    fail(`X-Request-Id missing or not sane: ${JSON.stringify(id)}`);
  const sent = Object.entries(req.headers).find(([name]) => name.toLowerCase() === 'x-request-id')?.[1];
  const received = sent?.replace(/^[ \t]+|[ \t]+$/g, ''); // HTTP trims a header value's edges
  if (received !== undefined && SANE_REQUEST_ID.test(received)) {
    if (id !== received) fail(`the sane X-Request-Id ${JSON.stringify(sent)} was not kept`);
  } else {
    if (!UUID.test(String(id)))
      fail(`X-Request-Id ${JSON.stringify(id)} is not a generated id (sent ${JSON.stringify(sent)})`);
    if (sent !== undefined && sent.length >= 12 && res.text.includes(sent))
      fail('the refused X-Request-Id is echoed in the body');
  }

  for (const secret of expect.secrets()) if (secret && res.text.includes(secret)) fail('a secret in the answer');
  for (const pattern of LEAK_PATTERNS)
    if (pattern.test(res.text)) fail(`a stack frame or source path in the answer (${pattern})`);

  if (req.method === 'HEAD') return;
  if (res.status >= 300 && res.status < 400) {
    if (!expect.redirects?.test(req.path) || res.status !== 302 || typeof res.headers.location !== 'string')
      fail('an unexpected redirect');
    return;
  }
  if (expect.csv?.path.test(req.path) && String(res.headers['content-type']).startsWith('text/csv')) {
    if (res.status !== 200 || !res.text.startsWith(`${expect.csv.header}\r\n`)) fail('a CSV answer without its header');
    return;
  }
  if (!String(res.headers['content-type']).startsWith('application/json'))
    fail(`not JSON: ${String(res.headers['content-type'])}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    fail('a body that does not parse');
  }
  const envelope = body as { success?: unknown; data?: unknown; error?: unknown; message?: unknown; details?: unknown };
  if (envelope?.success === true) {
    if (res.status >= 400 || !('data' in envelope)) fail('a success envelope without data, or with an error status');
  } else if (envelope?.success === false) {
    const code = envelope.error;
    if (typeof code !== 'string' || STATUS_OF[code as keyof typeof STATUS_OF] !== res.status)
      fail(`error code ${String(code)} does not belong to ${res.status}`);
    if (typeof envelope.message !== 'string' || envelope.message.length === 0) fail('an error without a message');
    if (envelope.details !== undefined && !isViolationList(envelope.details))
      fail('details that are not {field, rule, message} items');
  } else {
    fail('not the contract envelope');
  }
  const scoreKey = findKey(body, (key) => SCORE_FIELD.test(key));
  if (scoreKey) fail(`a score field "${scoreKey}" in the answer`);
}

function isViolationList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every((v) => typeof v?.field === 'string' && typeof v?.rule === 'string' && typeof v?.message === 'string')
  );
}

/** The first key anywhere in a JSON value that `test` accepts. Iterative, as answers are ours but may be deep. */
export function findKey(value: unknown, test: (key: string) => boolean): string | undefined {
  const pending = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      if (!Array.isArray(item) && test(key)) return key;
      pending.push(child);
    }
  }
  return undefined;
}

/** Own property names of Object.prototype now, to compare with after a run. */
export function prototypeSnapshot(): string {
  return JSON.stringify([
    Object.getOwnPropertyNames(Object.prototype).sort(),
    Object.getOwnPropertyNames(Array.prototype).sort(),
  ]);
}

/** Throws when Object.prototype (or Array.prototype) gained a property since `snapshot`. */
export function checkPrototypes(snapshot: string): void {
  const probe = {} as Record<string, unknown>;
  if (probe.polluted !== undefined || prototypeSnapshot() !== snapshot)
    throw new Error('Object.prototype or Array.prototype was polluted');
}
