import type { Db } from './types';

export interface PartnerRow {
  id: string;
  name: string;
  tier: string;
  environment: string;
  createdAt: Date;
}

export interface ApiKeyRow {
  id: string;
  partnerId: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** What authentication needs of a key: its partner, in one query. */
export interface KeyOwner {
  keyId: string;
  keyHash: string;
  partner: PartnerRow;
}

export async function insertPartnerWithKey(
  db: Db,
  partner: Omit<PartnerRow, 'createdAt'>,
  key: { id: string; keyHash: string; prefix: string },
): Promise<PartnerRow> {
  return db.prisma.partner.create({
    data: { ...partner, apiKeys: { create: { id: key.id, keyHash: key.keyHash, prefix: key.prefix } } },
  });
}

/**
 * Inserts the partner only when there is none yet. Processes starting together on one PostgreSQL
 * serialise on an advisory lock, so an empty database gets exactly one first partner.
 */
export async function insertFirstPartner(
  db: Db,
  partner: Omit<PartnerRow, 'createdAt'>,
  key: { id: string; keyHash: string; prefix: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.prisma.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('loanmatch:first-partner'))`);
    if ((await tx.prisma.partner.count()) > 0) return false;
    await insertPartnerWithKey(tx, partner, key);
    return true;
  });
}

export async function insertApiKey(
  db: Db,
  key: { id: string; partnerId: string; keyHash: string; prefix: string },
): Promise<ApiKeyRow> {
  return db.prisma.apiKey.create({
    data: key,
    select: { id: true, partnerId: true, prefix: true, createdAt: true, revokedAt: true },
  });
}

export async function findPartner(db: Db, id: string): Promise<PartnerRow | null> {
  return db.prisma.partner.findUnique({ where: { id } });
}

export async function listPartners(db: Db): Promise<Array<PartnerRow & { keys: ApiKeyRow[] }>> {
  const rows = await db.prisma.partner.findMany({
    orderBy: { createdAt: 'asc' },
    include: {
      apiKeys: {
        orderBy: { createdAt: 'asc' },
        select: { id: true, partnerId: true, prefix: true, createdAt: true, revokedAt: true },
      },
    },
  });
  return rows.map(({ apiKeys, ...partner }) => ({ ...partner, keys: apiKeys }));
}

export async function countPartners(db: Db): Promise<number> {
  return db.prisma.partner.count();
}

export async function findActiveKeyOwner(db: Db, keyHash: string): Promise<KeyOwner | null> {
  const row = await db.prisma.apiKey.findUnique({ where: { keyHash }, include: { partner: true } });
  if (!row || row.revokedAt) return null;
  return { keyId: row.id, keyHash: row.keyHash, partner: row.partner };
}

/** Variant B's access tokens name their API key by id: the key, if it is still active, with its partner. */
export async function findActiveKeyById(db: Db, keyId: string): Promise<KeyOwner | null> {
  const row = await db.prisma.apiKey.findUnique({ where: { id: keyId }, include: { partner: true } });
  if (!row || row.revokedAt) return null;
  return { keyId: row.id, keyHash: row.keyHash, partner: row.partner };
}

/** Revokes a key once; answers the key as it now stands, or null when there is no such key. */
export async function revokeApiKey(db: Db, keyId: string, at: Date): Promise<ApiKeyRow | null> {
  const select = { id: true, partnerId: true, prefix: true, createdAt: true, revokedAt: true };
  await db.prisma.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: at } });
  return db.prisma.apiKey.findUnique({ where: { id: keyId }, select });
}
