/** Partners and their API keys, and lenders' keys for reporting outcomes, all kept as SHA-256 digests. */
import { sql, type Sql, type Transactional } from '../connect';

export type PartnerRow = { id: string; name: string; tier: string; environment: string; createdAt: Date };
export type ApiKeyRow = { id: string; partnerId: string; prefix: string; createdAt: Date; revokedAt: Date | null };
/** What authentication needs of an active key: its partner, in one query. */
export type KeyOwner = { keyId: string; keyHash: string; partnerId: string } & Omit<PartnerRow, 'id' | 'createdAt'>;

type NewPartner = Omit<PartnerRow, 'createdAt'>;
type NewKey = { id: string; keyHash: string; prefix: string };

/** A partner and its first key, in one transaction. */
export async function insertPartnerWithKey(db: Transactional, partner: NewPartner, key: NewKey): Promise<PartnerRow> {
  return db.transaction((tx) => insertPartner(tx, partner, key));
}

/**
 * Inserts the partner only when there is none yet. Processes starting together on one PostgreSQL
 * serialise on an advisory lock, so an empty database gets exactly one first partner.
 */
export async function insertFirstPartner(db: Transactional, partner: NewPartner, key: NewKey): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('loanmatch:first-partner'))`);
    if ((await countPartners(tx)) > 0) return false;
    await insertPartner(tx, partner, key);
    return true;
  });
}

const PARTNER = sql`id, name, tier, environment, created_at AS "createdAt"`;
const API_KEY = sql`id, partner_id AS "partnerId", prefix, created_at AS "createdAt", revoked_at AS "revokedAt"`;

async function insertPartner(tx: Sql, partner: NewPartner, key: NewKey): Promise<PartnerRow> {
  const [row] = await tx.query<PartnerRow>(sql`
    INSERT INTO partners (id, name, tier, environment)
    VALUES (${partner.id}, ${partner.name}, ${partner.tier}, ${partner.environment})
    RETURNING ${PARTNER}`);
  await insertApiKey(tx, { ...key, partnerId: partner.id });
  return row;
}

export async function insertApiKey(db: Sql, key: NewKey & { partnerId: string }): Promise<ApiKeyRow> {
  const [row] = await db.query<ApiKeyRow>(sql`
    INSERT INTO api_keys (id, partner_id, key_hash, prefix)
    VALUES (${key.id}, ${key.partnerId}, ${key.keyHash}, ${key.prefix})
    RETURNING ${API_KEY}`);
  return row;
}

export async function findPartner(db: Sql, id: string): Promise<PartnerRow | null> {
  const [row] = await db.query<PartnerRow>(sql`SELECT ${PARTNER} FROM partners WHERE id = ${id}`);
  return row ?? null;
}

/** Every partner, oldest first, each with its keys, oldest first. */
export async function listPartnersWithKeys(db: Sql): Promise<Array<PartnerRow & { keys: ApiKeyRow[] }>> {
  const partners = await db.query<PartnerRow>(sql`SELECT ${PARTNER} FROM partners ORDER BY created_at, id`);
  const keys = await db.query<ApiKeyRow>(sql`SELECT ${API_KEY} FROM api_keys ORDER BY created_at, id`);
  return partners.map((p) => ({ ...p, keys: keys.filter((k) => k.partnerId === p.id) }));
}

export async function countPartners(db: Sql): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM partners');
  return row.n;
}

/** An active key with its partner, by its digest or by its id (Variant B's access tokens name their key by id). */
export async function findActiveKeyOwner(db: Sql, key: { keyHash: string } | { id: string }): Promise<KeyOwner | null> {
  const [row] = await db.query<KeyOwner>(sql`
    SELECT k.id AS "keyId", k.key_hash AS "keyHash", p.id AS "partnerId", p.name, p.tier, p.environment
      FROM api_keys k JOIN partners p ON p.id = k.partner_id
     WHERE ${'keyHash' in key ? sql`k.key_hash = ${key.keyHash}` : sql`k.id = ${key.id}`} AND k.revoked_at IS NULL`);
  return row ?? null;
}

/** Revokes a key once; answers the key as it now stands, or null when there is no such key. */
export async function revokePartnerKey(db: Sql, keyId: string, at: Date): Promise<ApiKeyRow | null> {
  const [row] = await db.query<ApiKeyRow>(sql`
    UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${keyId} RETURNING ${API_KEY}`);
  return row ?? null;
}

export type LenderKeyRow = Omit<ApiKeyRow, 'partnerId'> & { lenderId: string; environment: string };
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
