/**
 * API-key lookups, remembered for a short while by each process, so that a request of either contract
 * (Variant A names its key by digest, Variant B's access tokens by id) does not first pay two round
 * trips. The key itself is never kept. Only active keys are remembered, so a key issued a moment ago
 * works at once; a revocation here forgets every entry, another process refuses the key within
 * `KEY_CACHE_MS`. Concurrent requests for one key share one lookup; a failed one is not remembered.
 * One cache per database, so tests and processes over other databases never share entries.
 */
import { findActiveKeyById, findActiveKeyOwner, type KeyOwner, type Sql } from '@loanmatch/db';

/** How long a process trusts an active key it looked up: the longest a revocation takes to reach another process. */
export const KEY_CACHE_MS = 2000;
/** Entries kept at most per process (the oldest goes first). */
const MAX_ENTRIES = 10_000;

type Entry = { at: number; owner: Promise<KeyOwner | null> };
type KeyCache = { byDigest: Map<string, Entry>; byId: Map<string, Entry> };

const caches = new WeakMap<Sql, KeyCache>();

function cacheOf(db: Sql): KeyCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { byDigest: new Map(), byId: new Map() };
    caches.set(db, cache);
  }
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

/** The active key with this SHA-256 digest and its partner, or null. */
export function activeKeyByDigest(db: Sql, keyDigest: string): Promise<KeyOwner | null> {
  return remembered(cacheOf(db).byDigest, keyDigest, () => findActiveKeyOwner(db, keyDigest));
}

/** The active key with this id and its partner, or null (Variant B's access tokens name their key by id). */
export function activeKeyById(db: Sql, keyId: string): Promise<KeyOwner | null> {
  return remembered(cacheOf(db).byId, keyId, () => findActiveKeyById(db, keyId));
}

/** Forgets every remembered key of this database: called when a key is revoked here. */
export function forgetKeys(db: Sql): void {
  const cache = caches.get(db);
  cache?.byDigest.clear();
  cache?.byId.clear();
}
