/**
 * Request bodies: JSON only (415 otherwise, before a byte is read), bounded in bytes (413), then in nesting
 * and element count on the raw text before it is parsed (docs/adr/0151), and holding only text PostgreSQL
 * can store.
 */
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { violation } from '@loanmatch/domain';
import { HttpError } from './errors';

/**
 * `bytes` after any Content-Encoding is undone; `depth` of nested objects and arrays (no request of ours
 * nests deeper: the catalogue, the deepest, has 6 levels); `elements`: object members and array items in all.
 */
type BodyBounds = { bytes: number; depth: number; elements: number };

export const MAX_BODY_DEPTH = 32;

export const BODY_BOUNDS = {
  /** Both partner contracts: the largest body (a Variant B create) is about 2 KB. */
  partner: { bytes: 32 * 1024, depth: MAX_BODY_DEPTH, elements: 1000 },
  admin: { bytes: 16 * 1024, depth: MAX_BODY_DEPTH, elements: 1000 },
  /** `PUT /admin/v1/catalogue`: a catalogue of 5 MB written compactly holds about 310,000 elements. */
  catalogue: { bytes: 5 * 1024 * 1024, depth: MAX_BODY_DEPTH, elements: 400_000 },
} as const satisfies Record<string, BodyBounds>;

/** JSON bodies within `bounds`; a request without a body passes with one check. */
export function jsonBody(bounds: BodyBounds): RequestHandler {
  const parse = express.json({
    limit: bounds.bytes,
    strict: true,
    // Sees the bytes before they are decoded: the decoder would silently turn bytes that are not UTF-8 into
    // U+FFFD, and the structure check below counts brackets in UTF-8 bytes: a body declared in another charset
    // (utf-16le, say) would pass it uncounted.
    verify: (_req, _res, body, encoding) => {
      if (encoding !== 'utf-8' || !isUtf8(body))
        throw new HttpError('INVALID_JSON', 'The request body must be UTF-8 JSON');
      checkStructure(body, bounds);
    },
  });
  return (req, res, next) => {
    const length = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (length === undefined && !chunked) return next();
    if ((chunked || length !== '0') && !req.is('application/json')) {
      const message = 'The request body must be JSON, sent with Content-Type: application/json';
      return next(new HttpError('UNSUPPORTED_MEDIA_TYPE', message));
    }
    parse(req, res, (err?: unknown) => {
      if (err || req.body === undefined || !hasUnstorableText(req.body)) return next(err);
      const message = 'The request body must not contain \\u0000 or unpaired surrogates (\\ud800-\\udfff)';
      next(new HttpError('INVALID_JSON', message));
    });
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the character this pattern exists to find.
const UNSTORABLE_TEXT = /[\u0000\p{Cs}]/u;

/** Whether a string or key holds U+0000 or an unpaired surrogate, which PostgreSQL's text and jsonb refuse. */
function hasUnstorableText(body: unknown): boolean {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (UNSTORABLE_TEXT.test(value)) return true;
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) pending.push(key, child);
    }
  }
  return false;
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * 400 when the JSON text nests deeper or holds more members and items than `bounds` allow: outside strings,
 * each comma adds an element and so does each container that is not empty. Text that is not JSON passes here.
 */
function checkStructure(body: Buffer, bounds: BodyBounds): void {
  let depth = 0;
  let elements = 0;
  let inString = false;
  let escaped = false;
  let opened = false;
  for (const b of body) {
    if (inString) {
      if (escaped) escaped = false;
      else if (b === 0x5c /* \ */) escaped = true;
      else if (b === 0x22 /* " */) inString = false;
      continue;
    }
    if (isSpace(b)) continue;
    if (opened) {
      opened = false;
      if (b !== 0x7d && b !== 0x5d) elements++; // not } or ]
    }
    if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) {
      if (++depth > bounds.depth) throw tooLarge('depth', `must nest at most ${bounds.depth} levels deep`);
      opened = true;
    } else if (b === 0x7d || b === 0x5d) depth--;
    else if (b === 0x2c) elements++;
    if (elements > bounds.elements)
      throw tooLarge('elements', `must hold at most ${bounds.elements} fields and array items in all`);
  }
}

/** A bound of the whole body broken, said as a validation message of the field `body`. */
function tooLarge(rule: string, text: string): HttpError {
  const refused = violation('body', rule, text);
  return new HttpError('VALIDATION_ERROR', refused.message, [refused]);
}
