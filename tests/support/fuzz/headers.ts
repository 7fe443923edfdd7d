/** Header values: the caller's request id, idempotency keys, sandbox scores and credentials, sane and hostile. */
import fc from 'fast-check';

/**
 * Characters an HTTP client may put in a header value: tab, visible ASCII and space, and bytes
 * 0x80-0xff (read as Latin-1). Node refuses other control characters itself, before any app runs
 * (see `http-client-error` in the apps' tests for what it answers then).
 */
const headerChar = fc
  .oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
    { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));

export const headerValue = (maxLength = 40): fc.Arbitrary<string> => fc.string({ unit: headerChar, maxLength });

/** The caller's `X-Request-Id`: sane tokens, the longest sane one and one over, odd characters, very long values. */
export const requestIdHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/),
  fc.constantFrom(
    'a'.repeat(128),
    'a'.repeat(129),
    'x'.repeat(4_000),
    '',
    ' ',
    'id with spaces',
    'a\tb',
    'é',
    '<script>',
    '../..',
    '%0d%0a',
  ),
  headerValue(200),
);

/** `Idempotency-Key`: a few reused values (replays and reuse), fresh ones, and malformed ones. */
export const idempotencyKeyHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3') },
  { weight: 4, arbitrary: fc.uuid().map((id) => `fuzz-${id}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'a'.repeat(255),
      'a'.repeat(256),
      'x'.repeat(5_000),
      'key with space',
      'tab\tkey',
      'é',
      '\u00ff',
    ),
  },
  { weight: 1, arbitrary: headerValue() },
);

/** `X-Sandbox-Score`: every allowed form, neighbours of them, and anything. */
export const sandboxScoreHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    'excellent',
    'very_good',
    'good',
    'average',
    'below_average',
    'poor',
    'unavailable',
    '0',
    '670',
    '1200',
  ),
  fc.constantFrom(
    '',
    ' good',
    'GOOD',
    '1201',
    '-1',
    '-0',
    '1e3',
    '700.0',
    '0x2a',
    '\u00b9\u00b2\u00b3',
    'NaN',
    'Infinity',
    '9'.repeat(400),
  ),
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
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer lm_sandbox_',
          'Bearer lm_live_x',
          'Bearer lm_admin_x',
          'Bearer a.b.c',
          'Bearer eyJhbGciOiJub25lIn0.e30.',
        ),
        headerValue(300).map((v) => `Bearer ${v}`),
        headerValue(),
      ),
    },
  );
}
