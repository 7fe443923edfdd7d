/**
 * The JSON Schema subset the field tables are written in, and the small builders that shape them. The
 * builders hold no bounds: every number passed to them is written in the tables of schemas.ts.
 */

/** The subset of JSON Schema these tables use, plus our annotation / custom keywords. */
export interface JsonSchema {
  readonly type?: 'object' | 'string' | 'number' | 'integer' | 'boolean' | 'array';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly enum?: readonly (string | number)[];
  readonly const?: string | number | boolean;
  readonly default?: string | number | boolean;
  readonly format?: string;
  readonly pattern?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly maxProperties?: number;
  readonly propertyNames?: JsonSchema;
  readonly if?: JsonSchema;
  readonly then?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly 'x-message'?: string | Readonly<Record<string, string>>;
  readonly 'x-consent'?: ConsentRule;
  readonly 'x-minimumAge'?: number;
  readonly 'x-notInFuture'?: number; // seconds of clock difference allowed to a time not in the future
  /** An amount of dollars with at most two decimal places: a whole number of cents. */
  readonly 'x-cents'?: true;
}

/** An object schema: what `schemaFor` and `applicantSchema` are. */
export interface ObjectSchema extends JsonSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties: false;
}

/** `x-consent`: at least one of `anyTrue` must be the JSON boolean `true`. */
export interface ConsentRule {
  readonly name: string;
  readonly anyTrue: readonly string[];
}

/** Custom format of `dateOfBirth`: a real calendar date written `YYYY-MM-DD` or `DD/MM/YYYY`. */
export const DATE_FORMAT = 'date-ymd-or-dmy';

// ---------------------------------------------------------------------------------------------
// Small builders. They only shape the schema; every number passed to them below is a table bound.
// ---------------------------------------------------------------------------------------------

export const number = (minimum: number, maximum: number): JsonSchema => ({ type: 'number', minimum, maximum });
/** Whole numbers only: 2.5 fails with "must be a whole number". */
export const integer = (minimum: number, maximum: number): JsonSchema => ({ type: 'integer', minimum, maximum });
export const oneOf = (...values: string[]): JsonSchema => ({ type: 'string', enum: values });
/** "string, not empty, max N characters". */
export const nonEmptyText = (maxLength: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength });
/** "string, max N characters" (may be empty). */
export const text = (maxLength: number): JsonSchema => ({ type: 'string', maxLength });
export const boolean = (): JsonSchema => ({ type: 'boolean' });
export const withDefault = (schema: JsonSchema, value: string | number | boolean): JsonSchema => ({
  ...schema,
  default: value,
});

export type ObjectRules = Omit<JsonSchema, 'type' | 'properties' | 'required' | 'additionalProperties'>;

export function object(
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  extra: ObjectRules = {},
): ObjectSchema {
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...extra,
  };
}

/** "Each of these fields is present and matches its schema": the `if` of a conditional rule. Without
 * `required`, an absent field would make the `if` pass and the rule fire. */
export const present = (fields: Record<string, JsonSchema>): JsonSchema => ({
  properties: fields,
  required: Object.keys(fields),
});
