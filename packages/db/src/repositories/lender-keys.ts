import type { Db } from './types';

export interface LenderKeyRow {
  id: string;
  lenderId: string;
  environment: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** What authenticating a lender key needs: its lender and environment, by the key's digest. */
export interface LenderKeyOwner {
  keyId: string;
  keyHash: string;
  lenderId: string;
  environment: string;
}

const ROW = { id: true, lenderId: true, environment: true, prefix: true, createdAt: true, revokedAt: true } as const;

/** The lender as the catalogue keeps it (active or not: past referrals still name a retired lender). */
export async function findLender(db: Db, id: string): Promise<{ id: string; name: string; active: boolean } | null> {
  return db.prisma.lender.findUnique({ where: { id }, select: { id: true, name: true, active: true } });
}

export async function insertLenderKey(
  db: Db,
  key: { id: string; lenderId: string; environment: string; keyHash: string; prefix: string },
): Promise<LenderKeyRow> {
  return db.prisma.lenderKey.create({ data: key, select: ROW });
}

/** Every lender of the catalogue, active first, each with its keys (never the keys themselves). */
export async function listLendersWithKeys(
  db: Db,
): Promise<Array<{ id: string; name: string; active: boolean; keys: LenderKeyRow[] }>> {
  return db.prisma.lender.findMany({
    orderBy: [{ active: 'desc' }, { id: 'asc' }],
    select: { id: true, name: true, active: true, keys: { orderBy: { createdAt: 'asc' }, select: ROW } },
  });
}

export async function findActiveLenderKey(db: Db, keyHash: string): Promise<LenderKeyOwner | null> {
  const row = await db.prisma.lenderKey.findUnique({
    where: { keyHash },
    select: { id: true, keyHash: true, lenderId: true, environment: true, revokedAt: true },
  });
  if (!row || row.revokedAt) return null;
  return { keyId: row.id, keyHash: row.keyHash, lenderId: row.lenderId, environment: row.environment };
}

/** Revokes a lender key once; answers it as it now stands, or null when there is no such key. */
export async function revokeLenderKey(db: Db, keyId: string, at: Date): Promise<LenderKeyRow | null> {
  await db.prisma.lenderKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: at } });
  return db.prisma.lenderKey.findUnique({ where: { id: keyId }, select: ROW });
}
