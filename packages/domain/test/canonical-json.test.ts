/** The text a request's fingerprint is made from: keys sorted, any depth, never a stack overflow. */
import { canonicalJson } from '../src';

describe('canonicalJson', () => {
  it.each([
    [{ b: 1, a: [3, { d: null, c: 'x' }] }, '{"a":[3,{"c":"x","d":null}],"b":1}'],
    [{ z: undefined, y: [undefined, 1] }, '{"y":[null,1]}'],
    [[], '[]'],
    [{}, '{}'],
    [[[], {}, [{}]], '[[],{},[{}]]'],
    ['text "quoted"', '"text \\"quoted\\""'],
    [{ 'é\n': 1.5, '': true }, '{"":true,"é\\n":1.5}'],
    [null, 'null'],
    [undefined, 'null'],
  ])('when given %j, then %s', (value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  it('when key order differs, then the text is the same', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it('when a value nests 100,000 levels deep, then it is written without overflowing the stack', () => {
    const object: Record<string, unknown> = {};
    let inner = object;
    for (let i = 0; i < 100_000; i++) {
      const child: Record<string, unknown> = {};
      inner.a = child;
      inner = child;
    }
    const array: unknown[] = [];
    let cell = array;
    for (let i = 0; i < 100_000; i++) {
      const child: unknown[] = [];
      cell.push(child);
      cell = child;
    }
    expect(canonicalJson(object)).toBe(`${'{"a":'.repeat(100_000)}{}${'}'.repeat(100_000)}`);
    expect(canonicalJson(array)).toBe(`${'['.repeat(100_000)}[]${']'.repeat(100_000)}`);
  });
});
