/**
 * Test support shared by every suite: real databases (PGlite in memory-backed storage, and a database of
 * its own on the machine's PostgreSQL server), a domain context over them, and valid application data.
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

export type StorageKind = 'pglite' | 'postgresql';

export const PG_SERVER_URL = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Both storages unless TEST_STORAGES narrows them (e.g. `TEST_STORAGES=pglite`). */
export const STORAGES: StorageKind[] = (process.env.TEST_STORAGES?.split(',') as StorageKind[] | undefined) ?? [
  'pglite',
  'postgresql',
];
/** The storage for a suite that runs once: PostgreSQL when this run has it (a database starts in about a second; PGlite is the same engine). */
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
  const name = `lm_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = `${PG_SERVER_URL}/${name}`;
  const db = await openDatabase({ url, poolSize: 12 });
  await db.migrate();
  return {
    db,
    url,
    async close() {
      await db.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A fresh database on the PostgreSQL server, not migrated, for started processes to share. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lm_test_${randomBytes(6).toString('hex')}`;
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
  const prefix = `lmtest:${randomBytes(6).toString('hex')}:`;
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

export * from './fixtures';
export * from './rows';
export * from './webhook-receiver';
export * from './fuzz';
export * from './domain-flows';
