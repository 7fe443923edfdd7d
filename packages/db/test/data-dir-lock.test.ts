import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/connect';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../src/data-dir-lock';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'loanmatch-lock-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('the lock on DATA_DIR', () => {
  it('when the folder is locked, then a second lock is refused with a message naming the folder, the holder and PostgreSQL', () => {
    const dir = folder();
    const held = lockDataDir(dir);
    try {
      expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(
        `the embedded database in ${dir} is in use by another process (pid ${process.pid})`,
      );
      expect(() => lockDataDir(dir)).toThrow(/PostgreSQL server named in DATABASE_URL/);
    } finally {
      held.release();
    }
  });

  it('when the holder releases it, then the folder can be locked again', () => {
    const dir = folder();
    lockDataDir(dir).release();
    const again = lockDataDir(dir);
    again.release();
    again.release(); // twice is harmless
    expect(() => lockDataDir(dir).release()).not.toThrow();
  });

  it('when the embedded database makes DATA_DIR, then the folder is private (0700): PGlite writes some of its own files 0666', async () => {
    const dir = join(folder(), 'nested', 'data');
    const db = await openDatabase({ dataDir: dir });
    try {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, '..')).mode & 0o777).toBe(0o700);
    } finally {
      await db.close();
    }
  });
});
