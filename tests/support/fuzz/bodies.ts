/**
 * Request bodies around a valid one: mutated in a few places, carrying a unicode edge in a text field,
 * written as hostile bytes (deep nesting, prototype keys, odd numbers, invalid UTF-8, broken JSON,
 * compression, content types), or anything at all.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { BODY_BOUNDS } from '@loanmatch/http';
import type { FuzzRequest, RawBody } from './request';
import { defineOwn, hostileJson, hostileKey, hostileNumber, hostileString, unicodeEdge } from './values';

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

function objectsOf(root: Record<string, unknown>): Array<Record<string, unknown>> {
  const out = [root];
  for (const value of Object.values(root)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      out.push(...objectsOf(value as Record<string, unknown>));
  }
  return out;
}

/** Every field of every object of the body, as [owner, key]. */
function fieldsOf(root: Record<string, unknown>): Array<[Record<string, unknown>, string]> {
  return objectsOf(root).flatMap((owner) =>
    Object.keys(owner).map((key): [Record<string, unknown>, string] => [owner, key]),
  );
}

const nested = (depth: number, open: string, close: string, inner = '1') =>
  open.repeat(depth) + inner + close.repeat(depth);

/**
 * Bodies written as bytes around a valid JSON text: deep nesting, prototype keys in the text (JSON.parse
 * makes them own properties), numbers JSON can write and doubles cannot hold, duplicate keys, invalid
 * UTF-8, broken JSON, huge texts, and compressed or mislabelled bodies.
 */
export function rawBody(validJson: string): fc.Arbitrary<RawBody> {
  const json = (data: string | Buffer): RawBody => ({ data, contentType: 'application/json' });
  const deep = fc
    .tuple(
      fc.constantFrom(100, 10_000, 100_000),
      fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}'], ['{"__proto__":', '}']),
      fc.boolean(),
    )
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
    .tuple(
      fc.nat(),
      fc.constantFrom(
        '1e400',
        '-1e400',
        '1e-400',
        '-0',
        '1E5',
        '0.1e1',
        '123456789012345678901234567890',
        '9'.repeat(5_000),
        `${'1'.repeat(400)}.5`,
        '2e308',
        '4.9e-325',
      ),
    )
    .map(([index, text]) => json(replaceNthNumber(validJson, index, text)));
  const duplicateKeys = fc.nat().map((index) => json(duplicateNthKey(validJson, index)));
  const invalidUtf8 = fc
    .tuple(
      fc.nat(),
      fc.constantFrom(
        [0xff],
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
        [0xe2, 0x82],
        [0xf4, 0x90, 0x80, 0x80],
        [0xfe, 0xff],
        [0x80],
      ),
    )
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
  // Just under the smallest body limit (the admin API's), just over the largest a partner call takes, and far over.
  const huge = fc
    .constantFrom(BODY_BOUNDS.admin.bytes - 1_000, BODY_BOUNDS.partner.bytes + 1, 1_100_000)
    .map((size) => json(spliceField(validJson, 'x', JSON.stringify('x'.repeat(size)))));
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
    fc
      .constantFrom(validJson, validJson.replace(/:"/, ':"\ud800'))
      .map((text) => ({ data: Buffer.from(text, 'utf16le'), contentType: 'application/json; charset=utf-16le' })),
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
export function bodyAround(
  valid: Record<string, unknown>,
  fieldNames: readonly string[] = [],
): fc.Arbitrary<FuzzRequest['body']> {
  return fc.oneof(
    { weight: 5, arbitrary: mutatedBody(valid, fieldNames).map((json) => ({ json })) },
    { weight: 3, arbitrary: textEdgeBody(valid).map((json) => ({ json })) },
    { weight: 3, arbitrary: rawBody(JSON.stringify(valid)).map((raw) => ({ raw })) },
    { weight: 1, arbitrary: hostileJson(fieldNames).map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.constant({ json: valid }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}
