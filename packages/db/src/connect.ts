/**
 * Opens the database: embedded PGlite in a folder by default, a PostgreSQL server when a URL is given.
 * Repositories run SQL through `query` and `transaction`, the same on both.
 */
import { mkdirSync } from 'node:fs';
import type { PGliteInterface } from '@electric-sql/pglite';
import { Client, Pool, types, type ClientBase } from 'pg';
import { lockDataDir } from './data-dir-lock';
import { applyMigrations } from './migrate';

/** What a repository function runs its statements on: the database, or an open transaction. */
export interface Sql {
  /** Runs one statement, its values as parameters `$1`, `$2`, …, and answers its rows. */
  query<R = Record<string, unknown>>(statement: string | Statement, values?: readonly unknown[]): Promise<R[]>;
}

/** A statement's text and its parameters' values, as `sql` writes it. */
export class Statement {
  constructor(
    readonly text: string,
    readonly values: readonly unknown[],
  ) {}
}

/**
 * A statement with its values in place: `sql`… WHERE id = ${id}`` sends `id` as a parameter. A Statement
 * in place (a column list, a condition) is part of the text, its own parameters numbered on.
 */
export function sql(strings: TemplateStringsArray, ...parts: unknown[]): Statement {
  const values: unknown[] = [];
  let text = strings[0];
  parts.forEach((part, i) => {
    if (part instanceof Statement) {
      const offset = values.length;
      text += part.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
      values.push(...part.values);
    } else {
      values.push(part);
      text += `$${values.length}`;
    }
    text += strings[i + 1];
  });
  return new Statement(text, values);
}

export interface Transactional extends Sql {
  /** Runs `work` in one transaction and answers what it answers; anything it throws rolls it back. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}

/** A JSON object as a `json` or `jsonb` column holds it. */
export type Json = Record<string, unknown>;

export interface Database extends Transactional {
  readonly kind: 'pglite' | 'postgresql';
  /** For long operator work (start-up, rotation, catalogue loads, sweeps): statements may take up to 60 s. */
  readonly jobs: Transactional;
  migrate(): Promise<string[]>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The PostgreSQL pool's use at this moment, for metrics; absent on PGlite, which has no pool. */
  poolStats?(): PoolStats;
}

/** Connections in the pool, idle ones, queries waiting for one, and the most it opens. */
export type PoolStats = { total: number; idle: number; waiting: number; max: number };

export async function openDatabase(options: {
  /** `postgresql://…`; when absent, embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; `memory://` (or absent) keeps it in memory, for tests. */
  dataDir?: string;
  poolSize?: number;
  /** Time to wait for a pooled connection before failing, in ms. */
  connectionTimeoutMs?: number;
  /** Time to wait for one statement of the request path, in ms; none when absent. */
  queryTimeoutMs?: number;
}): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options.dataDir);
}

/** pg's parsers, except `int8` (counts, sequence numbers, cents) as a number, as PGlite answers it. */
const NUMBER_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === types.builtins.INT8 ? Number : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

/** The name each statement text is prepared under. */
const NAMES = new Map<string, string>();

/** `Sql` over a driver's call that runs one statement's text with its values. */
function sqlOver(run: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>): Sql {
  return {
    query: async <R>(statement: string | Statement, values: readonly unknown[] = []) => {
      const { text, values: parameters } = typeof statement === 'string' ? new Statement(statement, values) : statement;
      return (await run(text, parameters as unknown[])).rows as R[];
    },
  };
}

/** A pg pool or client as `Sql`, each statement prepared once per connection (docs/adr/0215). */
const prepared = (driver: Pool | ClientBase) =>
  sqlOver((text, values) => {
    const name = NAMES.get(text) ?? `s${NAMES.size}`;
    NAMES.set(text, name);
    return driver.query({ name, text, values });
  });

function openPostgres(url: string, options: Parameters<typeof openDatabase>[0]): Database {
  const config = {
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 2000,
    types: NUMBER_TYPES,
  };
  // A statement past `query_timeout` fails, and pg's pool then closes its connection rather than handing
  // it back, so the server rolls back whatever it held. An idle connection the server ends (a restart, a
  // dropped database) leaves the pool by itself; without a listener its 'error' would end the process.
  const pool = new Pool({ ...config, query_timeout: options.queryTimeoutMs }).on('error', () => undefined);
  // Long operator work runs on two connections of its own with a longer statement limit, so that a
  // request's limit can stay short enough to answer within 2 s when the server stops answering.
  // Neither pool connects before its first statement.
  const jobPool = new Pool({ ...config, max: 2, query_timeout: 60_000 }).on('error', () => undefined);
  return {
    kind: 'postgresql',
    ...poolDatabase(pool),
    jobs: poolDatabase(jobPool),
    // Migrations run before the process serves, on a connection of their own without the statement
    // limit (building an index may take minutes); a script of several statements runs as one query.
    migrate: () =>
      applyMigrations(async (work) => {
        const client = new Client({ connectionString: url, types: NUMBER_TYPES });
        await client.connect();
        try {
          await client.query('BEGIN');
          const answer = await work({ ...prepared(client), exec: (script) => client.query(script) });
          await client.query('COMMIT');
          return answer;
        } finally {
          await client.end();
        }
      }),
    ping: () => answers(pool),
    async close() {
      await jobPool.end();
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

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (!dataDir || dataDir.startsWith('memory://')) return pgliteDatabase(await PGlite.create());
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // private: PGlite writes some of its files 0666
  // Before PGlite reads or writes a file: a second process stops here, having touched nothing.
  const lock = lockDataDir(dataDir);
  try {
    return pgliteDatabase(await PGlite.create(dataDir), lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

const pgliteSql = (driver: Pick<PGliteInterface, 'query'>) => sqlOver((text, values) => driver.query(text, values));

/** PGlite runs one statement at a time: a statement outside a transaction waits for the open one. */
function pgliteDatabase(pglite: PGliteInterface, lock?: { release(): void }): Database {
  const db: Transactional = {
    ...pgliteSql(pglite),
    transaction: (work) => pglite.transaction((tx) => work(pgliteSql(tx))),
  };
  return {
    kind: 'pglite',
    ...db,
    jobs: db,
    migrate: () =>
      applyMigrations((work) =>
        pglite.transaction((tx) => work({ ...pgliteSql(tx), exec: (script) => tx.exec(script) })),
      ),
    ping: () => answers(pglite),
    close: () => pglite.close().finally(() => lock?.release()),
  };
}

/** True when the database answers a trivial query. */
function answers(driver: { query(text: string): Promise<unknown> }): Promise<boolean> {
  return driver.query('SELECT 1').then(
    () => true,
    () => false,
  );
}
