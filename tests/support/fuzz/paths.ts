/** Paths and queries: ids of known records and malformed ones, any method on any path, hostile query strings. */
import fc from 'fast-check';
import type { FuzzRequest } from './request';
import { hostileString } from './values';

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
    {
      weight: 2,
      arbitrary: fc
        .tuple(fromKnown, fc.constantFrom('%00', '%00', '%ff', '%', '%2F..', '.json', ' ', '%0A'))
        .map(([id, tail]) => `${id}${tail}`),
    },
    { weight: 1, arbitrary: fc.uuid() },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constantFrom(
          '..',
          '.',
          '%2e%2e',
          '%2E%2E%2F%2E%2E',
          'a%2Fb',
          '%2F',
          '%5C',
          '%00',
          '%ff',
          '%E0%A4%A',
          '%',
          '%%',
          '%u0041',
          ' ',
          '%20',
        ),
        fc.constantFrom(
          'null',
          'undefined',
          '__proto__',
          'constructor',
          'prototype',
          '0',
          '-1',
          '1e400',
          'NaN',
          '{}',
          '[]',
        ),
        fc.constantFrom(
          '00000000-0000-0000-0000-00000000000',
          '00000000-0000-0000-0000-0000000000000',
          'g0000000-0000-0000-0000-000000000000',
          '{00000000-0000-0000-0000-000000000000}',
        ),
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
    .map(
      ({ headers, method, path, id, prefix, body }): FuzzRequest => ({
        method,
        path: `${prefix}${path.replace(/:id/g, id)}`,
        headers,
        body,
      }),
    );
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
  const value = fc.oneof(
    hostileString.map((v) => encodeURIComponentLoosely(v.slice(0, 2_000))),
    fc.constantFrom('1', '100', '101', '0', '-1', '1.5', '1e2', '%ff', '%', ''),
  );
  const pair = fc
    .tuple(
      fc.constantFrom(...names, '__proto__', `${names[0]}[]`, `${names[0]}[__proto__]`, '__proto__[polluted]'),
      value,
    )
    .map(([k, v]) => `${k}=${v}`);
  return fc.array(pair, { maxLength: 3 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}
