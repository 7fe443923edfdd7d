/**
 * Requests and long operator work have their own statement limits: a statement that runs past a
 * request's limit fails there, and completes when run as a job (`db.jobs`), on connections of its own.
 */
import { openDatabase, type Database } from '../src';

const SERVER = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';

describe('the statement limits of requests and of jobs', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase({ url: `${SERVER}/postgres`, poolSize: 2, queryTimeoutMs: 300 });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('when a statement takes longer than the request limit, then it fails on the request pool and completes as a job', async () => {
    await expect(db.query('SELECT 1 AS done FROM pg_sleep(0.8)')).rejects.toThrow(/Query read timeout/);
    await expect(db.jobs.query('SELECT 1 AS done FROM pg_sleep(0.8)')).resolves.toEqual([{ done: 1 }]);
    await expect(db.jobs.transaction((tx) => tx.query('SELECT 2 AS done FROM pg_sleep(0.8)'))).resolves.toEqual([
      { done: 2 },
    ]);
    // The request pool serves on after its timeout.
    await expect(db.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  });
});
