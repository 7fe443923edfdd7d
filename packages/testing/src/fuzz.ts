/**
 * Property-based fuzzing of the three listeners (issue 6): generators of hostile bodies, headers and
 * path ids, a sender that puts them on the wire exactly (supertest on the app, no port), and the
 * checks that every answer and the database must pass whatever was sent. Each app's `test/fuzz.test.ts`
 * describes its own endpoints with these parts.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import request from 'supertest';
import type { Express } from 'express';
import type { Database } from '@loanmatch/db';
import {
  FORM_TYPES,
  STATUS_ORDER,
  readApplicantDetails,
  validateApplicantDetails,
  validateStepData,
  validateVariantBCreate,
  type DomainContext,
  type FormType,
} from '@loanmatch/domain';
import { STATUS_OF } from '@loanmatch/http';

// ---------------------------------------------------------------------------------------------
// Run settings
// ---------------------------------------------------------------------------------------------

/**
 * fast-check's settings for one property: `FUZZ_SEED` replays a failure (fast-check prints the seed and
 * path of every failure), otherwise each run draws a new seed; `FUZZ_RUNS_FACTOR` scales the run counts
 * for a longer local session.
 */
export function fuzzParameters(numRuns: number): { numRuns: number; seed: number } {
  const factor = Number(process.env.FUZZ_RUNS_FACTOR ?? 1);
  const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  return { numRuns: Math.max(1, Math.round(numRuns * (Number.isFinite(factor) && factor > 0 ? factor : 1))), seed };
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/** Keys that reach an object's prototype when assigned rather than defined. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Numbers at the edges of JSON and of JavaScript's doubles; NaN and ±Infinity are sent as null by JSON.stringify. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -(2 ** 53) - 1, -0, 5e-324, 0, 1, -1, 0.5, 999, 1000, 15_000, 100_000, 100_001, 2 ** 31, 1200, 1201),
  fc.integer(),
  fc.double(),
);

/** Text that storage or a naive decoder mishandles: NUL, lone surrogates, BOM, controls, combining marks. */
export const unicodeEdge: fc.Arbitrary<string> = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udbff\udfff',
  '\ud83d',
  '\ufeff',
  '\u202e',
  '\uffff',
  '\ufffd',
  '\u0085',
  '\u2028',
  '\u001b[31m',
  'a\u0301',
  '😀',
  'Zoë',
  '\\',
  '"',
);

/** Strings that break naive code: unicode edges, numeric and date look-alikes, markup, huge ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: unicodeEdge },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '15000',
      '15000.5',
      '-0',
      '1e5',
      '0x10',
      ' 15000',
      '9'.repeat(400),
      '14/07/1988',
      '1988-02-30',
      '29/02/2001',
      'true',
      'null',
      'personal',
      'car',
      'home',
      'api_key',
      '<script>alert(1)</script>',
      '${jndi:x}',
      '%00',
      '../../etc/passwd',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.constantFrom(1_000, 70_000, 400_000).map((n) => 'x'.repeat(n)) },
);

/** Object keys: the prototype's own names, known field names, and anything. */
export function hostileKey(fieldNames: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, 'toString', 'hasOwnProperty', 'valueOf', ...fieldNames), fc.string({ maxLength: 12 }));
}

/** Any JSON value, with hostile leaves and keys, a few levels deep. */
export function hostileJson(fieldNames: readonly string[] = []): fc.Arbitrary<unknown> {
  const key = hostileKey(fieldNames);
  const leaf = fc.oneof(fc.boolean(), fc.constant(null), hostileNumber, hostileString);
  return fc.letrec<{ value: unknown; array: unknown[]; object: Record<string, unknown> }>((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 3 }),
    object: fc.array(fc.tuple(key, tie('value')), { maxLength: 3 }).map(ownEntries),
  })).value;
}

/** An object of these entries, each an own property, `__proto__` included (as JSON.parse makes it). */
function ownEntries(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) defineOwn(out, key, value);
  return out;
}

interface Mutation {
  kind: 'replace' | 'add' | 'remove';
  /** Which field (replace, remove) or object (add) of the body, counted in document order. */
  pick: number;
  key: string;
  /** Candidates of each type: a replacement keeps the field's type most of the time. */
  string: string;
  /** A number, or one written as a string (the contract accepts numeric strings). */
  number: number | string;
  json: unknown;
  /** Replace a string by itself followed by the hostile text, so that it may still pass its bounds. */
  append: boolean;
  sameType: boolean;
}

/**
 * A valid body changed in up to three places: a field's value replaced (mostly by a hostile value of
 * its own type, a string often kept and extended), a field added (a prototype key or a known field
 * name, with any value), or a field removed. Mostly-valid bodies get past the first check and reach
 * storage, where hostile text does its damage.
 */
export function mutatedBody(valid: Record<string, unknown>, fieldNames: readonly string[] = []): fc.Arbitrary<unknown> {
  const names = [...new Set([...fieldNames, ...Object.keys(valid)])];
  const mutation: fc.Arbitrary<Mutation> = fc.record({
    kind: fc.constantFrom<Mutation['kind']>('replace', 'replace', 'replace', 'add', 'add', 'remove'),
    pick: fc.nat(),
    key: hostileKey(names),
    string: hostileString,
    number: fc.oneof(hostileNumber, hostileNumber.map(String)),
    json: hostileJson(names),
    append: fc.boolean(),
    sameType: fc.nat(4).map((n) => n > 0),
  });
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const body = structuredClone(valid);
    for (const m of mutations) apply(body, m);
    return body;
  });
}

/**
 * The valid body with one of its text fields extended (or replaced) by a unicode edge: the rest stays
 * valid, so a free-text field carries the edge as far as storage.
 */
export function textEdgeBody(valid: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(fc.nat(), unicodeEdge, fc.boolean()).map(([pick, edge, append]) => {
    const body = structuredClone(valid);
    const texts = fieldsOf(body).filter(([owner, key]) => typeof owner[key] === 'string');
    if (texts.length > 0) {
      const [owner, key] = texts[pick % texts.length];
      owner[key] = append ? `${String(owner[key])}${edge}` : edge;
    }
    return body;
  });
}

function apply(body: Record<string, unknown>, m: Mutation): void {
  if (m.kind === 'add') {
    const objects = objectsOf(body);
    defineOwn(objects[m.pick % objects.length], m.key, m.json);
    return;
  }
  const fields = fieldsOf(body);
  if (fields.length === 0) return;
  const [owner, key] = fields[m.pick % fields.length];
  if (m.kind === 'remove') {
    delete owner[key];
    return;
  }
  const current = owner[key];
  let value: unknown = m.json;
  if (m.sameType && typeof current === 'string') value = m.append ? current + m.string : m.string;
  else if (m.sameType && typeof current === 'number') value = m.number;
  defineOwn(owner, key, value);
}

/** Defines rather than assigns, so that `__proto__` becomes an own property, as JSON.parse makes it. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function objectsOf(root: Record<string, unknown>): Array<Record<string, unknown>> {
  const out = [root];
  for (const value of Object.values(root)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) out.push(...objectsOf(value as Record<string, unknown>));
  }
  return out;
}

/** Every field of every object of the body, as [owner, key]. */
function fieldsOf(root: Record<string, unknown>): Array<[Record<string, unknown>, string]> {
  return objectsOf(root).flatMap((owner) => Object.keys(owner).map((key): [Record<string, unknown>, string] => [owner, key]));
}

/** Raw bytes of a body, for what a JSON object cannot express. */
export interface RawBody {
  data: string | Buffer;
  /** undefined sends no Content-Type at all. */
  contentType?: string;
  contentEncoding?: string;
}

const nested = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

/**
 * Bodies written as bytes around a valid JSON text: deep nesting, prototype keys in the text (JSON.parse
 * makes them own properties), numbers JSON can write and doubles cannot hold, duplicate keys, invalid
 * UTF-8, broken JSON, huge texts, and compressed or mislabelled bodies.
 */
export function rawBody(validJson: string): fc.Arbitrary<RawBody> {
  const json = (data: string | Buffer): RawBody => ({ data, contentType: 'application/json' });
  const deep = fc
    .tuple(fc.constantFrom(100, 10_000, 100_000), fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}'], ['{"__proto__":', '}']), fc.boolean())
    .map(([depth, [open, close], wrapped]) => {
      const deepValue = nested(depth, open, close);
      return json(wrapped ? spliceField(validJson, 'x', deepValue) : deepValue);
    });
  const prototypeText = fc
    .constantFrom(
      '{"__proto__":{"polluted":"yes"},',
      '{"constructor":{"prototype":{"polluted":"yes"}},',
      '{"prototype":{"polluted":"yes"},"__proto__":[],',
      '{"__proto__":null,',
    )
    .map((prefix) => json(validJson.replace(/\{(?=")/g, prefix)));
  const numberText = fc
    .tuple(fc.nat(), fc.constantFrom('1e400', '-1e400', '1e-400', '-0', '1E5', '0.1e1', '123456789012345678901234567890', '9'.repeat(5_000), '1'.repeat(400) + '.5', '2e308', '4.9e-325'))
    .map(([index, text]) => json(replaceNthNumber(validJson, index, text)));
  const duplicateKeys = fc.nat().map((index) => json(duplicateNthKey(validJson, index)));
  const invalidUtf8 = fc
    .tuple(fc.nat(), fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0xfe, 0xff], [0x80]))
    .map(([at, bytes]) => {
      const text = Buffer.from(validJson);
      const cut = insideAString(validJson, at);
      return json(Buffer.concat([text.subarray(0, cut), Buffer.from(bytes), text.subarray(cut)]));
    });
  const broken = fc
    .constantFrom(
      validJson.slice(0, -1),
      `${validJson.slice(0, -1)},}`,
      validJson.replace(/"/g, "'"),
      `\ufeff${validJson}`,
      `${validJson} ${validJson}`,
      `/* c */${validJson}`,
      '{"a":NaN}',
      '{"a":Infinity}',
      '',
      '   ',
      'null',
      'true',
      '"text"',
      '123',
      '[]',
      '{}',
    )
    .map(json);
  const huge = fc.constantFrom(900_000, 1_100_000).map((size) => json(spliceField(validJson, 'x', JSON.stringify('x'.repeat(size)))));
  const contentTypes = fc
    .tuple(
      fc.constantFrom(
        undefined,
        '',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/merge-patch+json',
        'application/vnd.api+json',
        'APPLICATION/JSON',
        'application/json; charset=utf-16',
        'application/json; charset=utf-32',
        'application/json; charset=latin1',
        'application/json; charset=utf8',
        'application/json; charset="utf-8"',
        'application/json; charset',
        'application/json;;;',
        'application/json, text/plain',
        '*/*',
        ';',
        'json',
      ),
      fc.constantFrom(validJson, 'a=1&b=2'),
    )
    .map(([contentType, data]) => ({ data, contentType }));
  const encodings = fc.oneof(
    fc
      .constantFrom('gzip', 'deflate', 'br', 'zstd', 'compress', 'identity', 'gzip, gzip', 'GZIP')
      .map((contentEncoding) => ({ data: validJson, contentType: 'application/json', contentEncoding })),
    fc.constant({ data: gzipSync(validJson), contentType: 'application/json', contentEncoding: 'gzip' }),
    // UTF-16 is a charset body-parser accepts: the text reaches JSON.parse, lone surrogates included.
    fc.constantFrom(validJson, validJson.replace(/:"/, ':"\ud800')).map((text) => ({ data: Buffer.from(text, 'utf16le'), contentType: 'application/json; charset=utf-16le' })),
  );
  return fc.oneof(deep, prototypeText, numberText, duplicateKeys, invalidUtf8, broken, huge, contentTypes, encodings);
}

/** The JSON text with one more field in its top object (or the text itself when it is no object). */
function spliceField(validJson: string, key: string, valueText: string): string {
  return validJson.startsWith('{') ? `{${JSON.stringify(key)}:${valueText},${validJson.slice(1)}` : validJson;
}

function replaceNthNumber(text: string, index: number, replacement: string): string {
  const numbers = [...text.matchAll(/(?<=:)-?\d+(?:\.\d+)?(?=[,}\]])/g)];
  if (numbers.length === 0) return spliceField(text, 'n', replacement);
  const match = numbers[index % numbers.length];
  return text.slice(0, match.index) + replacement + text.slice(match.index! + match[0].length);
}

/** Writes the nth `"key":value` pair twice, the second time with another value. */
function duplicateNthKey(text: string, index: number): string {
  const keys = [...text.matchAll(/"([^"\\]+)":/g)];
  if (keys.length === 0) return text;
  const match = keys[index % keys.length];
  const alternatives = ['"car"', '99999999', 'null', '{"__proto__":{"polluted":"yes"}}', '"\\u0000"'];
  return `${text.slice(0, match.index)}${match[0]}${alternatives[index % alternatives.length]},${text.slice(match.index)}`;
}

/** A byte offset inside a string value of the text (just after an opening quote), or its end. */
function insideAString(text: string, index: number): number {
  const quotes = [...text.matchAll(/:"/g)];
  if (quotes.length === 0) return Buffer.byteLength(text);
  return Buffer.byteLength(text.slice(0, quotes[index % quotes.length].index! + 2));
}

/** A request body around a valid one: mutated, written as hostile bytes, anything at all, the valid one, or none. */
export function bodyAround(valid: Record<string, unknown>, fieldNames: readonly string[] = []): fc.Arbitrary<FuzzRequest['body']> {
  return fc.oneof(
    { weight: 5, arbitrary: mutatedBody(valid, fieldNames).map((json) => ({ json })) },
    { weight: 3, arbitrary: textEdgeBody(valid).map((json) => ({ json })) },
    { weight: 3, arbitrary: rawBody(JSON.stringify(valid)).map((raw) => ({ raw })) },
    { weight: 1, arbitrary: hostileJson(fieldNames).map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.constant({ json: valid }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

// ---------------------------------------------------------------------------------------------
// Headers and ids
// ---------------------------------------------------------------------------------------------

/**
 * Characters an HTTP client may put in a header value: tab, visible ASCII and space, and bytes
 * 0x80-0xff (read as Latin-1). Node refuses other control characters itself, before any app runs
 * (see `http-client-error` in the apps' tests for what it answers then).
 */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
).map((code) => String.fromCharCode(code));

export const headerValue = (maxLength = 40): fc.Arbitrary<string> => fc.string({ unit: headerChar, maxLength });

/** The caller's `X-Request-Id`: sane tokens, the longest sane one and one over, odd characters, very long values. */
export const requestIdHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/),
  fc.constantFrom('a'.repeat(128), 'a'.repeat(129), 'x'.repeat(4_000), '', ' ', 'id with spaces', 'a\tb', 'é', '<script>', '../..', '%0d%0a'),
  headerValue(200),
);

/** `Idempotency-Key`: a few reused values (replays and reuse), fresh ones, and malformed ones. */
export const idempotencyKeyHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3') },
  { weight: 4, arbitrary: fc.uuid().map((id) => `fuzz-${id}`) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a'.repeat(255), 'a'.repeat(256), 'x'.repeat(5_000), 'key with space', 'tab\tkey', 'é', '\u00ff') },
  { weight: 1, arbitrary: headerValue() },
);

/** `X-Sandbox-Score`: every allowed form, neighbours of them, and anything. */
export const sandboxScoreHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('excellent', 'very_good', 'good', 'average', 'below_average', 'poor', 'unavailable', '0', '670', '1200'),
  fc.constantFrom('', ' good', 'GOOD', '1201', '-1', '-0', '1e3', '700.0', '0x2a', '\u00b9\u00b2\u00b3', 'NaN', 'Infinity', '9'.repeat(400)),
  headerValue(),
);

/** `Authorization`, around the valid credentials of the test: malformed schemes, near misses, anything. */
export function authorizationHeader(valid: readonly string[]): fc.Arbitrary<string | undefined> {
  const credential = fc.constantFrom(...valid);
  return fc.oneof(
    { weight: 8, arbitrary: credential.map((c) => `Bearer ${c}`) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constant(undefined),
        credential.map((c) => `bearer ${c}`),
        credential.map((c) => `Bearer  ${c}  `),
        credential.map((c) => `Bearer ${c}x`),
        credential.map((c) => `Bearer ${c.slice(0, -1)}`),
        credential.map((c) => `Bearer ${c} ${c}`),
        credential.map((c) => `Basic ${c}`),
        credential.map((c) => c),
        fc.constantFrom('Bearer', 'Bearer ', 'Bearer lm_sandbox_', 'Bearer lm_live_x', 'Bearer lm_admin_x', 'Bearer a.b.c', 'Bearer eyJhbGciOiJub25lIn0.e30.'),
        headerValue(300).map((v) => `Bearer ${v}`),
        headerValue(),
      ),
    },
  );
}

/**
 * An id for a path: one of `known` (the test's own records), a random UUID, or a malformed one. The
 * result is written into the path as it is: some are percent-encoded garbage on purpose.
 */
export function pathId(known: () => readonly string[]): fc.Arbitrary<string> {
  const fromKnown = fc.nat().map((i) => {
    const ids = known();
    return ids.length ? ids[i % ids.length] : '00000000-0000-0000-0000-000000000000';
  });
  return fc.oneof(
    { weight: 4, arbitrary: fromKnown },
    { weight: 1, arbitrary: fromKnown.map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: fc.tuple(fromKnown, fc.constantFrom('%00', '%00', '%ff', '%', '%2F..', '.json', ' ', '%0A')).map(([id, tail]) => `${id}${tail}`) },
    { weight: 1, arbitrary: fc.uuid() },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constantFrom('..', '.', '%2e%2e', '%2E%2E%2F%2E%2E', 'a%2Fb', '%2F', '%5C', '%00', '%ff', '%E0%A4%A', '%', '%%', '%u0041', ' ', '%20'),
        fc.constantFrom('null', 'undefined', '__proto__', 'constructor', 'prototype', '0', '-1', '1e400', 'NaN', '{}', '[]'),
        fc.constantFrom('00000000-0000-0000-0000-00000000000', '00000000-0000-0000-0000-0000000000000', 'g0000000-0000-0000-0000-000000000000', '{00000000-0000-0000-0000-000000000000}'),
        fc.constantFrom(200, 5_000).map((n) => 'a'.repeat(n)),
        fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponentLoosely),
      ),
    },
  );
}

/**
 * Any method on any path of a contract, with anything: method mismatches, OPTIONS, HEAD, unknown routes,
 * near-miss prefixes. `paths` are templates whose `:id` takes a `pathId` of `knownIds`; `body` (sometimes
 * left out) is a body generator of the suite's.
 */
export function strayRequests(options: {
  headers: fc.Arbitrary<Record<string, string | undefined>>;
  paths: readonly string[];
  prefixes: readonly string[];
  knownIds: () => readonly string[];
  body: fc.Arbitrary<FuzzRequest['body']>;
}): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      headers: options.headers,
      method: fc.constantFrom<FuzzRequest['method']>('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'),
      path: fc.constantFrom(...options.paths),
      id: pathId(options.knownIds),
      prefix: fc.constantFrom(...options.prefixes),
      body: fc.option(options.body, { nil: undefined }),
    })
    .map(({ headers, method, path, id, prefix, body }): FuzzRequest => ({ method, path: `${prefix}${path.replace(/:id/g, id)}`, headers, body }));
}

/** encodeURIComponent, or its raw bytes for strings it refuses (lone surrogates). */
export function encodeURIComponentLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

/** A query string for these parameters: absent, hostile values, arrays, nested keys, repeats, broken escapes. */
export function hostileQuery(names: readonly string[]): fc.Arbitrary<string> {
  const value = fc.oneof(hostileString.map((v) => encodeURIComponentLoosely(v.slice(0, 2_000))), fc.constantFrom('1', '100', '101', '0', '-1', '1.5', '1e2', '%ff', '%', ''));
  const pair = fc.tuple(fc.constantFrom(...names, '__proto__', `${names[0]}[]`, `${names[0]}[__proto__]`, '__proto__[polluted]'), value).map(([k, v]) => `${k}=${v}`);
  return fc.array(pair, { maxLength: 3 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

// ---------------------------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------------------------

export interface FuzzRequest {
  /** The application this request aims at, if any: a refusal (4xx) must leave it exactly as it was. */
  target?: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS' | 'HEAD';
  path: string;
  headers: Record<string, string | undefined>;
  /** A value sent as JSON, raw bytes, or nothing. */
  body?: { json: unknown } | { raw: RawBody };
}

export interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends the request as generated: headers as given, JSON as JSON.stringify writes it, raw bytes untouched. */
export async function sendFuzzRequest(app: Express, req: FuzzRequest): Promise<FuzzResponse> {
  const agent = request(app);
  let test = agent[req.method.toLowerCase() as 'get'](req.path);
  // Node's client writes a HEAD body without Content-Length, which is broken framing, not a request.
  if (req.method === 'HEAD') req = { ...req, body: undefined };
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) test = test.set(name, value);
  if (req.body && 'json' in req.body) {
    test = test.set('Content-Type', 'application/json').send(JSON.stringify(req.body.json) ?? 'null');
  } else if (req.body && 'raw' in req.body) {
    const { data, contentType, contentEncoding } = req.body.raw;
    // superagent labels a string body as a form unless told otherwise: an empty type leaves the header out.
    test = test.type(contentType ?? '');
    if (contentEncoding) test = test.set('Content-Encoding', contentEncoding);
    // …and would write a Buffer labelled JSON as {"type":"Buffer","data":[…]}: send the bytes as they are.
    test = test.serialize((bytes: unknown) => bytes as string).send(data);
  }
  // Answers are read as text whatever their type, so the checks below see exactly what was sent.
  const res = await test.buffer(true).parse((response, callback) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => callback(null, Buffer.concat(chunks).toString('utf8')));
  });
  return { status: res.status, headers: res.headers as FuzzResponse['headers'], text: typeof res.body === 'string' ? res.body : '' };
}

/** A request as a short line, for failure messages (long values cut). */
export function describeRequest(req: FuzzRequest): string {
  const cut = (s: string) => (s.length > 120 ? `${s.slice(0, 120)}…(${s.length})` : s);
  const raw = req.body && 'raw' in req.body ? req.body.raw : undefined;
  const body =
    req.body === undefined
      ? ''
      : raw
        ? `raw ${raw.contentType ?? '(no type)'}${raw.contentEncoding ? ` ${raw.contentEncoding}` : ''} ${cut(Buffer.isBuffer(raw.data) ? `<bytes ${raw.data.toString('hex')}>` : raw.data)}`
        : cut(safeStringify((req.body as { json: unknown }).json));
  return `${req.method} ${cut(req.path)} ${cut(JSON.stringify(req.headers))} ${body}`;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}

// ---------------------------------------------------------------------------------------------
// Checks of every answer
// ---------------------------------------------------------------------------------------------

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A stack frame (`at fn (/path/file.ts:12:3)`, `at /path/file.js:1:2`) or a source path. */
const LEAK_PATTERNS: readonly RegExp[] = [/\bat \S+ \(\S+:\d+:\d+\)/, /\bat \/\S+:\d+:\d+/, /\/work\//, /\.ts:\d/, /node_modules/, /\bat async\b/];
/** Fields that would carry a credit score; `creditScoreEstimate` is the partner's own step-2 answer. */
const SCORE_FIELD = /^(score|creditScore|bureauScore|scoreValue)$/i;

export interface AnswerExpectations {
  /** Strings that must never appear in any answer: keys, tokens, secrets, their digests, applicant details. */
  secrets: () => readonly string[];
  /** Paths whose successful answer is a redirect rather than JSON (the tracking link). */
  redirects?: RegExp;
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
  if (typeof id !== 'string' || !SANE_REQUEST_ID.test(id)) fail(`X-Request-Id missing or not sane: ${JSON.stringify(id)}`);
  const sent = Object.entries(req.headers).find(([name]) => name.toLowerCase() === 'x-request-id')?.[1];
  const received = sent?.replace(/^[ \t]+|[ \t]+$/g, ''); // HTTP trims a header value's edges
  if (received !== undefined && SANE_REQUEST_ID.test(received)) {
    if (id !== received) fail(`the sane X-Request-Id ${JSON.stringify(sent)} was not kept`);
  } else {
    if (!UUID.test(String(id))) fail(`X-Request-Id ${JSON.stringify(id)} is not a generated id (sent ${JSON.stringify(sent)})`);
    if (sent !== undefined && sent.length >= 12 && res.text.includes(sent)) fail('the refused X-Request-Id is echoed in the body');
  }

  for (const secret of expect.secrets()) if (secret && res.text.includes(secret)) fail('a secret in the answer');
  for (const pattern of LEAK_PATTERNS) if (pattern.test(res.text)) fail(`a stack frame or source path in the answer (${pattern})`);

  if (req.method === 'HEAD') return;
  if (res.status >= 300 && res.status < 400) {
    if (!expect.redirects?.test(req.path) || res.status !== 302 || typeof res.headers.location !== 'string') fail('an unexpected redirect');
    return;
  }
  if (!String(res.headers['content-type']).startsWith('application/json')) fail(`not JSON: ${String(res.headers['content-type'])}`);
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
    if (typeof code !== 'string' || STATUS_OF[code as keyof typeof STATUS_OF] !== res.status) fail(`error code ${String(code)} does not belong to ${res.status}`);
    if (typeof envelope.message !== 'string' || envelope.message.length === 0) fail('an error without a message');
    if (envelope.details !== undefined && !isViolationList(envelope.details)) fail('details that are not {field, rule, message} items');
  } else {
    fail('not the contract envelope');
  }
  const scoreKey = findKey(body, (key) => SCORE_FIELD.test(key));
  if (scoreKey) fail(`a score field "${scoreKey}" in the answer`);
}

function isViolationList(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => typeof v?.field === 'string' && typeof v?.rule === 'string' && typeof v?.message === 'string');
}

/** The first key anywhere in a JSON value that `test` accepts. Iterative, as answers are ours but may be deep. */
function findKey(value: unknown, test: (key: string) => boolean): string | undefined {
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
  return JSON.stringify([Object.getOwnPropertyNames(Object.prototype).sort(), Object.getOwnPropertyNames(Array.prototype).sort()]);
}

/** Throws when Object.prototype (or Array.prototype) gained a property since `snapshot`. */
export function checkPrototypes(snapshot: string): void {
  const probe = {} as Record<string, unknown>;
  if (probe.polluted !== undefined || prototypeSnapshot() !== snapshot) throw new Error('Object.prototype or Array.prototype was polluted');
}

// ---------------------------------------------------------------------------------------------
// Checks of what was stored
// ---------------------------------------------------------------------------------------------

const isPrototypeKey = (key: string) => (PROTOTYPE_KEYS as readonly string[]).includes(key);

/**
 * A snapshot of everything a request could change about one application: its row, its check, how many
 * match runs, referrals and applicant rows it has. Two equal snapshots: the request changed nothing.
 */
export async function applicationSnapshot(db: Database, applicationId: string): Promise<string> {
  const row = await db.prisma.application.findUnique({
    where: { id: applicationId },
    include: { creditCheck: true, applicant: true, _count: { select: { matchRuns: true, referrals: true } } },
  });
  return JSON.stringify(row);
}

/**
 * Every application of these partners, read back from the database, obeys the domain's rules: each
 * stored step validates as it stands (and is already in normalised form), steps 1..lastStep are there
 * and no later ones, the status is legal and matches what exists (a completed check from
 * `credit_checked` on, a match run from `matched`, a referral at `referred`), applicant details
 * validate, no JSON holds a prototype key, and nothing is left half-done (a running check, a key in
 * progress). Answers the list of problems, empty when all is well.
 */
export async function storedProblems(t: { ctx: DomainContext; db: Database }, partnerIds: readonly string[]): Promise<string[]> {
  const { ctx, db } = t;
  const problems: string[] = [];
  const rows = await db.prisma.application.findMany({
    where: { partnerId: { in: [...partnerIds] } },
    include: { creditCheck: true, _count: { select: { matchRuns: true, referrals: true } } },
  });
  for (const app of rows) {
    const at = (what: string) => problems.push(`application ${app.id} (${app.formType}, ${app.status}, last step ${app.lastStep}): ${what}`);
    if (!(FORM_TYPES as readonly string[]).includes(app.formType)) {
      at('unknown form type');
      continue;
    }
    const formType = app.formType as FormType;
    if (!(STATUS_ORDER as readonly string[]).includes(app.status)) at('unknown status');
    if (!Number.isInteger(app.lastStep) || app.lastStep < 1 || app.lastStep > 5) at('last step out of range');

    const steps = [app.step1, app.step2, app.step3, app.step4] as unknown[];
    steps.forEach((stored, index) => {
      const step = (index + 1) as 1 | 2 | 3 | 4;
      const expected = step <= Math.min(app.lastStep, 4);
      if (stored === null || stored === undefined) {
        if (expected) at(`step ${step} missing`);
        return;
      }
      if (!expected) at(`step ${step} stored beyond the last step`);
      const valid = validateStepData(formType, step, stored);
      if (!valid.ok) at(`step ${step} does not validate: ${valid.error.message}`);
      else if (JSON.stringify(sortKeys(valid.value)) !== JSON.stringify(sortKeys(stored))) at(`step ${step} is not in normalised form`);
      if (findKey(stored, isPrototypeKey)) at(`step ${step} holds a prototype key`);
    });

    const statusIndex = STATUS_ORDER.indexOf(app.status as (typeof STATUS_ORDER)[number]);
    const checked = app.creditCheck?.status === 'completed';
    if (app.creditCheck && app.creditCheck.status !== 'completed') at(`credit check left ${app.creditCheck.status}`);
    if (statusIndex >= STATUS_ORDER.indexOf('credit_checked') && (!checked || app.lastStep !== 5)) at('checked status without a completed check at step 5');
    if (statusIndex < STATUS_ORDER.indexOf('credit_checked') && checked) at('a completed check under an earlier status');
    if (app.status === 'draft' && app.lastStep !== 1) at('draft beyond step 1');
    if (app.status === 'in_progress' && (app.lastStep < 2 || app.lastStep > 4)) at('in_progress outside steps 2-4');
    if (statusIndex >= STATUS_ORDER.indexOf('matched') && app._count.matchRuns === 0) at('matched without a match run');
    if (app.status === 'referred' && app._count.referrals === 0) at('referred without a referral');

    const applicant = await readApplicantDetails(ctx, app.id);
    if (applicant.state === 'kept') {
      const details = applicant.details as Record<string, unknown>;
      if (findKey(details, isPrototypeKey)) at('applicant details hold a prototype key');
      if (checked) {
        const valid = validateApplicantDetails({ data: details });
        if (!valid.ok) at(`applicant details do not validate: ${valid.error.message}`);
      } else {
        // Variant B's intake, before its check: the flat create fields it came from must validate again.
        const intake = validateVariantBCreate({
          formType,
          loanAmount: (app.step1 as Record<string, unknown>).loanAmount,
          loanPurpose: details.loanPurpose,
          firstName: details.firstName,
          lastName: details.lastName,
          email: details.email,
          phone: details.mobileNumber,
          ...(details.consentCreditCheck === undefined ? {} : { consentCreditCheck: details.consentCreditCheck }),
        });
        if (!intake.ok) at(`applicant intake does not validate: ${intake.error.message}`);
      }
    } else if (checked && applicant.state === 'none') {
      at('a completed check without applicant details');
    }
    if (app.securityTokenHash !== null && applicant.state === 'none') at('a Variant B application without its intake');
  }
  const stuck = await db.prisma.idempotencyKey.count({ where: { partnerId: { in: [...partnerIds] }, state: 'in_progress' } });
  if (stuck > 0) problems.push(`${stuck} idempotency keys left in progress`);
  return problems;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

// ---------------------------------------------------------------------------------------------
// The property
// ---------------------------------------------------------------------------------------------

/**
 * Sends each generated request and checks its answer (`checkAnswer`), that no prototype was polluted,
 * and that a refused request left its target application unchanged. `onAnswer` lets the test grow its
 * pool of known records from what the requests made. Fails with fast-check's report: the seed and path
 * to replay (`FUZZ_SEED=<seed>`), and the smallest request it found.
 */
export async function assertFuzz(options: {
  app: Express;
  /** The app's database, to see that a refused request changed nothing. */
  db: Database;
  requests: fc.Arbitrary<FuzzRequest>;
  expect: AnswerExpectations;
  numRuns: number;
  onAnswer?: (req: FuzzRequest, res: FuzzResponse) => void;
}): Promise<void> {
  const prototypes = prototypeSnapshot();
  // fast-check prints a counterexample with this method: one short line instead of a 1 MB body.
  const requests = options.requests.map((req) => Object.defineProperty(req, fc.toStringMethod, { value: () => describeRequest(req) }));
  const property = fc.asyncProperty(requests, async (req) => {
    const before = req.target ? await applicationSnapshot(options.db, req.target) : undefined;
    const res = await sendFuzzRequest(options.app, req);
    checkAnswer(req, res, options.expect);
    checkPrototypes(prototypes);
    if (req.target && res.status >= 400 && res.status < 500 && (await applicationSnapshot(options.db, req.target)) !== before) {
      throw new Error(`a refused request (${res.status} ${res.text.slice(0, 200)}) changed its application\n  request: ${describeRequest(req)}`);
    }
    options.onAnswer?.(req, res);
    if (tally) tally.set(outcome(req, res), (tally.get(outcome(req, res)) ?? 0) + 1);
  });
  await fc.assert(property, fuzzParameters(options.numRuns));
  if (tally) console.log([...tally].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `${String(n).padStart(5)}  ${key}`).join('\n'));
}

/** `FUZZ_STATS=1` prints how often each route answered each status: to see what the generators reach. */
const tally = process.env.FUZZ_STATS ? new Map<string, number>() : undefined;

function outcome(req: FuzzRequest, res: FuzzResponse): string {
  const route = req.path.split('?')[0].replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id');
  const code = res.status >= 400 ? String(/"error":"([A-Z_]+)"/.exec(res.text)?.[1]) : '';
  return `${req.method} ${route.length > 60 ? `${route.slice(0, 60)}…` : route} ${res.status} ${code}`;
}
