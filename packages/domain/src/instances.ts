import { randomUUID } from 'node:crypto';
import { heartbeat, isInstanceAlive, removeInstance, removeOtherInstances, type Sql } from '@loanmatch/db';
import type { InstanceRegistry } from './context';

/**
 * This process's heartbeat in the instances table, and the claims its requests in flight hold: a claim of
 * ours that is not held belongs to a request that failed. Embedded storage admits one process only.
 */
export function createInstanceRegistry(options: {
  db: Sql;
  embedded: boolean;
  heartbeatMs?: number;
  staleAfterMs?: number;
}): InstanceRegistry & { start(): Promise<void>; stop(): Promise<void> } {
  const { db, embedded } = options;
  const heartbeatMs = options.heartbeatMs ?? 2000;
  const staleAfterMs = options.staleAfterMs ?? 10_000;
  const id = randomUUID();
  const held = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  return {
    id,
    async isAlive(ownerId, claim) {
      if (ownerId === id) return held.has(claim);
      if (embedded) return false;
      return isInstanceAlive(db, ownerId, new Date(Date.now() - staleAfterMs));
    },
    hold(claim) {
      held.set(claim, (held.get(claim) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const n = (held.get(claim) ?? 1) - 1;
        if (n <= 0) held.delete(claim);
        else held.set(claim, n);
      };
    },
    async start() {
      if (embedded) await removeOtherInstances(db, id);
      await heartbeat(db, id, new Date());
      timer = setInterval(() => {
        heartbeat(db, id, new Date()).catch(() => undefined);
      }, heartbeatMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await removeInstance(db, id).catch(() => undefined);
    },
  };
}
