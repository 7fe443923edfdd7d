import type { Queryable } from './types';

/** Server processes announce themselves; a process whose heartbeat is stale is taken as dead. */
export async function heartbeat(db: Queryable, id: string, now: Date): Promise<void> {
  await db.instance.upsert({ where: { id }, create: { id, startedAt: now, heartbeatAt: now }, update: { heartbeatAt: now } });
}

export async function isInstanceAlive(db: Queryable, id: string, freshAfter: Date): Promise<boolean> {
  const row = await db.instance.findUnique({ where: { id }, select: { heartbeatAt: true } });
  return row !== null && row.heartbeatAt > freshAfter;
}

export async function removeInstance(db: Queryable, id: string): Promise<void> {
  await db.instance.deleteMany({ where: { id } });
}

/** Embedded mode: only one process can open the data folder, so every other instance is gone. */
export async function removeOtherInstances(db: Queryable, id: string): Promise<void> {
  await db.instance.deleteMany({ where: { id: { not: id } } });
}
