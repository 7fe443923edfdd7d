/**
 * The driver beneath Prisma, for the statements every request sends (docs/decisions.md, "Performance"):
 * Prisma's runtime costs about as much CPU per statement as the round trip itself, and a request that
 * writes several rows can send them here as one statement (data-modifying CTEs) where Prisma makes a
 * transaction of several. Everything else goes through Prisma.
 *
 * A statement has a fixed name and text, its values always parameters: on PostgreSQL it is prepared
 * once per pooled connection (pg's named statements), so the server parses and plans it once.
 */
import type { PrismaClient } from './generated/client';
import type { Queryable } from './repositories/types';

export interface Statement {
  /** Unique per text: pg refuses a name prepared on a connection with another text. */
  readonly name: string;
  readonly text: string;
}

export interface Sql {
  /** Runs one statement, as a transaction of its own, and answers its rows. */
  rows<R>(statement: Statement, values: readonly unknown[]): Promise<R[]>;
  /** Runs `work` as one transaction on one connection (`transaction` below); absent where Prisma's is used. */
  transaction?<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

export const statement = (name: string, text: string): Statement => ({ name: `lm_${name}`, text });

const drivers = new WeakMap<object, Sql>();

/** Called by `openDatabase`: statements sent through `prisma` go to this driver. */
export function bindSql(prisma: PrismaClient, sql: Sql): void {
  drivers.set(prisma, sql);
}

/**
 * Where a statement for `db` goes: the driver of a client opened by `openDatabase`, or, inside a
 * Prisma transaction (or for a client opened otherwise), Prisma's own raw query on that handle, so a
 * statement joins the transaction it is called in.
 */
export function sqlOf(db: Queryable): Sql {
  return drivers.get(db) ?? { rows: <R>(s: Statement, values: readonly unknown[]) => db.$queryRawUnsafe<R[]>(s.text, ...values) };
}

/**
 * Runs `work` in one transaction and answers what it answers; anything it throws rolls the transaction
 * back. On PostgreSQL the transaction runs on one pooled connection without Prisma, and `tx` serves only
 * the statements of this file (`sqlOf(tx)`): any other use of it throws at once, so a Prisma call cannot
 * silently run outside the transaction. Elsewhere (PGlite) it is Prisma's interactive transaction.
 */
export function transaction<T>(db: PrismaClient, work: (tx: Queryable) => Promise<T>): Promise<T> {
  const sql = drivers.get(db);
  return sql?.transaction ? sql.transaction(work) : db.$transaction((tx) => work(tx));
}

/** A transaction's handle for `sqlOf`: nothing else may be asked of it. */
function statementsOnlyHandle(): Queryable {
  return new Proxy(Object.create(null) as object, {
    get(_target, property) {
      throw new Error(`this transaction runs the statements of sql.ts only; ${String(property)} was asked of it`);
    },
  }) as Queryable;
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface PgPool extends PgQueryable {
  connect(): Promise<
    PgQueryable & {
      query(text: string): Promise<unknown>;
      release(destroy?: boolean): void;
      on(event: 'error', listener: (err: Error) => void): unknown;
      off(event: 'error', listener: (err: Error) => void): unknown;
    }
  >;
}

/** PostgreSQL: the pool Prisma's adapter uses too. */
export function poolSql(pool: PgPool): Sql {
  const on = (q: PgQueryable) => async <R>(s: Statement, values: readonly unknown[]) =>
    (await q.query({ name: s.name, text: s.text, values: values as unknown[] })).rows as R[];
  return {
    rows: on(pool),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A connection whose rollback failed (closed after a timeout, say) may still hold the transaction: dropped.
      let destroy = false;
      // The pool stops listening to a connection it lends: one lost meanwhile (closed after a statement's
      // timeout, or by the server) would otherwise raise an uncaught error. The work fails, and the
      // connection is dropped.
      const lost = () => {
        destroy = true;
      };
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        const tx = statementsOnlyHandle();
        drivers.set(tx, { rows: on(client) });
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          destroy = true;
        });
        throw err;
      } finally {
        client.off('error', lost);
        client.release(destroy);
      }
    },
  };
}

/**
 * PGlite: one connection in the process; a statement waits for any transaction Prisma holds on it, as
 * PGlite's own `query` does. Each statement is parsed once, under its name, and then run with one
 * Bind/Execute/Sync exchange, where `query` parses, plans and describes it again on every call (six
 * exchanges with the WebAssembly PostgreSQL, about half of a read's time).
 */
export function pgliteSql(pglite: PGliteDriver, lib: PGliteLibrary): Sql {
  const { serialize } = lib.protocol;
  const parameterTypes = new Map<string, number[]>();
  const message = (...parts: Uint8Array[]) => Buffer.concat(parts);
  return {
    rows<R>(s: Statement, values: readonly unknown[]) {
      return pglite._runExclusiveTransaction(() =>
        pglite._runExclusiveQuery(async () => {
          let types = parameterTypes.get(s.name);
          if (!types) {
            const described = await pglite.execProtocol(
              message(serialize.parse({ name: s.name, text: s.text }), serialize.describe({ type: 'S', name: s.name }), serialize.sync()),
              { syncToFs: false },
            );
            types = lib.parse.parseDescribeStatementResults(described.messages);
            parameterTypes.set(s.name, types);
          }
          const params = values.map((v, i) => (v === null || v === undefined ? null : (pglite.serializers[types[i]] ?? String)(v)));
          const { messages } = await pglite.execProtocol(
            message(serialize.bind({ statement: s.name, values: params }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()),
            {},
          );
          return (lib.parse.parseResults(messages, pglite.parsers)[0]?.rows ?? []) as R[];
        }),
      );
    },
  };
}

/** What `pgliteSql` uses of a PGlite instance (its exclusive locks are how `query` itself waits its turn). */
export interface PGliteDriver {
  serializers: Record<number | string, (value: unknown) => string>;
  parsers: Record<number | string, unknown>;
  execProtocol(message: Uint8Array, options: { syncToFs?: boolean }): Promise<{ messages: unknown[] }>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

/** The wire-protocol helpers of `@electric-sql/pglite`, passed in so that PostgreSQL processes never load PGlite. */
export interface PGliteLibrary {
  protocol: {
    serialize: {
      parse(opts: { name?: string; text: string }): Uint8Array;
      describe(opts: { type: 'S' | 'P'; name?: string }): Uint8Array;
      bind(opts: { statement?: string; values?: Array<string | null> }): Uint8Array;
      execute(opts: object): Uint8Array;
      sync(): Uint8Array;
    };
  };
  parse: {
    parseDescribeStatementResults(messages: unknown[]): number[];
    parseResults(messages: unknown[], parsers: Record<number | string, unknown>): Array<{ rows: unknown[] }>;
  };
}

/**
 * Numbers the parameters of a statement being composed: `add(value)` answers its placeholder (`$3`).
 * Composing the same shape again gives the same text, so a composed statement can be prepared too.
 */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
