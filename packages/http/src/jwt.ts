/**
 * Variant B's access tokens: JWTs signed with jsonwebtoken, HS256 pinned on both sides, 15 minutes.
 *
 * - `sub` is the partner, `api_key_id` the API key the token was exchanged for (so that revoking the
 *   key ends its tokens), `iss`/`aud` name this server's environment and contract, `jti` is random.
 * - The header's `kid` is a short digest of the signing secret. Verification looks the secret up by
 *   `kid` among the current one and the previous ones, so rotating `JWT_SECRET` (the old one moved to
 *   `JWT_PREVIOUS_SECRETS`) does not log partners out in the middle of a token.
 * - Anything else (another algorithm, `alg: none`, an unknown `kid`, a changed payload, another issuer
 *   or audience, an expired token, one without `exp`) is refused; only the reason is told, never a secret.
 */
import { createHash, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { apiKeyEnvironment } from '@loanmatch/domain';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const JWT_ALGORITHM = 'HS256';
/** Clock skew allowed between this server and another process that signed a token. */
const CLOCK_TOLERANCE_SECONDS = 5;

export interface AccessTokenOptions {
  /** The secret that signs new tokens. */
  secret: string;
  /** Earlier secrets, still accepted for the tokens they signed. */
  previousSecrets?: readonly string[];
  issuer: string;
  audience: string;
  /** Seconds since the epoch (tests move it). */
  now?: () => number;
}

/** The `data` of `POST /v1/auth/token`. */
export interface AccessTokenGrant {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

export type AccessTokenCheck =
  | { ok: true; partnerId: string; keyId: string }
  | { ok: false; reason: 'missing' | 'api_key' | 'expired' | 'invalid' };

export interface AccessTokens {
  issue(subject: { partnerId: string; keyId: string }): AccessTokenGrant;
  verify(token: string | undefined): AccessTokenCheck;
}

/** The `kid` of a signing secret: 16 characters of a SHA-256 digest, which tells nothing of the secret. */
export function jwtKeyId(secret: string): string {
  return createHash('sha256').update(`loanmatch:jwt-kid:${secret}`).digest('base64url').slice(0, 16);
}

export function createAccessTokens(options: AccessTokenOptions): AccessTokens {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  // Secret key objects made once: given a string, jsonwebtoken first tries to read it as a PEM key on
  // every call, a costly failed attempt. A key object of type "secret" is exactly what HS256 asks for.
  const keyOf = (secret: string) => createSecretKey(Buffer.from(secret, 'utf8'));
  const secrets = new Map<string, KeyObject>();
  for (const secret of [options.secret, ...(options.previousSecrets ?? [])])
    if (!secrets.has(jwtKeyId(secret))) secrets.set(jwtKeyId(secret), keyOf(secret));
  const currentKid = jwtKeyId(options.secret);
  const signingKey = secrets.get(currentKid)!;

  return {
    issue({ partnerId, keyId }) {
      const accessToken = jwt.sign({ api_key_id: keyId, iat: now() }, signingKey, {
        algorithm: JWT_ALGORITHM,
        keyid: currentKid,
        expiresIn: ACCESS_TOKEN_TTL_SECONDS,
        issuer: options.issuer,
        audience: options.audience,
        subject: partnerId,
        jwtid: randomUUID(),
      });
      return { accessToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS };
    },

    verify(token) {
      if (!token) return { ok: false, reason: 'missing' };
      if (apiKeyEnvironment(token)) return { ok: false, reason: 'api_key' };
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || typeof decoded.payload === 'string') return { ok: false, reason: 'invalid' };
      const { alg, kid } = decoded.header;
      const secret = alg === JWT_ALGORITHM && typeof kid === 'string' ? secrets.get(kid) : undefined;
      if (secret === undefined) return { ok: false, reason: 'invalid' };
      try {
        const payload = jwt.verify(token, secret, {
          algorithms: [JWT_ALGORITHM],
          issuer: options.issuer,
          audience: options.audience,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          clockTimestamp: now(),
          maxAge: ACCESS_TOKEN_TTL_SECONDS,
        });
        if (
          typeof payload === 'string' ||
          typeof payload.exp !== 'number' ||
          typeof payload.sub !== 'string' ||
          typeof payload.api_key_id !== 'string'
        ) {
          return { ok: false, reason: 'invalid' };
        }
        return { ok: true, partnerId: payload.sub, keyId: payload.api_key_id };
      } catch (err) {
        return { ok: false, reason: err instanceof jwt.TokenExpiredError ? 'expired' : 'invalid' };
      }
    },
  };
}
