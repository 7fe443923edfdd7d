/** Lenders' API keys, for reporting outcomes: SHA-256 digests, as partner keys are kept. */
import { sql, type Sql } from '../connect';

export type LenderKeyRow = {
  id: string;
  lenderId: string;
  environment: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
};
type Lender = { id: string; name: string; active: boolean };
/** What authenticating a lender key needs: its lender and environment. */
type LenderKeyOwner = { keyId: string; keyHash: string; lenderId: string; environment: string };

const LENDER_KEY = sql`id, lender_id AS "lenderId", environment, prefix, created_at AS "createdAt",
  revoked_at AS "revokedAt"`;

/** The lender as the catalogue keeps it (active or not: past referrals still name a retired lender). */
export async function findLender(db: Sql, id: string): Promise<Lender | null> {
  const [row] = await db.query<Lender>(sql`SELECT id, name, active FROM lenders WHERE id = ${id}`);
  return row ?? null;
}

export async function insertLenderKey(
  db: Sql,
  key: { id: string; lenderId: string; environment: string; keyHash: string; prefix: string },
): Promise<LenderKeyRow> {
  const [row] = await db.query<LenderKeyRow>(sql`
    INSERT INTO lender_keys (id, lender_id, environment, key_hash, prefix)
    VALUES (${key.id}, ${key.lenderId}, ${key.environment}, ${key.keyHash}, ${key.prefix})
    RETURNING ${LENDER_KEY}`);
  return row;
}

/** Every lender of the catalogue, active first, each with its keys (never the keys themselves). */
export async function listLendersWithKeys(db: Sql): Promise<Array<Lender & { keys: LenderKeyRow[] }>> {
  const lenders = await db.query<Lender>('SELECT id, name, active FROM lenders ORDER BY active DESC, id');
  const keys = await db.query<LenderKeyRow>(sql`SELECT ${LENDER_KEY} FROM lender_keys ORDER BY created_at, id`);
  return lenders.map((l) => ({ ...l, keys: keys.filter((k) => k.lenderId === l.id) }));
}

export async function findActiveLenderKey(db: Sql, keyHash: string): Promise<LenderKeyOwner | null> {
  const [row] = await db.query<LenderKeyOwner>(sql`
    SELECT id AS "keyId", key_hash AS "keyHash", lender_id AS "lenderId", environment FROM lender_keys
     WHERE key_hash = ${keyHash} AND revoked_at IS NULL`);
  return row ?? null;
}

/** Revokes a lender key once; answers it as it now stands, or null when there is no such key. */
export async function revokeLenderKey(db: Sql, keyId: string, at: Date): Promise<LenderKeyRow | null> {
  const [row] = await db.query<LenderKeyRow>(sql`
    UPDATE lender_keys SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${keyId} RETURNING ${LENDER_KEY}`);
  return row ?? null;
}
