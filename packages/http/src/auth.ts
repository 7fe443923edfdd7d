import type { RequestHandler } from 'express';
import { authenticateApiKey, type DomainContext } from '@loanmatch/domain';
import { sendError } from './errors';

/** The bearer credential of `Authorization`, or undefined. */
export function bearer(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : undefined;
}

/** Variant A and webhooks: `Authorization: Bearer <API key>`; the partner goes to `res.locals.partner`. */
export function requireApiKey(ctx: DomainContext): RequestHandler {
  return async (req, res, next) => {
    const result = await authenticateApiKey(ctx, { apiKey: bearer(req.get('Authorization')) });
    if (!result.ok) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendError(res, result.error.code, result.error.message);
    }
    res.locals.partner = result.value;
    next();
  };
}
