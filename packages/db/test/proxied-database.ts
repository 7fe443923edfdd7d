/**
 * For the database tests that cut the network: a PostgreSQL database of the test's own with a `probe`
 * table, reached through a TCP proxy of the test (tests/e2e/tcp-proxy.ts), and opened with one pooled
 * connection and short timeouts so that a cut is felt at once.
 */
import { Client } from 'pg';
import { openDatabase, type Database } from '../src';
import { startTcpProxy, type TcpProxy } from '../../../tests/e2e/tcp-proxy';
import { PG_SERVER_URL as SERVER, databaseName } from '../../../tests/support/run';

/** One statement on its own connection, straight to the server (never through the proxy). */
export async function sql(url: string, text: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

export interface ProxiedDatabase {
  /** The database, straight (for checking what was committed). */
  url: string;
  proxy: TcpProxy;
  db: Database;
  /** The ids in `probe`, in order. */
  probes(): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function proxiedDatabase(): Promise<ProxiedDatabase> {
  const name = databaseName();
  const url = `${SERVER}/${name}`;
  await sql(`${SERVER}/postgres`, `CREATE DATABASE ${name}`);
  await sql(url, 'CREATE TABLE probe (id text PRIMARY KEY)');
  const through = new URL(url);
  const proxy = await startTcpProxy({ host: through.hostname, port: Number(through.port || 5432) });
  through.port = String(proxy.port);
  const db = await openDatabase({
    url: through.toString(),
    poolSize: 1,
    queryTimeoutMs: 300,
    connectionTimeoutMs: 1000,
  });
  return {
    url,
    proxy,
    db,
    probes: async () => (await sql(url, 'SELECT id FROM probe ORDER BY id')).map((r) => r.id),
    async close() {
      await db.close();
      await proxy.close();
      await sql(`${SERVER}/postgres`, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A suite's database: made before its tests, its `probe` table emptied before each, dropped after them.
 * Answers the database of the test running now.
 */
export function proxiedDatabaseForSuite(): () => ProxiedDatabase {
  let t: ProxiedDatabase | undefined;
  beforeAll(async () => {
    t = await proxiedDatabase();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await sql(t!.url, 'DELETE FROM probe');
  });
  return () => t!;
}
