/**
 * Validation of partner request bodies against the field tables in `schemas.ts`, by one Ajv instance
 * that compiles every schema once. A call `prepare`s a copy of the input, validates it (removing
 * unlisted fields, inserting defaults) and, on failure, turns each ajv error into `{field, rule, message}`,
 * the message derived from the failing keyword and its schema (never from the submitted value).
 */
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { SchemaOptions as Schema, Static, TSchema } from '@sinclair/typebox';
import { fail, ok, type FieldViolation, type Result } from '../errors';
import { isWholeCents } from '../outcomes/money';
import { NUMERIC_STRING_MAX_LENGTH } from './requests';
import { DATE_FORMAT, type ConsentRule } from './schemas';
import { ageOn, parseCalendarDate, parseTime, toIsoDate } from './dates';

type Data = Record<string, unknown>;

/** The day `x-minimumAge` and `x-notInFuture` measure against: set by a validator for its (synchronous) call. */
let referenceDate: Date | undefined;

const ajv = new Ajv({
  strict: true,
  // …except strictRequired: it cannot see the parent's `properties` from a `then: {required: [...]}`
  // and refuses the standard conditional-required pattern (ajv issue #1950, labelled "limitation").
  // Typos there are caught by the tests of each conditional rule instead.
  strictRequired: false,
  allErrors: true, // report every violation, not just the first
  verbose: true, // errors carry `parentSchema`, from which messages take both bounds and `x-message`
  messages: false, // we write our own messages
  useDefaults: true, // table defaults appear in the normalised value
  removeAdditional: true, // drop fields the table does not list (only where additionalProperties: false)
  coerceTypes: false, // never coerce: "true" and 1 are not booleans; numeric strings are handled by `prepare`
  ownProperties: true, // never read inherited properties of the submitted objects
});

addFormats(ajv, ['email', 'date-time']);
ajv.addFormat(DATE_FORMAT, { type: 'string', validate: (value: string) => parseCalendarDate(value) !== undefined });

/** Annotation only: replaces the rule text of errors raised by the schema object it sits on. */
ajv.addKeyword({ keyword: 'x-message', schemaType: ['string', 'object'] });

/** At least one of the listed properties is the JSON boolean `true` (the credit check consent). */
ajv.addKeyword({
  keyword: 'x-consent',
  type: 'object', // runs in ajv's object group, after `required` and `properties`
  schemaType: 'object',
  validate: (rule: ConsentRule, data: Data) => rule.anyTrue.some((field) => data[field] === true),
});

/** Dollars with at most two decimal places, so the amount is a whole number of cents (`money.ts`). */
ajv.addKeyword({
  keyword: 'x-cents',
  type: 'number',
  schemaType: 'boolean',
  validate: (_rule: boolean, data: number) => isWholeCents(data),
});

/** The applicant is at least N whole years old on the reference date. Unparseable dates pass here; `format` reports them. */
ajv.addKeyword({
  keyword: 'x-minimumAge',
  type: 'string',
  schemaType: 'number',
  validate: (minimumAge: number, data: string) => {
    const birth = parseCalendarDate(data);
    return birth === undefined || ageOn(birth, referenceDate ?? new Date()) >= minimumAge;
  },
});

/** A time no later than the reference date, allowing N seconds of clock difference. Unparseable times pass here; `format` reports them. */
ajv.addKeyword({
  keyword: 'x-notInFuture',
  type: 'string',
  schemaType: 'number',
  validate: (skewSeconds: number, data: string) => {
    const time = Date.parse(data);
    return Number.isNaN(time) || time <= (referenceDate ?? new Date()).getTime() + skewSeconds * 1000;
  },
});

/** The test of a string schema (one of HEADER_SCHEMAS), compiled once. Their patterns take ASCII only, so
 * ajv's lengths (in code points) are the strings' `length`. */
export const stringCheck = (schema: Schema): ((value: unknown) => value is string) => ajv.compile<string>(schema);

/** A JSON number written as a string: optional minus, digits, optional fraction. No spaces, exponents or separators. */
export const NUMERIC_STRING = /^-?\d+(?:\.\d+)?$/;
/** The numeric strings of a whole number, as the documents give them: `"5"`, `"5.0"`. */
export const INTEGER_STRING = /^-?\d+(?:\.0+)?$/;
/** Keys that could reach an object's prototype if ever assigned; they are never copied. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Any non-array object (a prototype check would skip objects of another realm, such as jest's vm). */
const isRecord = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Copies `value` as far as `schema` describes it, so that ajv never mutates the caller's object, turning
 * numeric strings into numbers for number/integer fields and dates and times into their one spelling.
 * Unlisted fields are copied by reference (ajv removes them unvisited), and unsafe keys never.
 */
function prepare(schema: Schema, value: unknown): unknown {
  if (
    (schema.type === 'number' || schema.type === 'integer') &&
    typeof value === 'string' &&
    value.length <= NUMERIC_STRING_MAX_LENGTH &&
    NUMERIC_STRING.test(value)
  ) {
    const parsed = Number(value);
    return parsed === 0 ? 0 : parsed; // "-0" becomes 0
  }
  if (schema.format === DATE_FORMAT && typeof value === 'string') {
    const date = parseCalendarDate(value);
    return date === undefined ? value : toIsoDate(date);
  }
  // A time as UTC ISO text (`2026-11-23T09:30:00.000Z`); one that is not real is left for `format` to report.
  if (schema.format === 'date-time' && typeof value === 'string') return parseTime(value)?.toISOString() ?? value;
  if (schema.properties !== undefined && isRecord(value)) {
    const properties = schema.properties;
    const copy: Data = {};
    for (const key of Object.keys(value)) {
      if (UNSAFE_KEYS.has(key)) continue;
      copy[key] = Object.hasOwn(properties, key) ? prepare(properties[key], value[key]) : value[key];
    }
    return copy;
  }
  return value;
}

const TYPE_TEXT: Readonly<Record<string, string>> = {
  number: 'must be a number',
  integer: 'must be a number',
  string: 'must be a string',
  object: 'must be an object',
  boolean: 'must be a JSON boolean (true or false)',
  array: 'must be an array',
};

/** What a `date-time` field must be: said the same by every schema and hand-made check that takes one. */
export const DATE_TIME_TEXT = 'must be a date and time with its offset, such as 2026-11-20T10:00:00Z';

const FORMAT_TEXT: Readonly<Record<string, string>> = {
  email: 'must be a valid e-mail address',
  [DATE_FORMAT]: 'must be a real date written YYYY-MM-DD or DD/MM/YYYY',
  'date-time': DATE_TIME_TEXT,
};

/** "a, b or c" */
const orList = (items: readonly unknown[]): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${String(items[items.length - 1])}`;

function rangeText({ minimum, maximum }: Schema): string {
  if (minimum !== undefined && maximum !== undefined) return `must be between ${minimum} and ${maximum}`;
  return minimum !== undefined ? `must be at least ${minimum}` : `must be at most ${String(maximum)}`;
}

function lengthText({ minLength, maxLength }: Schema, { keyword }: ErrorObject): string {
  if (keyword === 'minLength' && minLength === 1) return 'must not be empty';
  if (minLength !== undefined && minLength > 1 && maxLength !== undefined)
    return `must be between ${minLength} and ${maxLength} characters`;
  return keyword === 'minLength'
    ? `must be at least ${String(minLength)} characters`
    : `must be at most ${String(maxLength)} characters`;
}

/** The rule text of a failing keyword, from its schema (`parentSchema`) and the error; `is invalid` if unlisted. */
const RULE_TEXT: Readonly<Record<string, (schema: Schema, error: ErrorObject) => string>> = {
  required: () => 'is required',
  minimum: rangeText,
  maximum: rangeText,
  minLength: lengthText,
  maxLength: lengthText,
  minItems: ({ minItems }) => `must list at least ${String(minItems)} item${minItems === 1 ? '' : 's'}`,
  maxItems: ({ maxItems }) => `must list at most ${String(maxItems)} items`,
  enum: (_, error) => `must be one of ${(error.schema as unknown[]).join(', ')}`,
  const: (_, error) => `must be ${String(error.schema)}`,
  format: (_, { params }) => FORMAT_TEXT[String(params.format)] ?? `must match format ${String(params.format)}`,
  'x-consent': ({ 'x-consent': { name, anyTrue } }) => `${name} is required: one of ${orList(anyTrue)} must be true`,
  'x-minimumAge': (_, error) => `applicant must be at least ${String(error.schema)} years old`,
  'x-notInFuture': () => 'must not be in the future',
  'x-cents': () => 'must be an amount with at most two decimal places',
  maxProperties: ({ maxProperties }) => `must hold at most ${String(maxProperties)} entries`,
  propertyNames: () => 'has a key that is not allowed',
  pattern: () => 'is not in the allowed form',
};

/** The rule and text of a `type` error. */
function typeRule({ data, params }: ErrorObject): [rule: string, text: string] {
  // `integer` fails both for "abc" and for 2.5; only the latter is "not a whole number".
  if (params.type === 'integer' && typeof data === 'number' && Number.isFinite(data))
    return ['integer', 'must be a whole number'];
  // A numeric string past the length a number field takes: name the limit, as any over-long string's message does.
  if (typeof data === 'string' && data.length > NUMERIC_STRING_MAX_LENGTH && NUMERIC_STRING.test(data))
    return ['maxLength', `must be a number, or a numeric string of at most ${NUMERIC_STRING_MAX_LENGTH} characters`];
  return ['type', TYPE_TEXT[String(params.type)] ?? `must be of type ${String(params.type)}`];
}

/**
 * The short machine word for the failing keyword and its rule text, both derived from the schema. The
 * word is the keyword, without the `x-` of a custom one; `minimum` and `maximum` are both `range`.
 */
function describe(error: ErrorObject): { rule: string; text: string } {
  const schema: Schema = error.parentSchema ?? {};
  const { keyword } = error;
  const override = schema['x-message'];
  const custom = typeof override === 'string' ? override : override?.[keyword];
  const [rule, text] =
    keyword === 'type'
      ? typeRule(error)
      : [
          keyword === 'minimum' || keyword === 'maximum' ? 'range' : keyword.replace(/^x-/, ''),
          RULE_TEXT[keyword]?.(schema, error) ?? 'is invalid',
        ];
  return { rule, text: custom ?? text };
}

/** `/homeAddressComponents/postcode` → `homeAddressComponents.postcode` (JSON Pointer unescaped). */
const pointerToPath = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** `['homeAddressComponents', 'postcode']` → `homeAddressComponents.postcode`; array items as `events[0]`. */
const fieldName = (path: readonly string[]): string =>
  path.reduce(
    (name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment),
    '',
  );

/** Index of each path segment in its schema's table (`properties` order), for sorting violations. */
function tablePosition(schema: Schema, path: readonly string[]): number[] {
  const position: number[] = [];
  let current: Schema | undefined = schema;
  for (const segment of path) {
    const properties: Record<string, Schema> = current?.properties ?? {};
    const index = Object.keys(properties).indexOf(segment);
    position.push(index === -1 ? Number.MAX_SAFE_INTEGER - 1 : index);
    current = Object.hasOwn(properties, segment) ? properties[segment] : undefined;
  }
  return position;
}

const comparePositions = (a: readonly number[], b: readonly number[]): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

function toViolations(schema: Schema, rootField: string, errors: readonly ErrorObject[]): FieldViolation[] {
  const reported = errors.filter(
    (error) =>
      // An `if` error only says "then failed"; the real violation is reported by the `then` keyword.
      error.keyword !== 'if' &&
      // A key's own failure is told once, by the `propertyNames` error of the object (its text names the rule).
      !error.schemaPath.includes('/propertyNames/'),
  );
  // A value of the wrong type gets one message: the enum's (it lists what is allowed) if the field has
  // one, else the type's; range, length or const errors of the same value would only add noise. The
  // value-level errors of one field share its instance path; '' is the root, for object-level rules.
  const typeErrorAt = new Set(
    reported.filter((e) => e.keyword === 'type' && e.instancePath !== '').map((e) => e.instancePath),
  );
  const enumErrorAt = new Set(reported.filter((e) => e.keyword === 'enum').map((e) => e.instancePath));
  const kept = reported.filter((e) => {
    if (!typeErrorAt.has(e.instancePath)) return true;
    return enumErrorAt.has(e.instancePath) ? e.keyword === 'enum' : e.keyword === 'type';
  });

  const ranked = kept.map((error) => {
    const path = pointerToPath(error.instancePath);
    if (error.keyword === 'required') path.push(String(error.params.missingProperty));
    if (error.keyword === 'x-consent') path.push((error.schema as ConsentRule).anyTrue[0]);
    const field = path.length === 0 ? rootField : fieldName(path);
    const { rule, text } = describe(error);
    // Order: the root object itself first (its position is empty, before any other), then fields in
    // table order (nested fields in their own table's order), then cross-field rules such as consent,
    // whose fields' own type errors come first.
    const position = error.keyword === 'x-consent' ? [Number.MAX_SAFE_INTEGER] : tablePosition(schema, path);
    return { position, violation: { field, rule, message: `${field}: ${text}` } };
  });
  // Array.prototype.sort is stable: within one field, ajv's order is kept.
  ranked.sort((a, b) => comparePositions(a.position, b.position));
  return ranked.map(({ violation }) => violation);
}

/**
 * The validator of a schema, compiled once (ajv keeps one per schema object: car steps 3 and 4 share
 * personal's). It prepares a copy of its input, validates it (removing unknown fields, applying defaults)
 * and returns it, of the schema's type. `now` is the day an age (`x-minimumAge`) is measured on; today
 * when absent. `rootField` is what a violation of the root object itself is called: `data` for step
 * data, `body` for a request.
 */
export function validator<S extends TSchema>(schema: S, rootField = 'body') {
  const validate = ajv.compile(schema);
  return (input: unknown, now?: Date): Result<Static<S>> => {
    if (now !== undefined && Number.isNaN(now.getTime())) throw new TypeError('now must be a valid date');
    const data = prepare(schema, input);
    referenceDate = now;
    try {
      if (validate(data)) return ok(data as Static<S>);
    } finally {
      referenceDate = undefined;
    }
    const violations = toViolations(schema, rootField, validate.errors ?? []);
    return fail('VALIDATION_ERROR', violations[0]?.message ?? `${rootField}: is invalid`, violations);
  };
}
