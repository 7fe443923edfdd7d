/**
 * Raw SQL for the repositories, where one statement must do the work (data-modifying CTEs) or a read is
 * better written by hand. A statement has a fixed name and text and takes its values as parameters: on
 * PostgreSQL, outside a transaction, it goes through the process's pool as a named statement (pg's
 * `pool.query({ name, text, values })`), so each connection parses and plans it once; inside a transaction
 * it runs on the transaction's connection through Prisma.
 */
import type { PrismaClient } from './generated/client';
import type { TransactionClient } from './generated/internal/prismaNamespace';

export interface Statement {
  /** Unique per text: pg refuses a name prepared on a connection with another text. */
  readonly name: string;
  readonly text: string;
}

/** Runs one statement and answers its rows. */
export type Rows = <R>(statement: Statement, values: readonly unknown[]) => Promise<R[]>;

/** Every statement made so far, by name: one text per name. */
const statements = new Map<string, Statement>();

export function statement(name: string, text: string): Statement {
  const full = `lm_${name}`;
  const known = statements.get(full);
  if (known && known.text !== text) throw new Error(`statement ${full} was made with another text`);
  if (known) return known;
  const made = { name: full, text };
  statements.set(full, made);
  return made;
}

/**
 * A statement composed for a shape of its call (which optional parts it has): composed once, by name, so
 * the same shape always has the same text and is prepared once.
 */
export function shaped(name: string, compose: () => string): Statement {
  return statements.get(`lm_${name}`) ?? statement(name, compose());
}

/** The statements made so far (those composed by shape once they were first used): for the tests of their plans. */
export function namedStatements(): Statement[] {
  return [...statements.values()];
}

/** PostgreSQL, outside a transaction: a named statement on a connection of the pool. */
export function poolRows(pool: {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}): Rows {
  return async <R>(s: Statement, values: readonly unknown[]) =>
    (await pool.query({ name: s.name, text: s.text, values: values as unknown[] })).rows as R[];
}

/** PGlite, outside a transaction: its `query`, which waits for any transaction Prisma holds on the one connection. */
export function pgliteRows(pglite: { query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }> }): Rows {
  return async <R>(s: Statement, values: readonly unknown[]) =>
    (await pglite.query<R>(s.text, values as unknown[])).rows;
}

/**
 * Inside a Prisma transaction (either storage): the transaction's own connection. Times are sent as ISO
 * text with their zone, since Prisma sends a `Date` as a UTC time without one, which `::timestamptz`
 * would read in the session's time zone.
 */
export function prismaRows(tx: PrismaClient | TransactionClient): Rows {
  return <R>(s: Statement, values: readonly unknown[]) =>
    tx.$queryRawUnsafe<R[]>(s.text, ...values.map((v) => (v instanceof Date ? v.toISOString() : v)));
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
