/**
 * Opens the database: embedded PGlite in a folder by default, a PostgreSQL server when a URL is given.
 * Only this package and its repositories touch the Prisma client.
 */
import { mkdirSync } from 'node:fs';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client';
import { TimeoutClosingClient } from './connect-timeouts';
import { lockDataDir } from './data-dir-lock';
import { applyMigrations } from './migrate';
import { pgliteRows, poolRows, type Rows } from './sql';

export interface DatabaseOptions {
  /** `postgresql://…`; when absent, embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; `memory://` (or absent) keeps it in memory, for tests. */
  dataDir?: string;
  /** Pool size for a PostgreSQL server. */
  poolSize?: number;
  /** Time to wait for a pooled connection before failing, in ms. */
  connectionTimeoutMs?: number;
  /**
   * Time to wait for the answer to one statement of the request path, in ms; none when absent. A
   * connection whose server stopped answering (a network partition) is dropped from the pool when it expires.
   */
  queryTimeoutMs?: number;
  /** The same for `jobs`: long operator work (start-up, rotation, catalogue loads, sweeps). Default 60 s. */
  jobQueryTimeoutMs?: number;
}

/** What the repositories are built on: Prisma's client and the raw statements, over one pool. */
export type DatabaseHandle = Pick<Database, 'prisma' | 'rows'>;

/** The statement limit of long operator work, unless `jobQueryTimeoutMs` says otherwise. */
export const JOB_QUERY_TIMEOUT_MS = 60_000;

export interface Database {
  readonly kind: 'pglite' | 'postgresql';
  /** Prisma's client over the process's one connection pool: for the repositories, and for tests that look at what was stored. */
  readonly prisma: PrismaClient;
  /** Runs one statement of `sql.ts` outside any transaction (through the same pool). */
  readonly rows: Rows;
  /**
   * The same database for long operator work, whose statements may take longer than a request's
   * (`jobQueryTimeoutMs`): on PostgreSQL a small pool of its own, made on first use; on PGlite the same handle.
   */
  readonly jobs: DatabaseHandle;
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

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const { Pool } = await import('pg');
  const config = {
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 2000,
  };
  // The process's one pool, for Prisma's adapter and the statements of sql.ts alike; ours rather than the
  // adapter's, so that its use can be read. A statement past the query timeout closes its connection
  // rather than handing it back (connect-timeouts.ts).
  const pool = new Pool({ ...config, query_timeout: options.queryTimeoutMs, Client: TimeoutClosingClient });
  // An idle connection the server ends (a restart, a dropped database) leaves the pool by itself; without
  // a listener its 'error' would end the process. Prisma's adapter listens only while it is connected.
  pool.on('error', () => undefined);
  // Long operator work runs on two connections of its own with a longer statement limit, so that a
  // request's limit can stay short enough to answer within 2 s when the server stops answering.
  let jobs: { pool: InstanceType<typeof Pool>; handle: DatabaseHandle } | undefined;
  const jobsHandle = (): DatabaseHandle => {
    if (!jobs) {
      const jobPool = new Pool({
        ...config,
        max: 2,
        query_timeout: options.jobQueryTimeoutMs ?? JOB_QUERY_TIMEOUT_MS,
        Client: TimeoutClosingClient,
      });
      jobPool.on('error', () => undefined);
      jobs = {
        pool: jobPool,
        handle: { prisma: new PrismaClient({ adapter: new PrismaPg(jobPool) }), rows: poolRows(jobPool) },
      };
    }
    return jobs.handle;
  };
  const closeJobs = async () => {
    if (!jobs) return;
    await jobs.handle.prisma.$disconnect();
    await jobs.pool.end();
  };
  // Migrations run before the process serves, on short-lived connections of their own (the engine closes
  // them when done) and without the statement limit: building an index may take minutes.
  const db = wrap(
    'postgresql',
    new PrismaPg(pool),
    poolRows(pool),
    async () => {
      await closeJobs();
      await pool.end();
    },
    new PrismaPg(config),
    jobsHandle,
  );
  // Assigned, not spread: a spread would read `jobs` and open its pool at once.
  return Object.assign(db, {
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: config.max }),
  });
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const inMemory = !dataDir || dataDir.startsWith('memory://');
  if (inMemory) {
    const pglite = new PGlite();
    await pglite.waitReady;
    return wrap('pglite', new PrismaPGlite(pglite), pgliteRows(pglite), () => pglite.close());
  }
  mkdirSync(dataDir, { recursive: true });
  // Before PGlite reads or writes a file: a second process stops here, having touched nothing.
  const lock = lockDataDir(dataDir);
  try {
    const pglite = new PGlite(dataDir);
    await pglite.waitReady;
    return wrap('pglite', new PrismaPGlite(pglite), pgliteRows(pglite), async () => {
      try {
        await pglite.close();
      } finally {
        lock.release();
      }
    });
  } catch (err) {
    lock.release();
    throw err;
  }
}

function wrap(
  kind: Database['kind'],
  factory: SqlMigrationAwareDriverAdapterFactory,
  rows: Rows,
  closeDriver: () => Promise<void>,
  migrations: SqlMigrationAwareDriverAdapterFactory = factory,
  jobs?: () => DatabaseHandle,
): Database {
  const prisma = new PrismaClient({ adapter: factory });
  return {
    kind,
    prisma,
    rows,
    get jobs() {
      return jobs ? jobs() : { prisma, rows };
    },
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
