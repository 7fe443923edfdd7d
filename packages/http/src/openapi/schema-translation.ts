/**
 * The domain's validation schemas (packages/domain/src/validation/schemas.ts), translated into the
 * JSON Schema 2020-12 dialect of OpenAPI 3.1. The domain's schemas are the only place a bound is
 * written; this module copies them keyword by keyword and rewrites the few that only our ajv
 * instance understands:
 *
 * - `x-message` (error text): a string becomes the schema's `description` (`<required fields>: <text>`
 *   on a conditional rule), an object (texts of the wrappers' own type errors) is dropped;
 * - `x-consent` (one of several booleans must be `true`): the equivalent `anyOf` of
 *   `{required: [field], properties: {field: {const: true}}}` (inside `allOf`), with a description;
 * - `x-minimumAge`, `x-notInFuture`: a description (a bound on today's date is not expressible in JSON Schema);
 * - the custom format of `dateOfBirth`: the domain's two date patterns as one `pattern`, and a
 *   description (the calendar check is not expressible either);
 * - `x-cents`: a description (whole cents is not expressible exactly in JSON numbers);
 * - `additionalProperties: false`: dropped. The validator uses it to *remove* unknown fields, which
 *   the API then ignores (spec 2.1 rule 2); in a document it would say they are refused.
 *
 * A request schema (what a partner sends) and a response schema (a step as stored and answered) differ:
 * - a number field of a request is `oneOf` the bounded number and a numeric string (at most
 *   `NUMERIC_STRING_MAX_LENGTH` characters), as the validator takes both; a response holds numbers;
 * - a request field's `default` becomes words in its description, so that generators keep the field
 *   optional (openapi-typescript makes a field with a `default` required); in a response the defaulted
 *   fields are required, as the stored step always has them;
 * - a response carries no rule that only a request can break (conditional requirements, messages).
 * Integers are `int32` either way: every bound of the tables fits.
 *
 * A keyword this module does not know makes the translation throw, so a new custom keyword in the
 * domain cannot slip into the documents untranslated.
 */
import {
  AU_DATE,
  DATE_FORMAT,
  INTEGER_STRING,
  ISO_DATE,
  NUMERIC_STRING,
  NUMERIC_STRING_MAX_LENGTH,
  type ConsentRule,
  type JsonSchema,
} from '@loanmatch/domain';

/** A schema object of the OpenAPI document (JSON Schema 2020-12 plus OpenAPI's annotations). */
export type Schema = { [keyword: string]: unknown };

/** Keywords of the domain's schemas that mean the same in JSON Schema 2020-12, copied as they are. */
const STANDARD = new Set([
  'type',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'const',
  'default',
  'format',
  'minItems',
  'maxItems',
  'required',
  'maxProperties',
  'pattern',
]);
/** Keywords whose value is a schema, or a list or map of schemas, translated recursively. */
const SUBSCHEMA = new Set(['items', 'if', 'then', 'propertyNames']);
const SUBSCHEMA_LIST = new Set(['anyOf', 'allOf']);
/** What a response schema leaves out: rules only a request can break, and their words. */
const REQUEST_ONLY = new Set(['if', 'then', 'anyOf', 'allOf', 'x-message', 'x-consent', 'x-minimumAge']);

/** `^(?:<ISO>|<AU>)$` from the domain's own two regular expressions. */
export const DATE_PATTERN = `^(?:${ISO_DATE.source.slice(1, -1)}|${AU_DATE.source.slice(1, -1)})$`;

/** `request`: what a partner sends; `response`: a step as the service stores and answers it. */
export type Direction = 'request' | 'response';

export function toOpenApiSchema(schema: JsonSchema, direction: Direction = 'request'): Schema {
  const out: Schema = {};
  const notes: string[] = [];
  const alsoAllOf: Schema[] = [];
  for (const [keyword, value] of Object.entries(schema) as Array<[string, unknown]>) {
    if (direction === 'response' && REQUEST_ONLY.has(keyword)) continue;
    if (STANDARD.has(keyword)) {
      if (keyword === 'format' && value === DATE_FORMAT) {
        out.pattern = DATE_PATTERN;
        notes.push('A real calendar date, written `YYYY-MM-DD` or `DD/MM/YYYY`.');
      } else if (keyword === 'default') {
        if (direction === 'request') notes.push(`Default when omitted: \`${JSON.stringify(value)}\`.`);
      } else {
        out[keyword] = Array.isArray(value) ? [...value] : value;
      }
    } else if (SUBSCHEMA.has(keyword)) {
      out[keyword] = toOpenApiSchema(value as JsonSchema, direction);
    } else if (SUBSCHEMA_LIST.has(keyword)) {
      out[keyword] = (value as JsonSchema[]).map((sub) => toOpenApiSchema(sub, direction));
    } else if (keyword === 'properties') {
      const properties = value as Record<string, JsonSchema>;
      out.properties = Object.fromEntries(
        Object.entries(properties).map(([name, sub]) => [name, toOpenApiSchema(sub, direction)]),
      );
    } else if (keyword === 'additionalProperties') {
      // A schema for the values of a map (`clientTags`) is the same in the document.
      if (typeof value === 'object' && value !== null) out.additionalProperties = toOpenApiSchema(value as JsonSchema);
      else if (value !== false)
        throw new TypeError(`additionalProperties: ${JSON.stringify(value)} has no translation`);
    } else if (keyword === 'x-cents') {
      notes.push('In dollars, with at most two decimal places (whole cents).');
    } else if (keyword === 'x-message') {
      // The rule's own words, as its error message reads: `<fields>: <text>`.
      if (typeof value === 'string') notes.push(schema.required ? `${schema.required.join(', ')}: ${value}` : value);
    } else if (keyword === 'x-consent') {
      const rule = value as ConsentRule;
      alsoAllOf.push({
        description: `The ${rule.name} is required: one of ${rule.anyTrue.map((f) => `\`${f}\``).join(', ')} must be the JSON boolean \`true\`.`,
        anyOf: rule.anyTrue.map((field) => ({ required: [field], properties: { [field]: { const: true } } })),
      });
    } else if (keyword === 'x-minimumAge') {
      notes.push(`The applicant must be at least ${String(value)} years old on the day of the check.`);
    } else if (keyword === 'x-notInFuture') {
      notes.push(`Not in the future (${String(value)} seconds of clock difference are allowed).`);
    } else {
      throw new TypeError(`the schema keyword ${keyword} has no OpenAPI translation`);
    }
  }
  if (alsoAllOf.length > 0) out.allOf = [...((out.allOf as Schema[] | undefined) ?? []), ...alsoAllOf];
  if (out.type === 'integer') out.format = 'int32';
  // A stored step always holds its defaulted fields.
  const defaulted = Object.entries(schema.properties ?? {}).filter(([, sub]) => sub.default !== undefined);
  if (direction === 'response' && defaulted.length > 0)
    out.required = [...new Set([...(schema.required ?? []), ...defaulted.map(([name]) => name)])];
  const translated = direction === 'request' && isNumeric(out) ? numberOrNumericString(out) : out;
  if (notes.length > 0) translated.description = notes.join(' ');
  return translated;
}

const isNumeric = (schema: Schema): boolean => schema.type === 'number' || schema.type === 'integer';

/**
 * A number field as the validator takes it: the bounded JSON number, or a numeric string (converted,
 * then held to the same bounds). Whole-number fields document strings of digits.
 */
function numberOrNumericString(number: Schema): Schema {
  const pattern = number.type === 'integer' ? INTEGER_STRING : NUMERIC_STRING;
  return {
    oneOf: [
      number,
      {
        type: 'string',
        pattern: pattern.source,
        maxLength: NUMERIC_STRING_MAX_LENGTH,
        description: 'The same number as a plain decimal string, held to the same bounds.',
      },
    ],
  };
}
