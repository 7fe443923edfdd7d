import { createHash, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import {
  apiKeyEnvironment,
  authenticateApiKey,
  authenticateLenderKey,
  authenticateTokenExchange,
  authenticateTokenSubject,
  fail,
  type DomainContext,
  type Result,
} from '@loanmatch/domain';
import { sendError } from './errors';

export const LENDER_BASE_PATH = '/api/lender/v1';

/** The bearer credential of `Authorization`, or undefined. */
export function bearer(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : undefined;
}

/** A middleware that puts what `authenticate` answers in `res.locals[local]`, or refuses with `challenge`. */
function requireKey(
  local: 'partner' | 'lender',
  challenge: string | ((req: Request) => string),
  authenticate: (req: Request) => Promise<Result<unknown>>,
): RequestHandler {
  return async (req, res, next) => {
    const result = await authenticate(req);
    if (!result.ok) {
      res.setHeader('WWW-Authenticate', typeof challenge === 'string' ? challenge : challenge(req));
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

const TTL_SECONDS = 15 * 60;
const ALGORITHM = 'HS256';

export type AccessTokenCheck =
  | { ok: true; partnerId: string; keyId: string }
  | { ok: false; reason: 'missing' | 'api_key' | 'expired' | 'invalid' };

export type AccessTokens = ReturnType<typeof createAccessTokens>;

/** The `kid` of a signing secret: 16 characters of a SHA-256 digest, which tells nothing of the secret. */
export function jwtKeyId(secret: string): string {
  return createHash('sha256').update(`loanmatch:jwt-kid:${secret}`).digest('base64url').slice(0, 16);
}

/**
 * Variant B's access tokens: HS256 JWTs of 15 minutes. `sub` is the partner, `api_key_id` the key exchanged
 * for it, `iss`/`aud` name the environment and contract. The header's `kid` digests the signing secret, so
 * tokens signed with a previous secret (JWT_PREVIOUS_SECRETS) verify until they expire.
 */
export function createAccessTokens(options: {
  secret: string;
  /** Earlier secrets, still accepted for the tokens they signed. */
  previousSecrets?: readonly string[];
  issuer: string;
  audience: string;
}) {
  // Key objects made once: given a string, jsonwebtoken tries to read it as a PEM key on every call.
  const keys = new Map<string, KeyObject>();
  for (const secret of [options.secret, ...(options.previousSecrets ?? [])])
    keys.set(jwtKeyId(secret), createSecretKey(Buffer.from(secret, 'utf8')));
  const kid = jwtKeyId(options.secret);
  const { issuer, audience } = options;

  return {
    /** The `data` of `POST /v1/auth/token`. */
    issue({ partnerId, keyId }: { partnerId: string; keyId: string }) {
      const accessToken = jwt.sign({ api_key_id: keyId }, keys.get(kid)!, {
        algorithm: ALGORITHM,
        keyid: kid,
        expiresIn: TTL_SECONDS,
        issuer,
        audience,
        subject: partnerId,
        jwtid: randomUUID(),
      });
      return { accessToken, tokenType: 'Bearer' as const, expiresIn: TTL_SECONDS };
    },

    verify(token: string | undefined): AccessTokenCheck {
      if (!token) return { ok: false, reason: 'missing' };
      if (apiKeyEnvironment(token)) return { ok: false, reason: 'api_key' };
      const header = jwt.decode(token, { complete: true })?.header;
      const key = header?.alg === ALGORITHM && typeof header.kid === 'string' ? keys.get(header.kid) : undefined;
      if (key === undefined) return { ok: false, reason: 'invalid' };
      try {
        // The clock tolerance allows for skew with another process that signed the token.
        const payload = jwt.verify(token, key, {
          algorithms: [ALGORITHM],
          issuer,
          audience,
          clockTolerance: 5,
          maxAge: TTL_SECONDS,
        });
        const { exp, sub, api_key_id } = typeof payload === 'string' ? {} : payload;
        if (typeof exp !== 'number' || typeof sub !== 'string' || typeof api_key_id !== 'string')
          return { ok: false, reason: 'invalid' };
        return { ok: true, partnerId: sub, keyId: api_key_id };
      } catch (err) {
        return { ok: false, reason: err instanceof jwt.TokenExpiredError ? 'expired' : 'invalid' };
      }
    },
  };
}

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
  // Without a token, the plain challenge; a token sent and refused, for whatever reason, is an invalid one.
  const challenge = (req: Request) => (bearer(req.get('Authorization')) ? 'Bearer error="invalid_token"' : 'Bearer');
  return requireKey('partner', challenge, async (req) => {
    const check = tokens.verify(bearer(req.get('Authorization')));
    if (!check.ok) return fail('UNAUTHORIZED', TOKEN_REFUSALS[check.reason]);
    return authenticateTokenSubject(ctx, { partnerId: check.partnerId, keyId: check.keyId });
  });
}
