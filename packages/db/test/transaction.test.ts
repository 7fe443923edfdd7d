/**
 * A transaction of the repositories on PostgreSQL (`databaseHandle(db).transaction`): Prisma's interactive
 * transaction, with the statements of sql.ts on its connection. What must hold: all or nothing, Prisma's
 * calls and the statements in one transaction, and a connection that may still hold an open transaction
 * never goes back to the pool.
 */
import { databaseHandle } from '../src/repositories';
import { statement } from '../src/sql';
import { proxiedDatabaseForSuite } from './proxied-database';

const INSERT = statement('test_insert_probe', 'INSERT INTO probe (id) VALUES ($1::text) RETURNING id');
const SLEEP = statement('test_sleep', 'SELECT pg_sleep($1::float8)');

describe('transaction on PostgreSQL', () => {
  const suite = proxiedDatabaseForSuite();
  const probes = () => suite().probes();
  const db = () => databaseHandle(suite().db);

  it('when the work succeeds, then its statements commit together and its answer is returned', async () => {
    const answer = await db().transaction(async (tx) => {
      await tx.rows(INSERT, ['a']);
      await tx.rows(INSERT, ['b']);
      expect(await probes()).toEqual([]); // not visible outside before the commit
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await probes()).toEqual(['a', 'b']);
  });

  it('when the work throws after a write, then nothing is kept and the error is the one thrown', async () => {
    const failing = db().transaction(async (tx) => {
      await tx.rows(INSERT, ['a']);
      throw new Error('refused halfway');
    });
    await expect(failing).rejects.toThrow('refused halfway');
    expect(await probes()).toEqual([]);
  });

  it('when a statement fails, then the earlier ones roll back and the connection serves the next caller', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.rows(INSERT, ['a']);
        await tx.rows(INSERT, ['a']); // duplicate key
      }),
    ).rejects.toThrow(/duplicate key|Unique constraint/);
    await db().rows(INSERT, ['after']);
    expect(await probes()).toEqual(['after']);
  });

  it('when Prisma is called in the transaction beside a statement, then both commit or roll back together', async () => {
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      db().transaction(async (tx) => {
        await tx.rows(INSERT, ['statement']);
        await tx.prisma.$executeRawUnsafe(`INSERT INTO probe (id) VALUES ('prisma')`);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await probes()).toEqual([]);
    await db().transaction(async (tx) => {
      await tx.rows(INSERT, ['statement']);
      await tx.prisma.$executeRawUnsafe(`INSERT INTO probe (id) VALUES ('prisma')`);
    });
    expect(await probes()).toEqual(['prisma', 'statement']);
  });

  it('when a transaction is asked for inside one, then its work runs in the outer one', async () => {
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      db().transaction(async (tx) => {
        await tx.transaction((inner) => inner.rows(INSERT, ['inner']));
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await probes()).toEqual([]);
  });

  // Also the case of a lent connection's 'error' event: unheard, it was an uncaught error in the process.
  it('when a statement times out mid-transaction, then that connection is dropped and later writes commit', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.rows(INSERT, ['in-transaction']);
        await suite().proxy.cut('blackhole');
        await tx.rows(SLEEP, [0]);
      }),
    ).rejects.toThrow(/Query read timeout|Connection terminated/);
    await suite().proxy.restore({ heal: true });
    // One connection in the pool: this write takes whichever connection the pool has now.
    await db().rows(INSERT, ['after']);
    expect(await probes()).toEqual(['after']);
  });
});
