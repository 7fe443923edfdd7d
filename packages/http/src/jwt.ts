/**
 * Variant B's access tokens: HS256 JWTs of 15 minutes. `sub` is the partner, `api_key_id` the key exchanged
 * for it, `iss`/`aud` name the environment and contract. The header's `kid` digests the signing secret, so
 * tokens signed with a previous secret (JWT_PREVIOUS_SECRETS) verify until they expire.
 */
import { createHash, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { apiKeyEnvironment } from '@loanmatch/domain';

const TTL_SECONDS = 15 * 60;
const ALGORITHM = 'HS256';

export type AccessTokenCheck =
  | { ok: true; partnerId: string; keyId: string }
  | { ok: false; reason: 'missing' | 'api_key' | 'expired' | 'invalid' };

export interface AccessTokens {
  /** The `data` of `POST /v1/auth/token`. */
  issue(subject: { partnerId: string; keyId: string }): { accessToken: string; tokenType: 'Bearer'; expiresIn: number };
  verify(token: string | undefined): AccessTokenCheck;
}

/** The `kid` of a signing secret: 16 characters of a SHA-256 digest, which tells nothing of the secret. */
export function jwtKeyId(secret: string): string {
  return createHash('sha256').update(`loanmatch:jwt-kid:${secret}`).digest('base64url').slice(0, 16);
}

export function createAccessTokens(options: {
  secret: string;
  /** Earlier secrets, still accepted for the tokens they signed. */
  previousSecrets?: readonly string[];
  issuer: string;
  audience: string;
}): AccessTokens {
  // Key objects made once: given a string, jsonwebtoken tries to read it as a PEM key on every call.
  const keys = new Map<string, KeyObject>();
  for (const secret of [options.secret, ...(options.previousSecrets ?? [])])
    keys.set(jwtKeyId(secret), createSecretKey(Buffer.from(secret, 'utf8')));
  const kid = jwtKeyId(options.secret);
  const { issuer, audience } = options;

  return {
    issue({ partnerId, keyId }) {
      const accessToken = jwt.sign({ api_key_id: keyId }, keys.get(kid)!, {
        algorithm: ALGORITHM,
        keyid: kid,
        expiresIn: TTL_SECONDS,
        issuer,
        audience,
        subject: partnerId,
        jwtid: randomUUID(),
      });
      return { accessToken, tokenType: 'Bearer', expiresIn: TTL_SECONDS };
    },

    verify(token) {
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
