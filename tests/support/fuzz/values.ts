/**
 * Hostile values: numbers at the edges of JSON and doubles, text that storage or a decoder mishandles,
 * prototype keys, and any JSON built of them.
 */
import fc from 'fast-check';
import { PROTOTYPE_KEYS } from './answers';

/** Numbers at the edges of JSON and of JavaScript's doubles; NaN and ±Infinity are sent as null by JSON.stringify. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    1e308,
    -1e308,
    2 ** 53 + 1,
    -(2 ** 53) - 1,
    -0,
    5e-324,
    0,
    1,
    -1,
    0.5,
    999,
    1000,
    15_000,
    100_000,
    100_001,
    2 ** 31,
    1200,
    1201,
  ),
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
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile value, sent as it is written.
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
  return fc.oneof(
    fc.constantFrom(...PROTOTYPE_KEYS, 'toString', 'hasOwnProperty', 'valueOf', ...fieldNames),
    fc.string({ maxLength: 12 }),
  );
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

/** Defines rather than assigns, so that `__proto__` becomes an own property, as JSON.parse makes it. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
