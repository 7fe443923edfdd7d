import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import { HEADER_SCHEMAS, stringCheck } from '@loanmatch/domain';
import { type BodyBounds, checkBodyStructure } from './body-limits';
import { unsupportedMediaType } from './content-type';
import { HttpError, notFound } from './errors';
import type { AccessLine, Logger } from './logger';
import type { RequestObserver } from './metrics';

const isRequestId = stringCheck(HEADER_SCHEMAS.requestId);

/** Every response carries `X-Request-Id`: the caller's, when it is a sane token, or a new one. */
function assignRequestId(req: express.Request, res: express.Response): void {
  const given = req.headers['x-request-id'];
  const id = isRequestId(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
}

/**
 * What every listener runs first, as one middleware (each layer of Express's stack costs a request
 * some microseconds): the request id, the access log, and the refusal of requests no route answers.
 */
export function frontDoor(logger: Logger, contract: string, requests?: RequestObserver): RequestHandler {
  const log = accessLog(logger, contract, requests);
  return (req, res, next) => {
    assignRequestId(req, res);
    // No conditional requests (no ETag, no Last-Modified): left in, `If-None-Match: *` would make Express
    // answer a GET with a bodyless 304 outside the envelope.
    delete req.headers['if-none-match'];
    delete req.headers['if-modified-since'];
    log(req, res, () => refuseUnroutable(req, res, next));
  };
}

/**
 * One log line per request: id, contract, method, route template, status, duration, and the partner's
 * id when one was authenticated; never a body, a key or a raw URL (it holds ids). The same moment feeds
 * the request-duration metric, when the listener has one, so a request costs one `finish` listener.
 */
export function accessLog(logger: Logger, contract: string, requests?: RequestObserver): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // Refused before a route matched (401, 429) or no route at all (404): no template to name.
      const route = req.route ? `${req.baseUrl}${req.route.path}` : 'unmatched';
      requests?.observe(route, res.statusCode, durationMs / 1000);
      const line: AccessLine = {
        requestId: res.locals.requestId,
        contract,
        method: req.method,
        route,
        status: res.statusCode,
        durationMs,
        partnerId: res.locals.partner?.partnerId,
      };
      logger.info('request', line);
    });
    next();
  };
}

/**
 * Requests no route answers, refused before any route runs with 404 in the envelope: OPTIONS (there is
 * no CORS; left alone, Express answers it itself for a known path, in text/plain outside the envelope),
 * and a path holding an encoded NUL (no id or name of ours has one, and PostgreSQL refuses it in text,
 * so a query with it would fail).
 */
export const refuseUnroutable: RequestHandler = (req, res, next) =>
  req.method === 'OPTIONS' || req.path.includes('%00') ? notFound(req, res, next) : next();

/**
 * JSON bodies within `bounds` (docs/adr/0151: bytes, then nesting and element count on the raw text, before
 * it is parsed); a body of another type is refused (415, `content-type.ts`) before it is read, rather
 * than silently ignored. A body we could not store safely is refused here, once for every route: bytes
 * that are not UTF-8 (the decoder would silently turn them into U+FFFD), and strings or keys holding
 * U+0000 or an unpaired surrogate, which PostgreSQL's text and jsonb refuse.
 * One middleware, not three: a request without a body (every GET) passes it with one check.
 */
export function jsonBody(bounds: BodyBounds): RequestHandler {
  const parse = express.json({
    limit: bounds.bytes,
    strict: true,
    verify: (_req, _res, body, encoding) => {
      requireUtf8(body, encoding);
      checkBodyStructure(body, bounds);
    },
  });
  const check = (req: express.Request): HttpError | undefined => {
    if (req.body === undefined) return undefined;
    const problem = unstorable(req.body);
    return problem === undefined ? undefined : new HttpError('INVALID_JSON', problem);
  };
  return (req, res, next) => {
    // Neither header: no body, which the parser would leave undefined too.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    const refused = unsupportedMediaType(req);
    if (refused) return next(refused);
    parse(req, res, (err?: unknown) => (err ? next(err) : next(check(req))));
  };
}

/** Run by body-parser's `verify` hook, which sees the bytes before they are decoded. */
function requireUtf8(body: Buffer, encoding: string): void {
  if (encoding === 'utf-8' && !isUtf8(body)) throw new HttpError('INVALID_JSON', 'The request body must be UTF-8 JSON');
}

/** U+0000, or a surrogate not in a pair (a `u` regex sees a pair as one code point, outside Cs). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the character this pattern exists to find.
const UNSTORABLE_TEXT = /[\u0000\p{Cs}]/u;

/** Why a parsed body cannot be accepted, or undefined. Its size and depth were bounded before it was parsed. */
function unstorable(body: unknown): string | undefined {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (UNSTORABLE_TEXT.test(value))
        return 'The request body must not contain \\u0000 or unpaired surrogates (\\ud800-\\udfff)';
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) pending.push(key, child);
  }
  return undefined;
}
