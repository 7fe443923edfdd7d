/**
 * `transaction` on PostgreSQL: one pooled connection, no Prisma, the statements of sql.ts only. What
 * must hold is what Prisma's interactive transaction gave the credit check: all or nothing, and a
 * connection that may still hold an open transaction never goes back to the pool.
 */
import { transaction } from '../src';
import { sqlOf, statement } from '../src/sql';
import { proxiedDatabaseForSuite } from './proxied-database';

const INSERT = statement('test_insert_probe', 'INSERT INTO probe (id) VALUES ($1::text) RETURNING id');
const SLEEP = statement('test_sleep', 'SELECT pg_sleep($1::float8)');

describe('transaction on PostgreSQL', () => {
  const suite = proxiedDatabaseForSuite();
  const probes = () => suite().probes();


  it('when the work succeeds, then its statements commit together and its answer is returned', async () => {
    const answer = await transaction(suite().db.prisma, async (tx) => {
      await sqlOf(tx).rows(INSERT, ['a']);
      await sqlOf(tx).rows(INSERT, ['b']);
      expect(await probes()).toEqual([]); // not visible outside before the commit
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await probes()).toEqual(['a', 'b']);
  });

  it('when the work throws after a write, then nothing is kept and the error is the one thrown', async () => {
    const failing = transaction(suite().db.prisma, async (tx) => {
      await sqlOf(tx).rows(INSERT, ['a']);
      throw new Error('refused halfway');
    });
    await expect(failing).rejects.toThrow('refused halfway');
    expect(await probes()).toEqual([]);
  });

  it('when a statement fails, then the earlier ones roll back and the connection serves the next caller', async () => {
    await expect(
      transaction(suite().db.prisma, async (tx) => {
        await sqlOf(tx).rows(INSERT, ['a']);
        await sqlOf(tx).rows(INSERT, ['a']); // duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    await sqlOf(suite().db.prisma).rows(INSERT, ['after']);
    expect(await probes()).toEqual(['after']);
  });

  it('when Prisma is asked of the handle, then it throws at once instead of running outside the transaction', async () => {
    await expect(
      transaction(suite().db.prisma, async (tx) => {
        await sqlOf(tx).rows(INSERT, ['a']);
        await tx.$executeRawUnsafe(`INSERT INTO probe (id) VALUES ('outside')`);
      }),
    ).rejects.toThrow(/statements of sql.ts only; \$executeRawUnsafe/);
    expect(await probes()).toEqual([]);
  });

  // Also the case of a lent connection's 'error' event: unheard, it was an uncaught error in the process.
  it('when a statement times out mid-transaction, then that connection is dropped and later writes commit', async () => {
    await expect(
      transaction(suite().db.prisma, async (tx) => {
        await sqlOf(tx).rows(INSERT, ['in-transaction']);
        await suite().proxy.cut('blackhole');
        await sqlOf(tx).rows(SLEEP, [0]);
      }),
    ).rejects.toThrow(/Query read timeout|Connection terminated/);
    await suite().proxy.restore({ heal: true });
    // One connection in the pool: this write takes whichever connection the pool has now.
    await sqlOf(suite().db.prisma).rows(INSERT, ['after']);
    expect(await probes()).toEqual(['after']);
  });
});
