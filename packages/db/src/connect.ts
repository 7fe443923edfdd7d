/**
 * Opens the database: embedded PGlite in a folder by default, a PostgreSQL server when a URL is given.
 * Only this package and its repositories touch the Prisma client.
 */
import { mkdirSync } from 'node:fs';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client';
import { applyMigrations } from './migrate';

export type Prisma = PrismaClient;

export interface DatabaseOptions {
  /** `postgresql://…`; when absent, embedded PGlite is used. */
  url?: string;
  /** PGlite data folder; `memory://` (or absent) keeps it in memory, for tests. */
  dataDir?: string;
  /** Pool size for a PostgreSQL server. */
  poolSize?: number;
  /** Time to wait for a pooled connection before failing, in ms. */
  connectionTimeoutMs?: number;
}

export interface Database {
  readonly kind: 'pglite' | 'postgresql';
  readonly prisma: PrismaClient;
  migrate(): Promise<string[]>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options);
  return openPglite(options.dataDir);
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const factory = new PrismaPg({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 2000,
  });
  return wrap('postgresql', factory, async () => {});
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const inMemory = !dataDir || dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const pglite = inMemory ? new PGlite() : new PGlite(dataDir);
  await pglite.waitReady;
  return wrap('pglite', new PrismaPGlite(pglite), () => pglite.close());
}

function wrap(kind: Database['kind'], factory: SqlMigrationAwareDriverAdapterFactory, closeDriver: () => Promise<void>): Database {
  const prisma = new PrismaClient({ adapter: factory });
  return {
    kind,
    prisma,
    migrate: () => applyMigrations(factory),
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
