/** Variant B's rate tiers: requests per hour, changed by operators at run time. */
import type { Sql } from '../connect';

export type TierRow = { name: string; requestsPerHour: number; updatedAt: Date };

export async function readTiers(db: Sql): Promise<TierRow[]> {
  return db.query(
    'SELECT name, requests_per_hour AS "requestsPerHour", updated_at AS "updatedAt" FROM tiers ORDER BY requests_per_hour',
  );
}

/** Sets a tier's hourly limit; null when there is no such tier. */
export async function updateTierLimit(
  db: Sql,
  name: string,
  requestsPerHour: number,
  at: Date,
): Promise<TierRow | null> {
  const [row] = await db.query<TierRow>(
    `UPDATE tiers SET requests_per_hour = $2, updated_at = $3 WHERE name = $1
     RETURNING name, requests_per_hour AS "requestsPerHour", updated_at AS "updatedAt"`,
    [name, requestsPerHour, at],
  );
  return row ?? null;
}
