/**
 * The JSON text of an answer the domain serialised anyway (a match run stores its answer; an idempotency
 * key stores the answer it will replay), kept beside the value so that the front-end sends that text
 * instead of serialising the value a second time (docs/decisions.md, "Issue 7, fifth session").
 * Only for values that are not changed after: the text is what was true when it was made.
 */
const texts = new WeakMap<object, string>();

/** Answers `value`, remembering `text` (its `JSON.stringify`) for `jsonTextOf`. */
export function withJsonText<T>(value: T, text: string): T {
  if (typeof value === 'object' && value !== null) texts.set(value, text);
  return value;
}

/** The text remembered for `value` by `withJsonText`, if any. */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? texts.get(value) : undefined;
}
