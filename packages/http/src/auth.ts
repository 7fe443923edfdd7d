import type { RequestHandler } from 'express';
import {
  authenticateApiKey,
  authenticateLenderKey,
  authenticateTokenExchange,
  authenticateTokenSubject,
  type DomainContext,
} from '@loanmatch/domain';
import { sendError } from './errors';
import type { AccessTokenCheck, AccessTokens } from './jwt';

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

/** Variant B's token exchange: `X-API-Key: <API key>`; the partner goes to `res.locals.partner`. */
export function requireApiKeyHeader(ctx: DomainContext): RequestHandler {
  return async (req, res, next) => {
    const result = await authenticateTokenExchange(ctx, { apiKey: req.get('X-API-Key') });
    if (!result.ok) {
      res.setHeader('WWW-Authenticate', 'ApiKey header="X-API-Key"');
      return sendError(res, result.error.code, result.error.message);
    }
    res.locals.partner = result.value;
    next();
  };
}

const EXCHANGE = 'exchange your API key at POST /v1/auth/token';
/** Why an access token is refused, in the words of the 401 (the OpenAPI documents quote them). */
export const TOKEN_REFUSALS: Record<Exclude<AccessTokenCheck, { ok: true }>['reason'], string> = {
  missing: `An access token is required: ${EXCHANGE}, then send Authorization: Bearer <access token>`,
  api_key: `An API key is not an access token: ${EXCHANGE}, then send Authorization: Bearer <access token>`,
  expired: `The access token has expired: ${EXCHANGE} for a new one`,
  invalid: `The access token is not valid: ${EXCHANGE} for a new one`,
};

/**
 * Variant B: `Authorization: Bearer <access token>`, a JWT of `tokens`. On every request the API key
 * it was exchanged for must still be active, so revoking a key ends its tokens at once.
 */
export function requireAccessToken(ctx: DomainContext, tokens: AccessTokens): RequestHandler {
  return async (req, res, next) => {
    const check = tokens.verify(bearer(req.get('Authorization')));
    if (!check.ok) {
      res.setHeader('WWW-Authenticate', check.reason === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"');
      return sendError(res, 'UNAUTHORIZED', TOKEN_REFUSALS[check.reason]);
    }
    const result = await authenticateTokenSubject(ctx, { partnerId: check.partnerId, keyId: check.keyId });
    if (!result.ok) {
      res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
      return sendError(res, result.error.code, result.error.message);
    }
    res.locals.partner = result.value;
    next();
  };
}

/** Where the Variant A listener serves the lender API (CONTRACT.md "Referral lifecycle"). */
export const LENDER_BASE_PATH = '/api/lender/v1';

/** The lender route: `Authorization: Bearer <lender key>`; the lender goes to `res.locals.lender`. */
export function requireLenderKey(ctx: DomainContext): RequestHandler {
  return async (req, res, next) => {
    const result = await authenticateLenderKey(ctx, { apiKey: bearer(req.get('Authorization')) });
    if (!result.ok) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendError(res, result.error.code, result.error.message);
    }
    res.locals.lender = result.value;
    next();
  };
}
