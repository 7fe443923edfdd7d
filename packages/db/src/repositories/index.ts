/**
 * The repositories bound to one database: what the domain is given instead of a database client. Every
 * repository function takes the database (or an open transaction) as its first parameter; here that
 * parameter is bound once, for the database and for each transaction.
 */
import type { Database, Sql } from '../connect';
import type { TransactionClient } from '../generated/internal/prismaNamespace';
import { prismaRows } from '../sql';
import * as catalogue from './catalogue';
import * as instances from './instances';
import * as lenderKeys from './lender-keys';
import * as matches from './matches';
import * as outcomes from './outcomes';
import * as partners from './partners';
import * as reports from './reports';
import * as tiers from './tiers';
import * as webhooks from './webhooks';
import type { Db } from './types';

const MODULES = {
  partners,
  instances,
  tiers,
  catalogue,
  matches,
  webhooks,
  lenderKeys,
  outcomes,
  reports,
};

type Modules = typeof MODULES;

/** A repository module's functions, without their first parameter (the database it is bound to). */
type Bound<M> = {
  readonly [K in keyof M]: M[K] extends (db: Db, ...args: infer A) => infer R ? (...args: A) => R : never;
};

export type Repositories = { readonly [N in keyof Modules]: Bound<Modules[N]> } & Sql & {
    /**
     * Runs `work` in one transaction, with the repositories bound to it, and answers what it answers;
     * anything it throws rolls the transaction back. Inside a transaction already, `work` runs in that one.
     */
    transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  };

export function createRepositories(database: Pick<Database, 'prisma' | 'rows' | 'query'>): Repositories {
  return bind(databaseHandle(database));
}

/** The database as repository functions take it, outside any transaction. */
export function databaseHandle(database: Pick<Database, 'prisma' | 'rows' | 'query'>): Db {
  const { prisma, rows, query } = database;
  return {
    prisma,
    rows,
    query,
    transaction: (work, options) =>
      prisma.$transaction(
        (tx) => work(transactionHandle(tx)),
        options?.timeoutMs ? { timeout: options.timeoutMs } : undefined,
      ),
  };
}

/** An open transaction: Prisma's calls and the statements of sql.ts both run on its connection. */
function transactionHandle(tx: TransactionClient): Db {
  const rows = prismaRows(tx);
  const handle: Db = {
    prisma: tx,
    rows,
    query: <R>(text: string, values: readonly unknown[] = []) =>
      rows<R>(
        { name: '', text },
        values.map((v) => (v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v)),
      ),
    transaction: (work) => work(handle),
  };
  return handle;
}

/** Each module's functions, listed once: a transaction binds them without walking the modules again. */
const FUNCTIONS = Object.entries(MODULES).map(
  ([name, module]) =>
    [
      name,
      Object.entries(module).filter((entry): entry is [string, AnyFunction] => typeof entry[1] === 'function'),
    ] as const,
);

type AnyFunction = (db: Db, ...args: never[]) => unknown;

function bind(db: Db): Repositories {
  const repositories: Record<string, unknown> = {};
  for (const [name, functions] of FUNCTIONS) {
    const bound: Record<string, unknown> = {};
    for (const [key, fn] of functions) bound[key] = fn.bind(undefined, db);
    repositories[name] = bound;
  }
  repositories.transaction = <T>(work: (tx: Repositories) => Promise<T>) => db.transaction((tx) => work(bind(tx)));
  repositories.query = db.query;
  return repositories as unknown as Repositories;
}
