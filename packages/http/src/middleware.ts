import { randomUUID } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import { HttpError } from './errors';
import type { Logger } from './logger';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every response carries `X-Request-Id`: the caller's, when it is a sane token, or a new one. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('X-Request-Id');
  const id = given && REQUEST_ID.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};

/** One JSON line per request: id, method, route template, status, duration; never a body or a key. */
export function accessLog(logger: Logger, contract: string): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = req.route ? `${req.baseUrl}${req.route.path}` : undefined;
      logger.info('request', {
        requestId: res.locals.requestId,
        contract,
        method: req.method,
        route: route ?? 'unmatched',
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        partnerId: res.locals.partner?.partnerId,
      });
    });
    next();
  };
}

/** JSON bodies up to 1 MB (or `limit`); a body of another type is refused rather than silently ignored. */
export function jsonBody(limit = '1mb'): RequestHandler[] {
  const parse = express.json({ limit, strict: true });
  const requireJson: RequestHandler = (req, _res, next) => {
    if (req.body === undefined && hasBody(req) && !req.is('application/json')) {
      return next(new HttpError('INVALID_JSON', 'The request body must be JSON, sent with Content-Type: application/json'));
    }
    next();
  };
  return [parse, requireJson];
}

function hasBody(req: express.Request): boolean {
  const length = req.get('content-length');
  return req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}
