/**
 * `clientTags`: a partner's own attribution on an application (campaign, channel, sub-id), at most 5
 * `{key: value}` entries of `[A-Za-z0-9_.-]`, keys up to 32 and values up to 128 characters. Taken at
 * create by both contracts (Variant A beside `formType`, Variant B flat) and carried onto the
 * application's referrals, their outcomes, reports and webhooks. The one place these bounds are written.
 */
import type { JsonSchema } from './schema-builders';

export const CLIENT_TAGS_MAX_ENTRIES = 5;
export const CLIENT_TAG_KEY_MAX_LENGTH = 32;
export const CLIENT_TAG_VALUE_MAX_LENGTH = 128;
/** The characters of a key or a value. */
export const CLIENT_TAG_CHARACTERS = 'A-Za-z0-9_.-';
const CHARACTERS_TEXT = 'A-Z, a-z, 0-9, _, . and -';

/** A whole key, as `groupBy=tag:<key>` names one. */
export const CLIENT_TAG_KEY_PATTERN = `^[${CLIENT_TAG_CHARACTERS}]{1,${CLIENT_TAG_KEY_MAX_LENGTH}}$`;

/** The characters alone; the lengths are `minLength` and `maxLength`, so that a value breaks one rule at a time. */
const CHARACTERS_ONLY = `^[${CLIENT_TAG_CHARACTERS}]*$`;

export const clientTagsSchema: JsonSchema = Object.freeze({
  type: 'object',
  maxProperties: CLIENT_TAGS_MAX_ENTRIES,
  propertyNames: Object.freeze({
    type: 'string',
    minLength: 1,
    maxLength: CLIENT_TAG_KEY_MAX_LENGTH,
    pattern: CHARACTERS_ONLY,
  }),
  additionalProperties: Object.freeze({
    type: 'string',
    minLength: 1,
    maxLength: CLIENT_TAG_VALUE_MAX_LENGTH,
    pattern: CHARACTERS_ONLY,
    'x-message': `must be a string of 1 to ${CLIENT_TAG_VALUE_MAX_LENGTH} characters of ${CHARACTERS_TEXT}`,
  }),
  'x-message': Object.freeze({
    type: `must be an object of at most ${CLIENT_TAGS_MAX_ENTRIES} tags, {"key": "value"}`,
    maxProperties: `must hold at most ${CLIENT_TAGS_MAX_ENTRIES} tags`,
    propertyNames: `each key must be 1 to ${CLIENT_TAG_KEY_MAX_LENGTH} characters of ${CHARACTERS_TEXT}`,
  }),
}) as JsonSchema;

/** Stored tags: none is kept as null; a view always shows an object. */
export type ClientTags = Readonly<Record<string, string>>;
