/** Partners and their API keys, kept as SHA-256 digests. */
import type { Sql, Transactional } from '../connect';

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

async function insertPartner(tx: Sql, partner: NewPartner, key: NewKey): Promise<PartnerRow> {
  const [row] = await tx.query<PartnerRow>(
    `INSERT INTO partners (id, name, tier, environment) VALUES ($1, $2, $3, $4)
     RETURNING id, name, tier, environment, created_at AS "createdAt"`,
    [partner.id, partner.name, partner.tier, partner.environment],
  );
  await insertApiKey(tx, { ...key, partnerId: partner.id });
  return row;
}

export async function insertApiKey(db: Sql, key: NewKey & { partnerId: string }): Promise<ApiKeyRow> {
  const [row] = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, partner_id, key_hash, prefix) VALUES ($1, $2, $3, $4)
     RETURNING id, partner_id AS "partnerId", prefix, created_at AS "createdAt", revoked_at AS "revokedAt"`,
    [key.id, key.partnerId, key.keyHash, key.prefix],
  );
  return row;
}

export async function findPartner(db: Sql, id: string): Promise<PartnerRow | null> {
  const [row] = await db.query<PartnerRow>(
    'SELECT id, name, tier, environment, created_at AS "createdAt" FROM partners WHERE id = $1',
    [id],
  );
  return row ?? null;
}

/** Every partner, oldest first, each with its keys, oldest first. */
export async function listPartnersWithKeys(db: Sql): Promise<Array<PartnerRow & { keys: ApiKeyRow[] }>> {
  const partners = await db.query<PartnerRow>(
    'SELECT id, name, tier, environment, created_at AS "createdAt" FROM partners ORDER BY created_at, id',
  );
  const keys = await db.query<ApiKeyRow>(
    `SELECT id, partner_id AS "partnerId", prefix, created_at AS "createdAt", revoked_at AS "revokedAt"
       FROM api_keys ORDER BY created_at, id`,
  );
  return partners.map((p) => ({ ...p, keys: keys.filter((k) => k.partnerId === p.id) }));
}

export async function countPartners(db: Sql): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM partners');
  return row.n;
}

export async function findActiveKeyOwner(db: Sql, keyHash: string): Promise<KeyOwner | null> {
  const [row] = await db.query<KeyOwner>(
    `SELECT k.id AS "keyId", k.key_hash AS "keyHash", p.id AS "partnerId", p.name, p.tier, p.environment
       FROM api_keys k JOIN partners p ON p.id = k.partner_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [keyHash],
  );
  return row ?? null;
}

/** Variant B's access tokens name their API key by id: the key, if it is still active, with its partner. */
export async function findActiveKeyById(db: Sql, keyId: string): Promise<KeyOwner | null> {
  const [row] = await db.query<KeyOwner>(
    `SELECT k.id AS "keyId", k.key_hash AS "keyHash", p.id AS "partnerId", p.name, p.tier, p.environment
       FROM api_keys k JOIN partners p ON p.id = k.partner_id WHERE k.id = $1 AND k.revoked_at IS NULL`,
    [keyId],
  );
  return row ?? null;
}

/** Revokes a key once; answers the key as it now stands, or null when there is no such key. */
export async function revokePartnerKey(db: Sql, keyId: string, at: Date): Promise<ApiKeyRow | null> {
  const [row] = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1
     RETURNING id, partner_id AS "partnerId", prefix, created_at AS "createdAt", revoked_at AS "revokedAt"`,
    [keyId, at],
  );
  return row ?? null;
}
