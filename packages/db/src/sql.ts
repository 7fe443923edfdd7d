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
  /** Runs a read gathered with the others asked for in the same turn of the event loop (`batchedRows`). */
  batched?<R>(read: BatchedRead, values: readonly unknown[]): Promise<R[]>;
  /** Runs `work` as one transaction on one connection (`transaction` below); absent where Prisma's is used. */
  transaction?<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

export const statement = (name: string, text: string): Statement => ({ name: `lm_${name}`, text });

/**
 * A read that many requests make at once, each for its own key: `one` reads one key; `many` takes, for
 * each of `one`'s parameters, an array of every read's value (`$1::uuid[]` for `$1::uuid`), and answers
 * each row with `batch_index`, the 1-based position of the read it belongs to (`unnest(...) WITH
 * ORDINALITY`).
 */
export interface BatchedRead {
  readonly one: Statement;
  readonly many: Statement;
}

export const batchedRead = (name: string, one: string, many: string): BatchedRead => ({
  one: statement(name, one),
  many: statement(`${name}_many`, many),
});

/** At most this many reads go in one statement; more wait for the next. */
export const BATCH_LIMIT = 64;

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
 * Answers what `read.one` answers for `values`. Outside a transaction the read waits for the end of the
 * current turn of the event loop (`setImmediate`), and every read of the same kind asked for meanwhile
 * goes with it in one statement: under load, the requests whose rate-limit answers arrived together
 * read their rows with one round trip instead of one each (docs/decisions.md, "Issue 7, fourth
 * session"). Each read still starts after its request arrived, so what it answers is as fresh as a read
 * of its own. Inside a transaction it is `read.one` on the transaction's connection, at once.
 */
export function batchedRows<R>(db: Queryable, read: BatchedRead, values: readonly unknown[]): Promise<R[]> {
  const sql = sqlOf(db);
  return sql.batched ? sql.batched<R>(read, values) : sql.rows<R>(read.one, values);
}

interface PendingRead {
  values: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(err: unknown): void;
}

/** SQLSTATE class 22, data exception: a value the statement could not take (not the server's state). */
const isDataException = (err: unknown): boolean => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('22');

/** `Sql.batched` over a driver's `rows`: gathers reads until `setImmediate`, then sends each kind's. */
export function batching(rows: Sql['rows']): NonNullable<Sql['batched']> {
  const pending = new Map<BatchedRead, PendingRead[]>();
  let scheduled = false;

  const one = (read: BatchedRead, call: PendingRead) => rows(read.one, call.values).then(call.resolve, call.reject);

  async function send(read: BatchedRead, calls: PendingRead[]): Promise<void> {
    if (calls.length === 1) return one(read, calls[0]!);
    // `many`'s parameters: for each of `one`'s, the array of every read's value, in the reads' order.
    const columns = calls[0]!.values.map((_, j) => calls.map((call) => call.values[j]));
    let answered: Array<Record<string, unknown>>;
    try {
      answered = await rows<Record<string, unknown>>(read.many, columns);
    } catch (err) {
      // One read's value may be what the statement refused: each read then runs alone, and only its own
      // caller hears of it. Anything else (a timeout, a lost server) is every read's failure.
      if (isDataException(err)) {
        await Promise.all(calls.map((call) => one(read, call)));
        return;
      }
      for (const call of calls) call.reject(err);
      return;
    }
    const byRead: unknown[][] = calls.map(() => []);
    for (const row of answered) {
      const { batch_index: index, ...rest } = row;
      byRead[Number(index) - 1]?.push(rest);
    }
    calls.forEach((call, i) => call.resolve(byRead[i]!));
  }

  function flush(): void {
    scheduled = false;
    for (const [read, calls] of pending) {
      pending.delete(read);
      for (let start = 0; start < calls.length; start += BATCH_LIMIT) void send(read, calls.slice(start, start + BATCH_LIMIT));
    }
  }

  return <R>(read: BatchedRead, values: readonly unknown[]) =>
    new Promise<R[]>((resolve, reject) => {
      let calls = pending.get(read);
      if (!calls) pending.set(read, (calls = []));
      calls.push({ values, resolve: resolve as (rows: unknown[]) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
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

/**
 * PostgreSQL: transactions on the pool Prisma's adapter uses too; statements that stand alone on
 * `single`, the pipelined connections (pipeline.ts), or the pool when there are none.
 */
export function poolSql(pool: PgPool, single: PgQueryable = pool): Sql {
  const on = (q: PgQueryable) => async <R>(s: Statement, values: readonly unknown[]) =>
    (await q.query({ name: s.name, text: s.text, values: values as unknown[] })).rows as R[];
  return {
    rows: on(single),
    batched: batching(on(single)),
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
  function rows<R>(s: Statement, values: readonly unknown[]): Promise<R[]> {
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
  }
  return { rows, batched: batching(rows) };
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
