/**
 * DB_QUERY_TIMEOUT_MS against a PostgreSQL that stops answering in the middle of a transaction (a TCP
 * proxy of the test holds the traffic, then lets it through again, as a partition that heals does).
 * The connection the statement was waiting on must not go back to the pool: it still has the transaction
 * open on the server, and the next statement on it would run inside that transaction and never commit.
 */
import { proxiedDatabase, type ProxiedDatabase } from './proxied-database';

describe('a statement unanswered within the query timeout', () => {
  let t: ProxiedDatabase;

  beforeAll(async () => {
    t = await proxiedDatabase();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('when the server stops answering mid-transaction and comes back, then the transaction is rolled back and later writes commit', async () => {
    const inTransaction = t.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`INSERT INTO probe (id) VALUES ('in-transaction')`);
      await t.proxy.cut('blackhole');
      await tx.$queryRawUnsafe('SELECT 1');
    });
    await expect(inTransaction).rejects.toThrow(/Query read timeout|Connection terminated/);
    await t.proxy.restore({ heal: true });

    // One connection in the pool: this write takes whichever connection the pool has now.
    await t.db.prisma.$executeRawUnsafe(`INSERT INTO probe (id) VALUES ('after')`);
    expect(await t.probes()).toEqual(['after']);
  });
});
