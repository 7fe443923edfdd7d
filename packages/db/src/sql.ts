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

/** PostgreSQL: the pool Prisma's adapter uses too. */
export function poolSql(pool: { query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> }): Sql {
  return {
    async rows<R>(s: Statement, values: readonly unknown[]) {
      return (await pool.query({ name: s.name, text: s.text, values: values as unknown[] })).rows as R[];
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
