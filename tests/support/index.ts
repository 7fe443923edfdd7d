/**
 * Test support shared by every suite: real databases (a database of its own on the machine's PostgreSQL
 * server, or PGlite in memory-backed storage), a domain context over them, and valid application data.
 * The fuzzers' generators and checks are in `./fuzz`, imported from there: building them costs about a
 * second, which the suites that do not fuzz do not pay.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { openDatabase, type Database } from '@loanmatch/db';
import {
  TRACKING_LINK_LIFETIME_MS,
  createCatalogueSource,
  createInstanceRegistry,
  createApplicantHasher,
  createPersonalDataBox,
  createSandboxBureau,
  matching,
  seedCatalogue,
  type CreditBureau,
  type DomainContext,
  type Environment,
} from '@loanmatch/domain';
import { createLogger, createWebhookServices, type LookupAll } from '@loanmatch/http';
import { openPgliteCopy } from './pglite-copies';
import { PG_SERVER_URL, REDIS_URL, databaseName, redisPrefix } from './run';

export { PG_SERVER_URL, REDIS_URL };

export type StorageKind = 'pglite' | 'postgresql';

/**
 * The storages the database suites run on: PostgreSQL, unless TEST_STORAGES names others
 * (`TEST_STORAGES=pglite`, or `pglite,postgresql` for both). The embedded database has a smoke suite of
 * its own (tests/embedded) in every run: the same engine, compiled to WebAssembly, several times slower
 * to open and to run.
 */
export const STORAGES: StorageKind[] = (process.env.TEST_STORAGES?.split(',') as StorageKind[] | undefined) ?? [
  'postgresql',
];
/** The storage for a suite that runs once: PostgreSQL when this run has it. */
export const ONE_STORAGE: StorageKind = STORAGES.includes('postgresql') ? 'postgresql' : STORAGES[0];

export const silentLogger = createLogger({ level: 'silent', service: 'test' });

export interface TestDatabase {
  db: Database;
  /** For PostgreSQL: the URL of this test's own database, so a started process can share it. */
  url?: string;
  close(): Promise<void>;
}

/** A migrated, empty database of its own: PGlite (pglite-copies.ts), or a new database on the PostgreSQL server. */
export async function openTestDatabase(kind: StorageKind): Promise<TestDatabase> {
  if (kind === 'pglite') return openPgliteCopy();
  const created = await createPgDatabase();
  const db = await openDatabase({ url: created.url, poolSize: 12 });
  await db.migrate();
  return {
    db,
    url: created.url,
    async close() {
      await db.close();
      await created.drop();
    },
  };
}

/** A fresh database on the PostgreSQL server, not migrated, for started processes to share. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = databaseName();
  await adminQuery(`CREATE DATABASE ${name}`);
  return { url: `${PG_SERVER_URL}/${name}`, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: `${PG_SERVER_URL}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestContext {
  ctx: DomainContext;
  db: Database;
  close(): Promise<void>;
}

/** The repository's lender catalogue document, as `pnpm start` seeds it. */
export function defaultCatalogueDocument(): unknown {
  return JSON.parse(readFileSync(matching.CATALOGUE_PATH, 'utf8'));
}

export const TEST_PUBLIC_BASE_URL = 'http://127.0.0.1:3000';

export async function createTestContext(
  kind: StorageKind,
  options: {
    env?: Environment;
    bureau?: CreditBureau;
    clock?: () => Date;
    lookup?: LookupAll;
    notify?: () => void;
    /** Data keys sealing applicant details, newest first; default one random key. */
    dataKeys?: Buffer[];
  } = {},
): Promise<TestContext & { url?: string }> {
  const test = await openTestDatabase(kind);
  const registry = createInstanceRegistry({ db: test.db, embedded: kind === 'pglite' });
  await registry.start();
  const clock = options.clock ?? (() => new Date());
  const seeded = await seedCatalogue({ db: test.db, clock }, { document: defaultCatalogueDocument() });
  if (!seeded.ok) throw seeded.error;
  const ctx: DomainContext = {
    db: test.db,
    env: options.env ?? 'sandbox',
    clock,
    instance: registry,
    bureau: options.bureau ?? createSandboxBureau(),
    catalogue: createCatalogueSource(test.db),
    tracking: { secret: randomBytes(32), publicBaseUrl: TEST_PUBLIC_BASE_URL, lifetimeMs: TRACKING_LINK_LIFETIME_MS },
    webhooks: createWebhookServices({
      env: options.env ?? 'sandbox',
      sealingSecrets: [randomBytes(32).toString('base64url')],
      lookup: options.lookup,
      notify: options.notify,
    }),
    personalData: createPersonalDataBox(options.dataKeys ?? [randomBytes(32)]),
    applicantHashes: createApplicantHasher(randomBytes(32)),
  };
  return {
    ctx,
    db: test.db,
    url: test.url,
    async close() {
      await registry.stop();
      await test.close();
    },
  };
}

/** A Redis client and a key prefix no other run uses; `close` removes the prefix's keys. */
export async function openTestRedis(): Promise<{ redis: Redis; prefix: string; close(): Promise<void> }> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const prefix = redisPrefix();
  return {
    redis,
    prefix,
    async close() {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    },
  };
}

export * from './eventually';
export * from './fixtures';
export * from './rows';
export * from './webhook-receiver';
export * from './domain-flows';
