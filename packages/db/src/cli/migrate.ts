/** `pnpm db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database in DATA_DIR). */
import { openDatabase } from '../connect';

async function main(): Promise<void> {
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
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
