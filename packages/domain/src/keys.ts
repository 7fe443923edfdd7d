import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from './context';

/**
 * Secrets (API keys, admin tokens, security tokens) are random, shown once and stored as SHA-256
 * digests. Their 256 bits of entropy make a slow password hash unnecessary; the digest is what the
 * database is searched by, so the secret itself is never compared byte by byte.
 */
export function digest(secret: string): string {
  return hash('sha256', secret, 'hex'); // one-shot: a fifth of createHash's cost for a short input
}

/** Constant-time equality of two secrets, through their digests (equal length by construction). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(digest(a), 'hex'), Buffer.from(digest(b), 'hex'));
}

/** Constant-time equality of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const KEY_PATTERN = /^lm_(sandbox|live)_[A-Za-z0-9_-]{43}$/;

export function newApiKey(environment: Environment): { apiKey: string; keyHash: string; prefix: string } {
  const apiKey = `lm_${environment}_${randomSecret()}`;
  return { apiKey, keyHash: digest(apiKey), prefix: apiKey.slice(0, `lm_${environment}_`.length + 4) };
}

/** The environment a key claims by its prefix, or null for a string that is not a key at all. */
export function apiKeyEnvironment(candidate: string): Environment | null {
  const match = KEY_PATTERN.exec(candidate);
  return match ? (match[1] as Environment) : null;
}
