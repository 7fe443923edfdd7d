/**
 * Active API keys by digest or id, remembered briefly per process and database to spare each request two
 * round trips. Only active keys are remembered, so a new key works at once.
 */
import { findActiveKeyOwner, type KeyOwner, type Sql } from '@loanmatch/db';

/** The longest a revocation takes to reach another process. */
export const KEY_CACHE_MS = 2000;
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

export function activeKeyByDigest(db: Sql, keyDigest: string): Promise<KeyOwner | null> {
  return remembered(cacheOf(db).byDigest, keyDigest, () => findActiveKeyOwner(db, { keyHash: keyDigest }));
}

export function activeKeyById(db: Sql, keyId: string): Promise<KeyOwner | null> {
  return remembered(cacheOf(db).byId, keyId, () => findActiveKeyOwner(db, { id: keyId }));
}

export function forgetKeys(db: Sql): void {
  const cache = caches.get(db);
  cache?.byDigest.clear();
  cache?.byId.clear();
}
