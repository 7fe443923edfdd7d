/**
 * In-memory-speed PGlite test databases without PGlite's initdb on each: initdb takes seconds, while a
 * copy of a data folder already made and migrated opens in well under one. The folder is made once in a
 * test run, by the first jest worker that needs it, in memory-backed storage where the machine has it
 * (`/dev/shm`), and every worker copies it; each test database is a copy of its own, removed when it is
 * closed. The run's teardown removes the folder (tests/support/run.ts).
 */
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Database } from '@loanmatch/db';
import { PGLITE_BASE, pgliteFolderName } from './run';

/** The migrated, empty folder: made by the first worker that needs it, renamed into place when whole. */
async function makeTemplate(): Promise<string> {
  const dir = join(PGLITE_BASE, pgliteFolderName());
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
  const dir = mkdtempSync(join(PGLITE_BASE, pgliteFolderName('-copy-')));
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
