/**
 * In-memory-speed PGlite test databases without PGlite's initdb on each: initdb takes seconds, while a
 * copy of a data folder already made and migrated opens in well under one. The folder is made once for
 * each set of migrations and PGlite build, in memory-backed storage where the machine has it
 * (`/dev/shm`), and every jest worker copies it; each test database is a copy of its own, removed when
 * it is closed.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PRISMA_DIR, openDatabase, type Database } from '@loanmatch/db';

const BASE = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** The folder's name: a digest of every migration file and of the PGlite build that will open it. */
function templateName(): string {
  const hash = createHash('sha256');
  const files = readdirSync(join(PRISMA_DIR, 'migrations'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(file).update(readFileSync(file));
  hash.update(require.resolve('@electric-sql/pglite', { paths: [dirname(require.resolve('@loanmatch/db'))] }));
  return `loanmatch-pglite-${hash.digest('hex').slice(0, 16)}`;
}

/** The migrated, empty folder: made by the first worker that needs it, renamed into place when whole. */
async function makeTemplate(): Promise<string> {
  const dir = join(BASE, templateName());
  if (existsSync(dir)) return dir;
  const building = mkdtempSync(`${dir}-building-`);
  const db = await openDatabase({ dataDir: building });
  await db.migrate();
  await db.close();
  try {
    renameSync(building, dir);
  } catch {
    // Another worker put its folder there first: the same content.
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** The template folder, found or made once for this module. */
let template: Promise<string> | undefined;

/** A migrated, empty PGlite database of its own: a copy of the template, removed on close. */
export async function openPgliteCopy(): Promise<{ db: Database; close(): Promise<void> }> {
  const dir = mkdtempSync(join(BASE, 'loanmatch-pglite-test-'));
  try {
    template ??= makeTemplate();
    cpSync(await template, dir, { recursive: true });
    const db = await openDatabase({ dataDir: dir });
    await db.migrate();
    return {
      db,
      async close() {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
