/**
 * `transaction` on PostgreSQL: one pooled connection, no Prisma, the statements of sql.ts only. What
 * must hold is what Prisma's interactive transaction gave the credit check: all or nothing, and a
 * connection that may still hold an open transaction never goes back to the pool.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, transaction, type Database } from '../src';
import { sqlOf, statement } from '../src/sql';
import { startTcpProxy, type TcpProxy } from '../../../tests/e2e/tcp-proxy';

const SERVER = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
const INSERT = statement('test_insert_probe', 'INSERT INTO probe (id) VALUES ($1::text) RETURNING id');
const SLEEP = statement('test_sleep', 'SELECT pg_sleep($1::float8)');

async function sql(url: string, text: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('transaction on PostgreSQL', () => {
  const name = `lm_test_${randomBytes(6).toString('hex')}`;
  const url = `${SERVER}/${name}`;
  let proxy: TcpProxy;
  let db: Database;
  const probes = async () => (await sql(url, 'SELECT id FROM probe ORDER BY id')).map((r) => r.id);

  beforeAll(async () => {
    await sql(`${SERVER}/postgres`, `CREATE DATABASE ${name}`);
    await sql(url, 'CREATE TABLE probe (id text PRIMARY KEY)');
    const through = new URL(url);
    proxy = await startTcpProxy({ host: through.hostname, port: Number(through.port || 5432) });
    through.port = String(proxy.port);
    db = await openDatabase({ url: through.toString(), poolSize: 1, queryTimeoutMs: 300, connectionTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await db?.close();
    await proxy?.close();
    await sql(`${SERVER}/postgres`, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
  beforeEach(async () => {
    await sql(url, 'DELETE FROM probe');
  });

  it('when the work succeeds, then its statements commit together and its answer is returned', async () => {
    const answer = await transaction(db.prisma, async (tx) => {
      await sqlOf(tx).rows(INSERT, ['a']);
      await sqlOf(tx).rows(INSERT, ['b']);
      expect(await probes()).toEqual([]); // not visible outside before the commit
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await probes()).toEqual(['a', 'b']);
  });

  it('when the work throws after a write, then nothing is kept and the error is the one thrown', async () => {
    const failing = transaction(db.prisma, async (tx) => {
      await sqlOf(tx).rows(INSERT, ['a']);
      throw new Error('refused halfway');
    });
    await expect(failing).rejects.toThrow('refused halfway');
    expect(await probes()).toEqual([]);
  });

  it('when a statement fails, then the earlier ones roll back and the connection serves the next caller', async () => {
    await expect(
      transaction(db.prisma, async (tx) => {
        await sqlOf(tx).rows(INSERT, ['a']);
        await sqlOf(tx).rows(INSERT, ['a']); // duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    await sqlOf(db.prisma).rows(INSERT, ['after']);
    expect(await probes()).toEqual(['after']);
  });

  it('when Prisma is asked of the handle, then it throws at once instead of running outside the transaction', async () => {
    await expect(
      transaction(db.prisma, async (tx) => {
        await sqlOf(tx).rows(INSERT, ['a']);
        await tx.$executeRawUnsafe(`INSERT INTO probe (id) VALUES ('outside')`);
      }),
    ).rejects.toThrow(/statements of sql.ts only; \$executeRawUnsafe/);
    expect(await probes()).toEqual([]);
  });

  // Also the case of a lent connection's 'error' event: unheard, it was an uncaught error in the process.
  it('when a statement times out mid-transaction, then that connection is dropped and later writes commit', async () => {
    await expect(
      transaction(db.prisma, async (tx) => {
        await sqlOf(tx).rows(INSERT, ['in-transaction']);
        await proxy.cut('blackhole');
        await sqlOf(tx).rows(SLEEP, [0]);
      }),
    ).rejects.toThrow(/Query read timeout|Connection terminated/);
    await proxy.restore({ heal: true });
    // One connection in the pool: this write takes whichever connection the pool has now.
    await sqlOf(db.prisma).rows(INSERT, ['after']);
    expect(await probes()).toEqual(['after']);
  });
});
