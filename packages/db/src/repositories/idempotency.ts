import { isUniqueViolation, type Json, type Queryable } from './types';

export type IdempotencyState = 'in_progress' | 'completed' | 'unresolved';

export interface IdempotencyRow {
  partnerId: string;
  key: string;
  fingerprint: string;
  state: IdempotencyState;
  ownerId: string;
  responseBody: string | null;
  expiresAt: Date;
}

/**
 * Inserts the key as in progress. The primary key (partner, key) lets exactly one of any number of
 * concurrent requests in; the others get the row that beat them. An expired row is replaced.
 */
export async function insertInProgress(
  db: Queryable,
  row: { partnerId: string; key: string; fingerprint: string; ownerId: string; now: Date; expiresAt: Date },
): Promise<{ inserted: true } | { inserted: false; existing: IdempotencyRow }> {
  const { now, ...data } = row;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db.idempotencyKey.create({ data: { ...data, state: 'in_progress', createdAt: now } });
      return { inserted: true };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const existing = await db.idempotencyKey.findUnique({ where: { partnerId_key: { partnerId: row.partnerId, key: row.key } } });
    if (!existing) continue; // released between our insert and read: try again
    if (existing.expiresAt <= now) {
      await db.idempotencyKey.deleteMany({ where: { partnerId: row.partnerId, key: row.key, expiresAt: { lte: now } } });
      continue;
    }
    return { inserted: false, existing: existing as IdempotencyRow };
  }
  throw new Error('idempotency key contention did not settle');
}

export async function completeKey(db: Queryable, id: { partnerId: string; key: string }, responseBody: Json): Promise<void> {
  await db.idempotencyKey.update({
    where: { partnerId_key: id },
    data: { state: 'completed', responseBody: JSON.stringify(responseBody) },
  });
}

/** Releases a key whose request was refused (4xx), so the fixed request can reuse it. */
export async function releaseKey(db: Queryable, id: { partnerId: string; key: string }, ownerId: string): Promise<void> {
  await db.idempotencyKey.deleteMany({ where: { ...id, ownerId, state: 'in_progress' } });
}

/** Marks a key whose request failed unexpectedly or whose process died: the caller must check before retrying. */
export async function markUnresolved(db: Queryable, id: { partnerId: string; key: string }, ownerId: string): Promise<void> {
  await db.idempotencyKey.updateMany({ where: { ...id, ownerId, state: 'in_progress' }, data: { state: 'unresolved' } });
}

export async function deleteExpiredKeys(db: Queryable, now: Date): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
