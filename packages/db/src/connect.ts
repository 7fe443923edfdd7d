/**
 * Opens the database: embedded PGlite in a folder by default, a PostgreSQL server when a URL is given.
 * Only this package and its repositories touch the Prisma client.
 */
import { mkdirSync } from 'node:fs';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client';
import { TimeoutClosingClient } from './connect-timeouts';
import { createPipeline } from './pipeline';
import { applyMigrations } from './migrate';
import { bindSql, pgliteSql, poolSql, type PGliteDriver, type PGliteLibrary } from './sql';

export type Prisma = PrismaClient;

export interface DatabaseOptions {
  /** `postgresql://…`; when absent, embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; `memory://` (or absent) keeps it in memory, for tests. */
  dataDir?: string;
  /** Pool size for a PostgreSQL server. */
  poolSize?: number;
  /**
   * Connections in pg's pipeline mode for the statements of sql.ts that stand alone (pipeline.ts); 0
   * sends them through the pool. Default 2.
   */
  pipelineConnections?: number;
  /** Time to wait for a pooled connection before failing, in ms. */
  connectionTimeoutMs?: number;
  /**
   * Time to wait for the answer to one statement, in ms; none when absent. A connection whose server
   * stopped answering (a network partition) is dropped from the pool when it expires.
   */
  queryTimeoutMs?: number;
}

export interface Database {
  readonly kind: 'pglite' | 'postgresql';
  readonly prisma: PrismaClient;
  migrate(): Promise<string[]>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The PostgreSQL pool's use at this moment, for metrics; absent on PGlite, which has no pool. */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options);
  return openPglite(options.dataDir);
}

/**
 * Sent on each pipelined connection once it is open. Its statements are the named ones of sql.ts, planned
 * once per connection for all values: PostgreSQL does that by itself after five executions for a statement
 * whose generic plan it finds no dearer than the plans it makes for each call's values. A batched read's it
 * finds dearer (`unnest` of an array parameter is estimated at 10 rows, of a known array at its length), so
 * without this the batched read was planned again on every call: 0.34 ms a bind against 0.04 for the single
 * read (docs/decisions.md, "Issue 7, tenth session"). Every statement the busiest calls send is checked
 * planned this way on empty tables (packages/domain/test/generic-plans.test.ts). A `SET` rather than an
 * `options` startup parameter in the URL: the operator's URL stays as it is, and a pooler such as
 * PgBouncer may refuse that parameter.
 */
const GENERIC_PLANS = 'SET plan_cache_mode = force_generic_plan';

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const { Pool } = await import('pg');
  const pool = { connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: options.connectionTimeoutMs ?? 2000 };
  // The pool is ours, not the adapter's, so that its use can be read; it closes with the database.
  // A statement past the query timeout closes its connection rather than handing it back (connect-timeouts.ts).
  const queries = new Pool({ ...pool, query_timeout: options.queryTimeoutMs, Client: TimeoutClosingClient });
  // The busiest statements go to the driver directly, as prepared statements (sql.ts): those that stand
  // alone over pipelined connections of their own (pipeline.ts), transactions through the pool.
  const lanes = options.pipelineConnections ?? 2;
  const pipeline =
    lanes > 0
      ? createPipeline(
          () => new TimeoutClosingClient({ connectionString: url, connectionTimeoutMillis: pool.connectionTimeoutMillis, query_timeout: options.queryTimeoutMs, pipeline: true }),
          lanes,
          (client) => client.query(GENERIC_PLANS),
        )
      : undefined;
  // Migrations get their own connections without the statement limit: building an index may take minutes.
  const db = wrap('postgresql', new PrismaPg(queries), async () => {
    await pipeline?.end();
    await queries.end();
  }, new PrismaPg(pool));
  bindSql(db.prisma, poolSql(queries, pipeline));
  // An idle connection the server ends (a restart, a dropped database) leaves the pool by itself; without
  // a listener its 'error' would end the process. Prisma's adapter listens only while it is connected.
  queries.on('error', () => undefined);
  return { ...db, poolStats: () => ({ total: queries.totalCount, idle: queries.idleCount, waiting: queries.waitingCount, max: pool.max }) };
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const lib = await import('@electric-sql/pglite');
  const { PGlite } = lib;
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const inMemory = !dataDir || dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const pglite = inMemory ? new PGlite() : new PGlite(dataDir);
  await pglite.waitReady;
  const db = wrap('pglite', new PrismaPGlite(pglite), () => pglite.close());
  bindSql(db.prisma, pgliteSql(pglite as unknown as PGliteDriver, lib as unknown as PGliteLibrary));
  return db;
}

function wrap(
  kind: Database['kind'],
  factory: SqlMigrationAwareDriverAdapterFactory,
  closeDriver: () => Promise<void>,
  migrations: SqlMigrationAwareDriverAdapterFactory = factory,
): Database {
  const prisma = new PrismaClient({ adapter: factory });
  return {
    kind,
    prisma,
    migrate: () => applyMigrations(migrations),
    async ping() {
      try {
        await prisma.$queryRawUnsafe('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await prisma.$disconnect();
      await closeDriver();
    },
  };
}
