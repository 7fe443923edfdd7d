/**
 * Opens the database: embedded PGlite in a folder by default, a PostgreSQL server when a URL is given.
 * Repositories run SQL through `query` and `transaction`, the same on both.
 */
import { mkdirSync } from 'node:fs';
import type { Pool } from 'pg';
import { lockDataDir } from './data-dir-lock';
import { applyMigrations, type MigrationTransaction } from './migrate';

/** What a repository function runs its statements on: the database, or an open transaction. */
export interface Sql {
  /** Runs one statement, its values as parameters `$1`, `$2`, …, and answers its rows. */
  query<R = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<R[]>;
}

/** A database that can open a transaction. */
export interface Transactional extends Sql {
  /** Runs `work` in one transaction and answers what it answers; anything it throws rolls it back. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}

/** A JSON object as a `json` or `jsonb` column holds it. */
export type Json = Record<string, unknown>;

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

export interface Database extends Transactional {
  readonly kind: 'pglite' | 'postgresql';
  /**
   * The same database for long operator work, whose statements may take longer than a request's
   * (`jobQueryTimeoutMs`): on PostgreSQL a small pool of its own, made on first use; on PGlite the same one.
   */
  readonly jobs: Transactional;
  migrate(): Promise<string[]>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The PostgreSQL pool's use at this moment, for metrics; absent on PGlite, which has no pool. */
  poolStats?(): PoolStats;
}

/** Connections in the pool, idle ones, queries waiting for one, and the most it opens. */
export type PoolStats = { total: number; idle: number; waiting: number; max: number };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options);
  return openPglite(options.dataDir);
}

/** A pg client or PGlite (or its transaction), as `Sql`. */
function sqlOf(driver: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> }): Sql {
  return {
    query: async <R>(text: string, values?: readonly unknown[]) =>
      (await driver.query(text, values as unknown[])).rows as R[],
  };
}

/** The name each statement text is prepared under: one per text, for the life of the process. */
const NAMES = new Map<string, string>();

/**
 * A pg pool or client as `Sql`, each statement sent as a named (prepared) one: PostgreSQL parses and plans
 * it once per connection instead of on every call (docs/adr/0215).
 */
function prepared(driver: {
  query(config: { name: string; text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>;
}): Sql {
  return {
    query: async <R>(text: string, values?: readonly unknown[]) => {
      let name = NAMES.get(text);
      if (name === undefined) {
        name = `s${NAMES.size}`;
        NAMES.set(text, name);
      }
      return (await driver.query({ name, text, values: values as unknown[] })).rows as R[];
    },
  };
}

/** pg's parsers, except `int8` (counts, sequence numbers, cents) as a number, as PGlite answers it. */
async function numberTypes() {
  const { types } = await import('pg');
  const INT8 = 20;
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8 ? Number : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const pg = await import('pg');
  const config = {
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 2000,
    types: await numberTypes(),
  };
  // A statement past `query_timeout` fails, and pg's pool then closes its connection rather than handing
  // it back, so the server rolls back whatever it held.
  const pool = new pg.Pool({ ...config, query_timeout: options.queryTimeoutMs });
  // An idle connection the server ends (a restart, a dropped database) leaves the pool by itself; without
  // a listener its 'error' would end the process.
  pool.on('error', () => undefined);
  // Long operator work runs on two connections of its own with a longer statement limit, so that a
  // request's limit can stay short enough to answer within 2 s when the server stops answering.
  let jobs: { pool: Pool; db: Transactional } | undefined;
  return {
    kind: 'postgresql',
    ...poolDatabase(pool),
    get jobs() {
      if (!jobs) {
        const jobPool = new pg.Pool({ ...config, max: 2, query_timeout: options.jobQueryTimeoutMs ?? 60_000 });
        jobPool.on('error', () => undefined);
        jobs = { pool: jobPool, db: poolDatabase(jobPool) };
      }
      return jobs.db;
    },
    // Migrations run before the process serves, on a connection of their own without the statement
    // limit: building an index may take minutes.
    migrate: () => applyMigrations((work) => migrationTransaction(url, work)),
    ping: () => answers(pool),
    async close() {
      await jobs?.pool.end();
      await pool.end();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: config.max }),
  };
}

/**
 * Statements on the pool, and transactions on one connection of it. A connection whose rollback did not go
 * through (the server stopped answering) may still hold the transaction open: it is closed, never pooled again.
 */
function poolDatabase(pool: Pool): Transactional {
  return {
    ...prepared(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const answer = await work(prepared(client));
        await client.query('COMMIT');
        client.release();
        return answer;
      } catch (err) {
        const rolledBack = await client.query('ROLLBACK').then(
          () => true,
          () => false,
        );
        client.release(!rolledBack);
        throw err;
      }
    },
  };
}

/** A migration's transaction, on a connection of its own; a script of several statements runs as one query. */
async function migrationTransaction<T>(url: string, work: (tx: MigrationTransaction) => Promise<T>): Promise<T> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url, types: await numberTypes() });
  await client.connect();
  try {
    await client.query('BEGIN');
    const answer = await work({
      ...sqlOf(client),
      exec: async (script) => {
        await client.query(script);
      },
    });
    await client.query('COMMIT');
    return answer;
  } finally {
    await client.end();
  }
}

async function startPglite(dataDir?: string) {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite(dataDir);
  await pglite.waitReady;
  return pglite;
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (!dataDir || dataDir.startsWith('memory://')) {
    const pglite = await startPglite();
    return pgliteDatabase(pglite, () => pglite.close());
  }
  mkdirSync(dataDir, { recursive: true });
  // Before PGlite reads or writes a file: a second process stops here, having touched nothing.
  const lock = lockDataDir(dataDir);
  try {
    const pglite = await startPglite(dataDir);
    return pgliteDatabase(pglite, () => pglite.close().finally(() => lock.release()));
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** PGlite runs one statement at a time: a statement outside a transaction waits for the open one. */
function pgliteDatabase(pglite: Awaited<ReturnType<typeof startPglite>>, close: () => Promise<void>): Database {
  const db: Transactional = {
    ...sqlOf(pglite),
    transaction: (work) => pglite.transaction((tx) => work(sqlOf(tx))),
  };
  return {
    kind: 'pglite',
    ...db,
    jobs: db,
    migrate: () =>
      applyMigrations((work) =>
        pglite.transaction((tx) =>
          work({
            ...sqlOf(tx),
            exec: async (script) => {
              await tx.exec(script);
            },
          }),
        ),
      ),
    ping: () => answers(pglite),
    close,
  };
}

/** True when the database answers a trivial query. */
function answers(driver: { query(text: string): Promise<unknown> }): Promise<boolean> {
  return driver.query('SELECT 1').then(
    () => true,
    () => false,
  );
}
