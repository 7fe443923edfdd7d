import type { Request, RequestHandler } from 'express';
import {
  authenticateApiKey,
  authenticateLenderKey,
  authenticateTokenExchange,
  authenticateTokenSubject,
  type DomainContext,
  type Result,
} from '@loanmatch/domain';
import { sendError } from './errors';
import type { AccessTokenCheck, AccessTokens } from './jwt';

export const LENDER_BASE_PATH = '/api/lender/v1';

/** The bearer credential of `Authorization`, or undefined. */
export function bearer(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : undefined;
}

/** A middleware that puts what `authenticate` answers in `res.locals[local]`, or refuses with `challenge`. */
function requireKey(
  local: 'partner' | 'lender',
  challenge: string,
  authenticate: (req: Request) => Promise<Result<unknown>>,
): RequestHandler {
  return async (req, res, next) => {
    const result = await authenticate(req);
    if (!result.ok) {
      res.setHeader('WWW-Authenticate', challenge);
      return sendError(res, result.error.code, result.error.message);
    }
    res.locals[local] = result.value;
    next();
  };
}

/** Variant A and webhooks: `Authorization: Bearer <API key>`. */
export const requireApiKey = (ctx: DomainContext): RequestHandler =>
  requireKey('partner', 'Bearer', (req) => authenticateApiKey(ctx, { apiKey: bearer(req.get('Authorization')) }));

/** Variant B's token exchange: `X-API-Key: <API key>`. */
export const requireApiKeyHeader = (ctx: DomainContext): RequestHandler =>
  requireKey('partner', 'ApiKey header="X-API-Key"', (req) =>
    authenticateTokenExchange(ctx, { apiKey: req.get('X-API-Key') }),
  );

/** The lender API: `Authorization: Bearer <lender key>`. */
export const requireLenderKey = (ctx: DomainContext): RequestHandler =>
  requireKey('lender', 'Bearer', (req) => authenticateLenderKey(ctx, { apiKey: bearer(req.get('Authorization')) }));

const EXCHANGE = 'exchange your API key at POST /v1/auth/token';
/** The 401's words for each reason an access token is refused (the OpenAPI documents quote them). */
export const TOKEN_REFUSALS: Record<Exclude<AccessTokenCheck, { ok: true }>['reason'], string> = {
  missing: `An access token is required: ${EXCHANGE}, then send Authorization: Bearer <access token>`,
  api_key: `An API key is not an access token: ${EXCHANGE}, then send Authorization: Bearer <access token>`,
  expired: `The access token has expired: ${EXCHANGE} for a new one`,
  invalid: `The access token is not valid: ${EXCHANGE} for a new one`,
};

/** Variant B: a JWT of `tokens`, whose API key must still be active, so revoking a key ends its tokens at once. */
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
