/**
 * DB_QUERY_TIMEOUT_MS against a PostgreSQL that stops answering in the middle of a transaction (a TCP
 * proxy of the test holds the traffic, then lets it through again, as a partition that heals does).
 * The connection the statement was waiting on must not go back to the pool: it still has the transaction
 * open on the server, and the next statement on it would run inside that transaction and never commit.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, type Database } from '../src';
import { startTcpProxy, type TcpProxy } from '../../../tests/e2e/tcp-proxy';

const SERVER = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';

async function sql(url: string, text: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('a statement unanswered within the query timeout', () => {
  const name = `lm_test_${randomBytes(6).toString('hex')}`;
  let proxy: TcpProxy;
  let db: Database;

  beforeAll(async () => {
    await sql(`${SERVER}/postgres`, `CREATE DATABASE ${name}`);
    await sql(`${SERVER}/${name}`, 'CREATE TABLE probe (id text PRIMARY KEY)');
    const url = new URL(`${SERVER}/${name}`);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    db = await openDatabase({ url: url.toString(), poolSize: 1, queryTimeoutMs: 300, connectionTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await db?.close();
    await proxy?.close();
    await sql(`${SERVER}/postgres`, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('when the server stops answering mid-transaction and comes back, then the transaction is rolled back and later writes commit', async () => {
    const inTransaction = db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`INSERT INTO probe (id) VALUES ('in-transaction')`);
      await proxy.cut('blackhole');
      await tx.$queryRawUnsafe('SELECT 1');
    });
    await expect(inTransaction).rejects.toThrow(/Query read timeout|Connection terminated/);
    await proxy.restore({ heal: true });

    // One connection in the pool: this write takes whichever connection the pool has now.
    await db.prisma.$executeRawUnsafe(`INSERT INTO probe (id) VALUES ('after')`);
    const rows = await sql(`${SERVER}/${name}`, 'SELECT id FROM probe ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(['after']);
  });
});
