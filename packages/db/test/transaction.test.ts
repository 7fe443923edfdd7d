/**
 * A transaction on PostgreSQL (`Database.transaction`): all or nothing, and a connection that may still
 * hold an open transaction never goes back to the pool, even when the server stops answering in the
 * middle of it (a TCP proxy of the test holds the traffic, then lets it through again, as a partition
 * that heals does): the next statement on it would otherwise run inside that transaction and never commit.
 */
import { proxiedDatabaseForSuite } from './proxied-database';

const INSERT = 'INSERT INTO probe (id) VALUES ($1) RETURNING id';

describe('transaction on PostgreSQL', () => {
  const suite = proxiedDatabaseForSuite();
  const probes = () => suite().probes();
  const db = () => suite().db;

  it('when the work succeeds, then its statements commit together and its answer is returned', async () => {
    const answer = await db().transaction(async (tx) => {
      await tx.query(INSERT, ['a']);
      await tx.query(INSERT, ['b']);
      expect(await probes()).toEqual([]); // not visible outside before the commit
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await probes()).toEqual(['a', 'b']);
  });

  it('when the work throws after a write, then nothing is kept and the error is the one thrown', async () => {
    const failing = db().transaction(async (tx) => {
      await tx.query(INSERT, ['a']);
      throw new Error('refused halfway');
    });
    await expect(failing).rejects.toThrow('refused halfway');
    expect(await probes()).toEqual([]);
  });

  it('when a statement fails, then the earlier ones roll back and the connection serves the next caller', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.query(INSERT, ['a']);
        await tx.query(INSERT, ['a']); // duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    await db().query(INSERT, ['after']);
    expect(await probes()).toEqual(['after']);
  });

  // Also the case of a lent connection's 'error' event: unheard, it was an uncaught error in the process.
  it('when a statement times out mid-transaction, then that connection is dropped and later writes commit', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.query(INSERT, ['in-transaction']);
        await suite().proxy.cut('blackhole');
        await tx.query('SELECT pg_sleep(0)');
      }),
    ).rejects.toThrow(/Query read timeout|Connection terminated/);
    await suite().proxy.restore({ heal: true });
    // One connection in the pool: this write takes whichever connection the pool has now.
    await db().query(INSERT, ['after']);
    expect(await probes()).toEqual(['after']);
  });
});
