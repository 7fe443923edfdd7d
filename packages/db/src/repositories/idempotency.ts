import { Params, shaped, statement } from '../sql';
import type { Db } from './types';

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
  db: Db,
  row: { partnerId: string; key: string; fingerprint: string; ownerId: string; now: Date; expiresAt: Date },
): Promise<{ inserted: true } | { inserted: false; existing: IdempotencyRow }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await db.rows(INSERT_IN_PROGRESS, [
      row.partnerId,
      row.key,
      row.fingerprint,
      row.ownerId,
      row.now,
      row.expiresAt,
    ]);
    if (claimed.length === 1) return { inserted: true };
    const existing = await findLiveKey(db, row, row.now);
    if (existing) return { inserted: false, existing };
    // Released, or expired, between the two statements: try again.
  }
  throw new Error('idempotency key contention did not settle');
}

/** Inserts the key in progress, or replaces one that has expired; no row when a live key holds it. */
const INSERT_IN_PROGRESS = statement(
  'insert_key_in_progress',
  `INSERT INTO idempotency_keys AS k (partner_id, key, fingerprint, state, owner_id, created_at, expires_at)
   VALUES ($1::uuid, $2::text, $3::text, 'in_progress', $4::uuid, $5::timestamptz, $6::timestamptz)
   ON CONFLICT (partner_id, key) DO UPDATE
     SET fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state, owner_id = EXCLUDED.owner_id, response_body = NULL,
         created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
     WHERE k.expires_at <= EXCLUDED.created_at
   RETURNING 1`,
);

/** The key's row, unless it has expired at `now` (an expired key is as good as none). */
export async function findLiveKey(
  db: Db,
  id: { partnerId: string; key: string },
  now: Date,
): Promise<IdempotencyRow | null> {
  const rows = await db.rows<IdempotencyRow>(FIND_LIVE_KEY, [id.partnerId, id.key, now]);
  return rows[0] ?? null;
}

const FIND_LIVE_KEY = statement(
  'find_live_key',
  `SELECT partner_id::text AS "partnerId", key, fingerprint, state, owner_id::text AS "ownerId", response_body AS "responseBody", expires_at AS "expiresAt"
     FROM idempotency_keys WHERE partner_id = $1::uuid AND key = $2::text AND expires_at > $3::timestamptz`,
);

/** A key held by its request, to be stored completed with the request's answer (the JSON text sent). */
export interface KeyCompletion {
  partnerId: string;
  key: string;
  responseBody: string;
}

export async function completeKey(db: Db, completion: KeyCompletion): Promise<void> {
  const p = new Params();
  const text = completeKeyText(p, completion);
  const updated = await db.rows(
    shaped('complete_key', () => text),
    p.values,
  );
  // The request's own key, held since it began: gone means something is badly wrong; the change rolls back.
  if (updated.length !== 1) throw new Error('idempotency key to complete was not found');
}

/**
 * The key completed, as a CTE of a larger statement when `source` (an earlier CTE) names the change it
 * completes: written only if that change was, so the answer is stored exactly when the change commits.
 */
export function completeKeyCte(p: Params, source: string, completion: KeyCompletion): string {
  return `ck AS (${completeKeyText(p, completion, source)})`;
}

function completeKeyText(p: Params, c: KeyCompletion, source?: string): string {
  return `UPDATE idempotency_keys k SET state = 'completed', response_body = ${p.add(c.responseBody)}::text${source ? ` FROM ${source}` : ''}
     WHERE k.partner_id = ${p.add(c.partnerId)}::uuid AND k.key = ${p.add(c.key)}::text RETURNING 1`;
}

/** Releases a key whose request was refused (4xx), so the fixed request can reuse it. */
export async function releaseKey(db: Db, id: { partnerId: string; key: string }, ownerId: string): Promise<void> {
  await db.prisma.idempotencyKey.deleteMany({ where: { ...id, ownerId, state: 'in_progress' } });
}

/** Marks a key whose request failed unexpectedly or whose process died: the caller must check before retrying. */
export async function markUnresolved(db: Db, id: { partnerId: string; key: string }, ownerId: string): Promise<void> {
  await db.prisma.idempotencyKey.updateMany({
    where: { ...id, ownerId, state: 'in_progress' },
    data: { state: 'unresolved' },
  });
}

export async function deleteExpiredKeys(db: Db, now: Date): Promise<number> {
  const { count } = await db.prisma.idempotencyKey.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

/**
 * Live idempotency keys by the data key their request's fingerprint was made under (`h1.<keyId>.<mac>`;
 * fingerprints of the earlier, unkeyed format name none and are left out). For `GET /admin/v1/data-key`:
 * a retry compares its request under the key named here, so that key must stay configured until these expire.
 */
export async function countLiveByDataKey(db: Db, now: Date): Promise<Array<{ keyId: string; live: number }>> {
  const rows = await db.prisma.$queryRaw<Array<{ key_id: string; live: number }>>`
    SELECT split_part(fingerprint, '.', 2) AS key_id, count(*)::int AS live FROM idempotency_keys
    WHERE fingerprint LIKE 'h1.%' AND expires_at > ${now} GROUP BY 1 ORDER BY 1`;
  return rows.map((r) => ({ keyId: r.key_id, live: Number(r.live) }));
}
