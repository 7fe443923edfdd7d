import type { Db } from './types';

export interface TierRow {
  name: string;
  requestsPerHour: number;
  updatedAt: Date;
}

export async function listTiers(db: Db): Promise<TierRow[]> {
  return db.prisma.tier.findMany({ orderBy: { requestsPerHour: 'asc' } });
}

/** Sets a tier's hourly limit; null when there is no such tier. */
export async function setTierLimit(db: Db, name: string, requestsPerHour: number, at: Date): Promise<TierRow | null> {
  const { count } = await db.prisma.tier.updateMany({ where: { name }, data: { requestsPerHour, updatedAt: at } });
  return count ? db.prisma.tier.findUnique({ where: { name } }) : null;
}
