import type { Db } from './types';

/** Server processes announce themselves; a process whose heartbeat is stale is taken as dead. */
export async function heartbeat(db: Db, id: string, now: Date): Promise<void> {
  await db.prisma.instance.upsert({
    where: { id },
    create: { id, startedAt: now, heartbeatAt: now },
    update: { heartbeatAt: now },
  });
}

export async function isInstanceAlive(db: Db, id: string, freshAfter: Date): Promise<boolean> {
  const row = await db.prisma.instance.findUnique({ where: { id }, select: { heartbeatAt: true } });
  return row !== null && row.heartbeatAt > freshAfter;
}

export async function removeInstance(db: Db, id: string): Promise<void> {
  await db.prisma.instance.deleteMany({ where: { id } });
}

/** Embedded mode: only one process can open the data folder, so every other instance is gone. */
export async function removeOtherInstances(db: Db, id: string): Promise<void> {
  await db.prisma.instance.deleteMany({ where: { id: { not: id } } });
}
