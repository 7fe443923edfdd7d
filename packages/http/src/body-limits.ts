/**
 * How large a request body may be, per family of routes, and how much structure it may hold. No
 * partner or admin body needs more than a few kilobytes; the lender catalogue is the one large
 * document. The byte limit answers 413 before a byte is parsed (from Content-Length, or as soon as a
 * body sent in chunks passes it); the structure is checked on the raw bytes, in one pass that stops at
 * the first excess, before `JSON.parse` or any walk of the body runs (docs/adr/0151).
 */
import { HttpError } from './errors';

export interface BodyBounds {
  /** Largest body, in bytes, after any Content-Encoding is undone. */
  readonly bytes: number;
  /** Deepest nesting of objects and arrays. */
  readonly depth: number;
  /** Most object members and array items in the whole body. */
  readonly elements: number;
}

/** No request of ours nests deeper (the catalogue document, the deepest, has 6 levels). */
export const MAX_BODY_DEPTH = 32;

export const BODY_BOUNDS = Object.freeze({
  /** Both partner contracts, webhooks included: the largest body (a Variant B create) is about 2 KB. */
  partner: Object.freeze({ bytes: 32 * 1024, depth: MAX_BODY_DEPTH, elements: 1000 }),
  /** The admin API's small bodies (a partner, a tier's limit). */
  admin: Object.freeze({ bytes: 16 * 1024, depth: MAX_BODY_DEPTH, elements: 1000 }),
  /** `PUT /admin/v1/catalogue`: a catalogue of 5 MB written compactly holds about 310,000 elements. */
  catalogue: Object.freeze({ bytes: 5 * 1024 * 1024, depth: MAX_BODY_DEPTH, elements: 400_000 }),
} satisfies Record<string, BodyBounds>);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Throws 400 VALIDATION_ERROR when the JSON text nests deeper or holds more members and items than
 * `bounds` allow. Counts on the bytes: outside strings, each comma adds an element and so does each
 * container that is not empty. Text that is not JSON passes here and is refused by the parser.
 */
export function checkBodyStructure(body: Buffer, bounds: BodyBounds): void {
  let depth = 0;
  let elements = 0;
  let inString = false;
  let escaped = false;
  let opened = false;
  for (let i = 0; i < body.length; i++) {
    const b = body[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (b === BACKSLASH) escaped = true;
      else if (b === QUOTE) inString = false;
      continue;
    }
    if (isSpace(b)) continue;
    if (opened) {
      opened = false;
      if (b !== CLOSE_OBJECT && b !== CLOSE_ARRAY) elements++;
    }
    if (b === QUOTE) inString = true;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > bounds.depth)
        throw new HttpError('VALIDATION_ERROR', `The request body is nested deeper than ${bounds.depth} levels`);
      opened = true;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) depth--;
    else if (b === COMMA) elements++;
    if (elements > bounds.elements)
      throw new HttpError(
        'VALIDATION_ERROR',
        `The request body holds more than ${bounds.elements} fields and array items in all`,
      );
  }
}
