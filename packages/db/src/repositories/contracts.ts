/** Retiring a contract: its schedule for every partner or one, brownout windows, and each partner's use of it. */
import { sql, type Sql } from '../connect';

/** The `partnerId` of the schedule every partner follows unless a row of its own overrides it. */
export const EVERY_PARTNER = '00000000-0000-0000-0000-000000000000';

export type LifecycleRow = {
  contract: string;
  partnerId: string;
  deprecatedAt: Date | null;
  sunsetAt: Date | null;
  link: string | null;
  updatedAt: Date;
};
/** `partnerId` null: every partner. */
export type BrownoutRow = { id: string; contract: string; partnerId: string | null; startsAt: Date; endsAt: Date };
export type ContractUsageCount = {
  partnerId: string;
  contract: string;
  day: string;
  requests: number;
  lastSeenAt: Date;
};
export type ContractUsageRow = Omit<ContractUsageCount, 'day'> & { partnerName: string };

const LIFECYCLE_COLUMNS = sql`contract, partner_id AS "partnerId", deprecated_at AS "deprecatedAt",
  sunset_at AS "sunsetAt", link, updated_at AS "updatedAt"`;
const BROWNOUT_COLUMNS = sql`id, contract, partner_id AS "partnerId", starts_at AS "startsAt", ends_at AS "endsAt"`;

export async function readLifecycles(db: Sql): Promise<LifecycleRow[]> {
  return db.query(sql`SELECT ${LIFECYCLE_COLUMNS} FROM contract_lifecycles ORDER BY contract, partner_id`);
}

/** Brownouts that have not ended by `at`, earliest first. */
export async function readBrownouts(db: Sql, at: Date): Promise<BrownoutRow[]> {
  return db.query(sql`SELECT ${BROWNOUT_COLUMNS} FROM contract_brownouts WHERE ends_at > ${at} ORDER BY starts_at, id`);
}

/** Sets a schedule, replacing the one of the same contract and partner. */
export async function upsertLifecycle(db: Sql, row: LifecycleRow): Promise<void> {
  await db.query(sql`
    INSERT INTO contract_lifecycles (contract, partner_id, deprecated_at, sunset_at, link, updated_at)
    VALUES (${row.contract}, ${row.partnerId}, ${row.deprecatedAt}, ${row.sunsetAt}, ${row.link}, ${row.updatedAt})
    ON CONFLICT (contract, partner_id) DO UPDATE SET deprecated_at = EXCLUDED.deprecated_at,
      sunset_at = EXCLUDED.sunset_at, link = EXCLUDED.link, updated_at = EXCLUDED.updated_at`);
}

export async function deleteLifecycle(db: Sql, contract: string, partnerId: string): Promise<void> {
  await db.query(sql`DELETE FROM contract_lifecycles WHERE contract = ${contract} AND partner_id = ${partnerId}`);
}

export async function insertBrownout(db: Sql, row: BrownoutRow): Promise<BrownoutRow> {
  const [inserted] = await db.query<BrownoutRow>(sql`
    INSERT INTO contract_brownouts (id, contract, partner_id, starts_at, ends_at)
    VALUES (${row.id}, ${row.contract}, ${row.partnerId}, ${row.startsAt}, ${row.endsAt})
    RETURNING ${BROWNOUT_COLUMNS}`);
  return inserted;
}

/** Cancels a brownout of the contract; null when there is none with that id. */
export async function deleteBrownout(db: Sql, contract: string, id: string): Promise<BrownoutRow | null> {
  const [row] = await db.query<BrownoutRow>(
    sql`DELETE FROM contract_brownouts WHERE contract = ${contract} AND id = ${id} RETURNING ${BROWNOUT_COLUMNS}`,
  );
  return row ?? null;
}

/** Adds a process's counts to the day's rows, in one statement. */
export async function addContractUsage(db: Sql, counts: readonly ContractUsageCount[]): Promise<void> {
  if (counts.length === 0) return;
  await db.query(sql`
    INSERT INTO contract_usage (partner_id, contract, day, requests, last_seen_at)
    SELECT * FROM json_to_recordset(${JSON.stringify(counts)}::json)
      AS c("partnerId" uuid, contract text, day date, requests bigint, "lastSeenAt" timestamptz)
    ON CONFLICT (partner_id, contract, day) DO UPDATE
      SET requests = contract_usage.requests + excluded.requests,
          last_seen_at = GREATEST(contract_usage.last_seen_at, excluded.last_seen_at)`);
}

/** Each partner's requests on each contract on the days from `from` until (not including) `until`. */
export async function readContractUsage(db: Sql, from: Date, until: Date): Promise<ContractUsageRow[]> {
  const day = (at: Date) => at.toISOString().slice(0, 10);
  return db.query(sql`
    SELECT u.partner_id AS "partnerId", p.name AS "partnerName", u.contract,
           sum(u.requests)::float8 AS requests, max(u.last_seen_at) AS "lastSeenAt"
    FROM contract_usage u JOIN partners p ON p.id = u.partner_id
    WHERE u.day >= ${day(from)}::date AND u.day < ${day(until)}::date
    GROUP BY u.partner_id, p.name, u.contract
    ORDER BY p.name, u.partner_id, u.contract`);
}
