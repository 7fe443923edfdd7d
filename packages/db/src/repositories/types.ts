import type { PrismaClient } from '../generated/client';
import type { TransactionClient } from '../generated/internal/prismaNamespace';
import type { Sql } from '../connect';
import type { Rows } from '../sql';

/**
 * What a repository function is given: the database, or an open transaction on it. Prisma's model API
 * and the statements of `sql.ts` go through the same one, so a call joins the transaction it is made in.
 */
export interface Db extends Sql {
  /** Prisma's client, or the handle of the open transaction. */
  readonly prisma: PrismaClient | TransactionClient;
  /** Runs one statement of `sql.ts` and answers its rows. */
  readonly rows: Rows;
  /**
   * Runs `work` in one transaction and answers what it answers; anything it throws rolls it back. Inside
   * a transaction already, `work` runs in that one.
   */
  transaction<T>(work: (tx: Db) => Promise<T>, options?: { timeoutMs?: number }): Promise<T>;
}

export type Json = Record<string, unknown>;

/** True for PostgreSQL's unique-violation, as Prisma reports it. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'P2002';
}
