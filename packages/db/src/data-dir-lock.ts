/**
 * The embedded database serves one process: two PGlite instances on one folder overwrite each other's
 * files. The folder is locked with an operating-system lock on `DATA_DIR/loanmatch.lock`
 * (fs-native-extensions), which the kernel drops when the process ends, however it ends (docs/adr/0150).
 */
import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tryLock, unlock } from 'fs-native-extensions';

export const LOCK_FILE = 'loanmatch.lock';

/** A second process on a locked folder: the message names the folder and the way to run several. */
export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(dataDir: string, holder: string | undefined) {
    super(
      `the embedded database in ${dataDir} is in use by another process${holder ? ` (pid ${holder})` : ''}. ` +
        'Only one process can open an embedded database; stop the other one, give this one another DATA_DIR, ' +
        'or run several processes on a PostgreSQL server named in DATABASE_URL (docs/operations.md, "Several processes").',
    );
  }
}

/**
 * Takes the folder's lock, or throws DataDirLockedError without writing anything. The lock file holds
 * the holder's pid, for the message above; the lock itself is the kernel's, not the file's content.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const path = join(dataDir, LOCK_FILE);
  // Opened for writing (an exclusive lock needs it) without truncating: the holder's pid stays readable.
  const fd = openSync(path, 'a+', 0o600);
  let granted = false;
  try {
    granted = tryLock(fd);
  } finally {
    if (!granted) closeSync(fd);
  }
  if (!granted) throw new DataDirLockedError(dataDir, holderOf(path));
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      unlock(fd);
      closeSync(fd);
    },
  };
}

function holderOf(path: string): string | undefined {
  try {
    const pid = readFileSync(path, 'utf8').trim();
    return /^\d{1,10}$/.test(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
