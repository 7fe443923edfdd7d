/**
 * Prisma's migrations (`prisma/migrations/<timestamp>_<name>/migration.sql`), applied at start and by
 * `pnpm db:migrate` and recorded in Prisma's table `_prisma_migrations`: all pending ones in one
 * transaction, under the advisory lock Prisma's engine takes, so processes starting together apply each once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Sql } from './connect';

const MIGRATIONS_DIR = resolve(__dirname, '../../../prisma/migrations');
/** The advisory lock Prisma's schema engine holds while it migrates. */
const PRISMA_MIGRATION_LOCK = 72707369;

/** A transaction that can also run a script of several statements (a migration file). */
export interface MigrationTransaction extends Sql {
  exec(script: string): Promise<unknown>;
}

/** Applies every migration not yet applied; answers the names applied by this call. */
export async function applyMigrations(
  transaction: <T>(work: (tx: MigrationTransaction) => Promise<T>) => Promise<T>,
): Promise<string[]> {
  const migrations = existsSync(MIGRATIONS_DIR)
    ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => ({ name: d.name, script: readFileSync(join(MIGRATIONS_DIR, d.name, 'migration.sql'), 'utf8') }))
        .sort((a, b) => (a.name < b.name ? -1 : 1))
    : [];
  return transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PRISMA_MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = await tx.query<{ name: string }>(
      'SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const applied = new Set(done.map((r) => r.name));
    const pending = migrations.filter((m) => !applied.has(m.name));
    for (const m of pending) {
      await tx.exec(m.script);
      await tx.query(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, now(), 1)`,
        [randomUUID(), createHash('sha256').update(m.script).digest('hex'), m.name],
      );
    }
    return pending.map((m) => m.name);
  });
}
