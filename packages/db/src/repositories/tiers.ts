import type { Queryable } from './types';

export interface TierRow {
  name: string;
  requestsPerHour: number;
  updatedAt: Date;
}

export async function listTiers(db: Queryable): Promise<TierRow[]> {
  return db.tier.findMany({ orderBy: { requestsPerHour: 'asc' } });
}

/** Sets a tier's hourly limit; null when there is no such tier. */
export async function setTierLimit(db: Queryable, name: string, requestsPerHour: number, at: Date): Promise<TierRow | null> {
  const { count } = await db.tier.updateMany({ where: { name }, data: { requestsPerHour, updatedAt: at } });
  return count ? db.tier.findUnique({ where: { name } }) : null;
}
