/** Server processes announce themselves; a process whose heartbeat is stale is taken as dead. */
import { sql, type Sql } from '../connect';

export async function heartbeat(db: Sql, id: string, now: Date): Promise<void> {
  await db.query(sql`
    INSERT INTO instances (id, started_at, heartbeat_at) VALUES (${id}, ${now}, ${now})
    ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at`);
}

export async function isInstanceAlive(db: Sql, id: string, freshAfter: Date): Promise<boolean> {
  return (await db.query(sql`SELECT 1 FROM instances WHERE id = ${id} AND heartbeat_at > ${freshAfter}`)).length > 0;
}

export async function removeInstance(db: Sql, id: string): Promise<void> {
  await db.query(sql`DELETE FROM instances WHERE id = ${id}`);
}

/** Embedded mode: only one process can open the data folder, so every other instance is gone. */
export async function removeOtherInstances(db: Sql, id: string): Promise<void> {
  await db.query(sql`DELETE FROM instances WHERE id <> ${id}`);
}
