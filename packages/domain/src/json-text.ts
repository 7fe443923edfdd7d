/**
 * The JSON text of an answer the domain serialised anyway (a match run stores its answer; an idempotency
 * key stores the answer it will replay), kept beside the value so that the front-end sends that text
 * instead of serialising the value a second time (docs/decisions.md, "Issue 7, fifth session").
 * Only for values that are not changed after: the text is what was true when it was made.
 */
const texts = new WeakMap<object, JsonText>();

/**
 * A value's JSON text, or that text's UTF-8 bytes where the domain encoded it anyway (a match's answer,
 * encoded once for the stored run and the response: docs/decisions.md, "Issue 7, eighth session").
 */
export type JsonText = string | Buffer;

/** Answers `value`, remembering `text` (its `JSON.stringify`, or that text's UTF-8 bytes) for `jsonTextOf`. */
export function withJsonText<T>(value: T, text: JsonText): T {
  if (typeof value === 'object' && value !== null) texts.set(value, text);
  return value;
}

/** The text remembered for `value` by `withJsonText`, if any. */
export function jsonTextOf(value: unknown): JsonText | undefined {
  return typeof value === 'object' && value !== null ? texts.get(value) : undefined;
}
