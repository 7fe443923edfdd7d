/** Server processes announce themselves; a process whose heartbeat is stale is taken as dead. */
import type { Sql } from '../connect';

export async function heartbeat(db: Sql, id: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO instances (id, started_at, heartbeat_at) VALUES ($1, $2, $2)
     ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at`,
    [id, now],
  );
}

export async function isInstanceAlive(db: Sql, id: string, freshAfter: Date): Promise<boolean> {
  return (await db.query('SELECT 1 FROM instances WHERE id = $1 AND heartbeat_at > $2', [id, freshAfter])).length > 0;
}

export async function removeInstance(db: Sql, id: string): Promise<void> {
  await db.query('DELETE FROM instances WHERE id = $1', [id]);
}

/** Embedded mode: only one process can open the data folder, so every other instance is gone. */
export async function removeOtherInstances(db: Sql, id: string): Promise<void> {
  await db.query('DELETE FROM instances WHERE id <> $1', [id]);
}
