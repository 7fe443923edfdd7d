/**
 * One process per embedded database: started processes on one DATA_DIR. A second one (or
 * `pnpm db:migrate`) exits at once and touches nothing; a holder killed with SIGKILL leaves no lock.
 */
import { readdirSync } from 'node:fs';
import { LOCK_FILE, openDatabase } from '@loanmatch/db';
import { api, run, startServer, tempDataDir, type Started } from './process';

jest.setTimeout(120_000);

/** How long a refused start may take: the time to load the code; a wait on the lock would add to it. */
const REFUSED_WITHIN_MS = 15_000;

function expectRefusal(res: { code: number | null; err: string }, dataDir: string): void {
  expect(res.code).toBe(1);
  expect(res.err).toContain(`the embedded database in ${dataDir} is in use by another process`);
  expect(res.err).toContain('DATABASE_URL');
  expect(res.err).toContain('PostgreSQL');
  expect(res.err).not.toMatch(/\n\s+at /); // a message, not a stack
}

describe('DATA_DIR of the embedded database', () => {
  const dataDir = tempDataDir();
  let first: Started | undefined;
  let second: Started | undefined;
  let applicationId: string;
  let key: string;

  afterAll(async () => {
    await Promise.all([first?.stop('SIGKILL'), second?.stop('SIGKILL')]);
  });

  it('when a second process starts on a folder another one serves from, then it exits 1 at once naming the folder and PostgreSQL, and the first serves on with its data', async () => {
    first = await startServer({ env: { DATA_DIR: dataDir } });
    key = first.demoApiKey!;
    const created = await api(first.urls['Variant A'], 'POST', '/applications', {
      key,
      body: { formType: 'personal', data: { loanAmount: 12_000 } },
    });
    expect(created.status).toBe(201);
    applicationId = created.body.data.applicationId;

    const started = performance.now();
    const refused = await run(['apps/server/src/main.ts', 'a'], { DATA_DIR: dataDir, PORT_A: '0' });
    const tookMs = performance.now() - started;
    expectRefusal(refused, dataDir);
    expect(refused.out).not.toContain('is running');
    expect(tookMs).toBeLessThan(REFUSED_WITHIN_MS);
    console.log(`second process refused in ${Math.round(tookMs)} ms (start-up of tsx included)`);

    const read = await api(first.urls['Variant A'], 'GET', `/applications/${applicationId}`, { key });
    expect(read.status).toBe(200);
  });

  it('when pnpm db:migrate runs beside the server, then it is refused the same way', async () => {
    const res = await run(['packages/db/src/cli/migrate.ts'], { DATA_DIR: dataDir });
    expectRefusal(res, dataDir);
  });

  it('when the holder is killed with SIGKILL, then the next process starts on the folder at once and finds what was acknowledged', async () => {
    expect(await first!.stop('SIGKILL')).toBeNull();
    second = await startServer({ env: { DATA_DIR: dataDir } });
    const read = await api(second.urls['Variant A'], 'GET', `/applications/${applicationId}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ applicationId, status: 'draft' });
  });

  it('when a process is refused on a locked folder, then it wrote nothing there: no database, no secret', async () => {
    const empty = tempDataDir();
    // This test process holds the lock, as a running server would.
    const holder = await openDatabase({ dataDir: empty });
    try {
      const before = readdirSync(empty).sort();
      const res = await run(['apps/server/src/main.ts'], {
        DATA_DIR: empty,
        PORT_A: '0',
        PORT_B: '0',
        PORT_ADMIN: '0',
      });
      expectRefusal(res, empty);
      expect(readdirSync(empty).sort()).toEqual(before);
      expect(before).toContain(LOCK_FILE);
      expect(before).not.toContain('admin-token');
    } finally {
      await holder.close();
    }
  });
});
