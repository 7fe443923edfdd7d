/**
 * Idempotency keys, per partner, kept 24 hours: `in_progress` while their request runs, `completed` with
 * its answer, `unresolved` when it failed unexpectedly or its process died.
 */
import { sql, type Sql } from '../connect';

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
 * Inserts the key as in progress, replacing one that has expired. Exactly one of any number of concurrent
 * requests gets it in (the primary key is the partner and the key); the others get the row that holds it.
 */
export async function claimKey(
  db: Sql,
  row: { partnerId: string; key: string; fingerprint: string; ownerId: string; now: Date; expiresAt: Date },
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRow }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await db.query(sql`
      INSERT INTO idempotency_keys AS k (partner_id, key, fingerprint, state, owner_id, created_at, expires_at)
      VALUES (${row.partnerId}, ${row.key}, ${row.fingerprint}, 'in_progress', ${row.ownerId}, ${row.now},
              ${row.expiresAt})
      ON CONFLICT (partner_id, key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state, owner_id = EXCLUDED.owner_id,
            response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        WHERE k.expires_at <= EXCLUDED.created_at
      RETURNING 1`);
    if (claimed.length === 1) return { claimed: true };
    // The row that holds the key, unless it has expired (an expired key is as good as none).
    const [existing] = await db.query<IdempotencyRow>(sql`
      SELECT partner_id::text AS "partnerId", key, fingerprint, state, owner_id::text AS "ownerId",
             response_body AS "responseBody", expires_at AS "expiresAt"
        FROM idempotency_keys WHERE partner_id = ${row.partnerId} AND key = ${row.key} AND expires_at > ${row.now}`);
    if (existing) return { claimed: false, existing };
    // Released, or expired, between the two statements: try again.
  }
  throw new Error('idempotency key contention did not settle');
}

/** Releases a key whose request was refused (4xx), so the fixed request can use it again. */
export async function releaseKey(db: Sql, id: { partnerId: string; key: string }, ownerId: string): Promise<void> {
  await db.query(sql`
    DELETE FROM idempotency_keys
     WHERE partner_id = ${id.partnerId} AND key = ${id.key} AND owner_id = ${ownerId} AND state = 'in_progress'`);
}

/** Marks a key whose request failed unexpectedly, or whose process died: its request may have partly run. */
export async function markUnresolved(db: Sql, id: { partnerId: string; key: string }, ownerId: string): Promise<void> {
  await db.query(sql`
    UPDATE idempotency_keys SET state = 'unresolved'
     WHERE partner_id = ${id.partnerId} AND key = ${id.key} AND owner_id = ${ownerId} AND state = 'in_progress'`);
}

export async function deleteExpiredKeys(db: Sql, now: Date): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(sql`
    WITH d AS (DELETE FROM idempotency_keys WHERE expires_at <= ${now} RETURNING 1)
    SELECT count(*)::int AS deleted FROM d`);
  return row.deleted;
}

/**
 * Live keys by the data key their request's fingerprint was made under (`h1.<keyId>.<mac>`): a retry
 * compares its request under that key, so it must stay configured until they expire.
 */
export async function countLiveByDataKey(db: Sql, now: Date): Promise<Array<{ keyId: string; live: number }>> {
  return db.query(sql`
    SELECT split_part(fingerprint, '.', 2) AS "keyId", count(*)::int AS live FROM idempotency_keys
     WHERE expires_at > ${now} GROUP BY 1 ORDER BY 1`);
}
