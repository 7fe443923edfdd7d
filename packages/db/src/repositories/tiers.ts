/** Variant B's rate tiers: requests per hour, changed by operators at run time. */
import { sql, type Sql } from '../connect';

const TIER = sql`name, requests_per_hour AS "requestsPerHour", updated_at AS "updatedAt"`;

export type TierRow = { name: string; requestsPerHour: number; updatedAt: Date };

export async function readTiers(db: Sql): Promise<TierRow[]> {
  return db.query(sql`SELECT ${TIER} FROM tiers ORDER BY requests_per_hour`);
}

/** Sets a tier's hourly limit; null when there is no such tier. */
export async function updateTierLimit(
  db: Sql,
  name: string,
  requestsPerHour: number,
  at: Date,
): Promise<TierRow | null> {
  const [row] = await db.query<TierRow>(sql`
    UPDATE tiers SET requests_per_hour = ${requestsPerHour}, updated_at = ${at} WHERE name = ${name}
    RETURNING ${TIER}`);
  return row ?? null;
}
