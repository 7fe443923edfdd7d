import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { findActiveKeyOwner, type ApiKeyRow, type KeyOwner, type Sql } from '@loanmatch/db';
import { ENVIRONMENTS, type DomainContext, type Environment } from './context';
import { fail, ok, violation, type FieldViolation, type Result } from './errors';

/**
 * Secrets (API keys, admin tokens, security tokens) are random, shown once and stored as SHA-256 digests:
 * 256 bits of entropy make a slow password hash unnecessary.
 */
export function digest(secret: string): string {
  return hash('sha256', secret, 'hex'); // one-shot: a fifth of createHash's cost for a short input
}

/** Constant-time equality of two secrets, through their digests (equal length by construction). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(digest(a), 'hex'), Buffer.from(digest(b), 'hex'));
}

export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A body's `environment` for a new key (the server's when absent), or the violation of another value. */
export function keyEnvironment(ctx: DomainContext, given: unknown): Environment | FieldViolation {
  const environment = given ?? ctx.env;
  return (ENVIRONMENTS as readonly unknown[]).includes(environment)
    ? (environment as Environment)
    : violation('environment', 'enum', `must be one of ${ENVIRONMENTS.join(', ')}`);
}

export const keyView = (k: Omit<ApiKeyRow, 'partnerId'> & { environment?: string }) => ({
  keyId: k.id,
  prefix: k.prefix,
  ...(k.environment === undefined ? {} : { environment: k.environment }),
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** Partner keys read `lm_<environment>_…`, lender keys `lm_lender_<environment>_…`: neither stands for the other. */
const KEY_PATTERN = /^lm_(lender_)?(sandbox|live)_[A-Za-z0-9_-]{43}$/;

export function newApiKey(environment: Environment, lender = false) {
  const head = `lm_${lender ? 'lender_' : ''}${environment}_`;
  const apiKey = `${head}${randomSecret()}`;
  return { apiKey, keyHash: digest(apiKey), prefix: apiKey.slice(0, head.length + 4) };
}

export function apiKeyEnvironment(candidate: string, lender = false): Environment | null {
  const match = KEY_PATTERN.exec(candidate);
  return match && (match[1] !== undefined) === lender ? (match[2] as Environment) : null;
}

/** The owner of `apiKey`, looked up by its digest, of this server's environment; the key is never echoed. */
export async function authenticateKey<T extends { keyHash: string; environment: string }>(
  ctx: DomainContext,
  apiKey: string | undefined,
  lender: boolean,
  find: (keyDigest: string) => Promise<T | null>,
): Promise<Result<T>> {
  const noun = lender ? 'lender key' : 'API key';
  const claimed = apiKey ? apiKeyEnvironment(apiKey, lender) : null;
  if (!apiKey || !claimed)
    return fail('UNAUTHORIZED', `A valid ${noun} is required: send Authorization: Bearer <${noun}>`);
  const kind = lender ? noun : 'key';
  if (claimed !== ctx.env)
    return fail('UNAUTHORIZED', `This is a ${claimed} ${kind}; this server is the ${ctx.env} environment`);
  const hash = digest(apiKey);
  const owner = await find(hash);
  if (!owner || !digestsEqual(owner.keyHash, hash) || owner.environment !== ctx.env)
    return fail('UNAUTHORIZED', `The ${noun} is not valid or has been revoked`);
  return ok(owner);
}

/** The longest a revocation takes to reach another process. */
export const KEY_CACHE_MS = 2000;
const MAX_ENTRIES = 10_000;

type Entry = { at: number; owner: Promise<KeyOwner | null> };
type KeyCache = { byDigest: Map<string, Entry>; byId: Map<string, Entry> };

/**
 * Active API keys by digest or id, remembered briefly per process and database to spare each request two
 * round trips. Only active keys are remembered, so a new key works at once.
 */
const caches = new WeakMap<Sql, KeyCache>();

function cacheOf(db: Sql): KeyCache {
  const cache = caches.get(db) ?? { byDigest: new Map(), byId: new Map() };
  caches.set(db, cache);
  return cache;
}

function remembered(
  map: Map<string, Entry>,
  key: string,
  load: () => Promise<KeyOwner | null>,
): Promise<KeyOwner | null> {
  const now = Date.now();
  const hit = map.get(key);
  if (hit && now - hit.at < KEY_CACHE_MS) return hit.owner;
  const entry: Entry = { at: now, owner: load() };
  map.delete(key); // re-inserted last, so that the oldest entries are the first ones in the map
  map.set(key, entry);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as string);
  const forget = () => {
    if (map.get(key) === entry) map.delete(key);
  };
  entry.owner.then((owner) => owner ?? forget(), forget);
  return entry.owner;
}

export function activeKeyByDigest(db: Sql, keyDigest: string): Promise<KeyOwner | null> {
  return remembered(cacheOf(db).byDigest, keyDigest, () => findActiveKeyOwner(db, { keyHash: keyDigest }));
}

export function activeKeyById(db: Sql, keyId: string): Promise<KeyOwner | null> {
  return remembered(cacheOf(db).byId, keyId, () => findActiveKeyOwner(db, { id: keyId }));
}

export function forgetKeys(db: Sql): void {
  caches.delete(db);
}
