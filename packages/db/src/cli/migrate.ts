/**
 * `pnpm db:migrate` applies pending migrations to DATABASE_URL (or the embedded database in DATA_DIR).
 * `pnpm db:migration:create <name>` writes a new migration from the difference between the migration
 * history and prisma/schema.prisma (run against a throw-away in-memory database).
 */
import { openDatabase } from '../connect';
import { createMigration } from '../create-migration';

async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  if (command === 'deploy') {
    const db = await openDatabase({
      url: process.env.DATABASE_URL || undefined,
      dataDir: process.env.DATA_DIR || './data',
    });
    try {
      const applied = await db.migrate();
      console.log(
        applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.',
      );
    } finally {
      await db.close();
    }
  } else if (command === 'create' && name) {
    const { PGlite } = await import('@electric-sql/pglite');
    const { PrismaPGlite } = await import('pglite-prisma-adapter');
    const pglite = new PGlite();
    try {
      const dir = await createMigration(new PrismaPGlite(pglite), name);
      console.log(dir ? `Created ${dir}` : 'No schema changes: no migration written.');
    } finally {
      await pglite.close();
    }
  } else {
    console.error('usage: migrate deploy | migrate create <name>');
    process.exitCode = 2;
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
