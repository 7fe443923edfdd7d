/**
 * Idempotency keys, per partner, kept 24 hours: `in_progress` while their request runs, `completed` with
 * its answer, `unresolved` when it failed unexpectedly or its process died.
 */
import type { Sql } from '../connect';

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
    const claimed = await db.query(
      `INSERT INTO idempotency_keys AS k (partner_id, key, fingerprint, state, owner_id, created_at, expires_at)
       VALUES ($1, $2, $3, 'in_progress', $4, $5, $6)
       ON CONFLICT (partner_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state, owner_id = EXCLUDED.owner_id,
             response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE k.expires_at <= EXCLUDED.created_at
       RETURNING 1`,
      [row.partnerId, row.key, row.fingerprint, row.ownerId, row.now, row.expiresAt],
    );
    if (claimed.length === 1) return { claimed: true };
    // The row that holds the key, unless it has expired (an expired key is as good as none).
    const [existing] = await db.query<IdempotencyRow>(
      `SELECT partner_id::text AS "partnerId", key, fingerprint, state, owner_id::text AS "ownerId",
              response_body AS "responseBody", expires_at AS "expiresAt"
         FROM idempotency_keys WHERE partner_id = $1 AND key = $2 AND expires_at > $3`,
      [row.partnerId, row.key, row.now],
    );
    if (existing) return { claimed: false, existing };
    // Released, or expired, between the two statements: try again.
  }
  throw new Error('idempotency key contention did not settle');
}

/** Releases a key whose request was refused (4xx), so the fixed request can use it again. */
export async function releaseKey(db: Sql, id: { partnerId: string; key: string }, ownerId: string): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys WHERE partner_id = $1 AND key = $2 AND owner_id = $3 AND state = 'in_progress'`,
    [id.partnerId, id.key, ownerId],
  );
}

/** Marks a key whose request failed unexpectedly, or whose process died: its request may have partly run. */
export async function markUnresolved(db: Sql, id: { partnerId: string; key: string }, ownerId: string): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'unresolved'
      WHERE partner_id = $1 AND key = $2 AND owner_id = $3 AND state = 'in_progress'`,
    [id.partnerId, id.key, ownerId],
  );
}

export async function deleteExpiredKeys(db: Sql, now: Date): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    'WITH d AS (DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING 1) SELECT count(*)::int AS deleted FROM d',
    [now],
  );
  return row.deleted;
}

/**
 * Live keys by the data key their request's fingerprint was made under (`h1.<keyId>.<mac>`): a retry
 * compares its request under that key, so it must stay configured until they expire.
 */
export async function countLiveByDataKey(db: Sql, now: Date): Promise<Array<{ keyId: string; live: number }>> {
  return db.query(
    `SELECT split_part(fingerprint, '.', 2) AS "keyId", count(*)::int AS live FROM idempotency_keys
      WHERE expires_at > $1 GROUP BY 1 ORDER BY 1`,
    [now],
  );
}
