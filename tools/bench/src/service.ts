/**
 * The service under measurement, in its production configuration: a PostgreSQL database of its own
 * (127.0.0.1:5432), a Redis key prefix of its own, migrations applied as `pnpm db:migrate` applies them,
 * then the compiled server started as `pnpm start` starts it, on the bench's own Node. A partner of its
 * own with every limit raised, so that no limit is what gets measured. `stop` removes all of it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { call } from './client';
import { migrate, serviceArgv, startNode, type Child } from './processes';

export const PG_SERVER_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TIERS = ['free', 'standard', 'enterprise'];

export interface Service {
  process: Child;
  /** Base URLs as the server printed them (Variant A and the admin API include their base path). */
  A: string;
  B: string;
  admin: string;
  adminToken: string;
  apiKey: string;
  partnerId: string;
  databaseUrl: string;
  /** Its Redis keys' prefix: every key under it is removed with the service. */
  redisPrefix: string;
  /** DATA_KEY, which seals applicant details: the fill seals with it too. */
  dataKey: Buffer;
  stop(): Promise<void>;
}

const active = new Set<() => Promise<void>>();

/** Stops every service started and removes what each made (after a failure, or when the watchdog fires). */
export async function stopAllServices(): Promise<void> {
  for (const stop of [...active].reverse()) await stop();
  active.clear();
}

/** `nodeArgs`: node options for the server (say `--cpu-prof`), before its script. */
export async function startService(label: string, nodeArgs: string[] = []): Promise<Service> {
  const runId = `${label}_${randomBytes(4).toString('hex')}`;
  const dbName = `lm_bench_${runId}`;
  const redisPrefix = `lmbench:${runId}:`;
  const dataDir = mkdtempSync(join(tmpdir(), 'loanmatch-bench-'));
  const databaseUrl = `${PG_SERVER_URL}/${dbName}`;
  const dataKey = randomBytes(32);
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(dataDir, { recursive: true, force: true })];
  const stop = async () => {
    for (const c of cleanups.splice(0).reverse())
      await c().catch((err) => process.stderr.write(`bench: cleanup: ${String(err)}\n`));
  };
  active.add(stop);
  try {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
    cleanups.push(() => deleteRedisKeys(redisPrefix));
    await migrate(databaseUrl);
    const env: Record<string, string> = {
      PORT_A: '0',
      PORT_B: '0',
      PORT_ADMIN: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      LOANMATCH_ENV: 'sandbox',
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      DATA_KEY: dataKey.toString('hex'),
      ADMIN_TOKEN: `lm_admin_${randomBytes(24).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      TRACKING_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_A_PER_MINUTE: '100000000',
    };
    const server = await startNode([...nodeArgs, ...serviceArgv()], env, /is running[\s\S]*\n\n/);
    cleanups.push(() => server.stop());
    const urls: Record<string, string> = {};
    for (const m of server.output().matchAll(/^ {2}(Variant A|Variant B|Admin API)\s+(http\S+)/gm)) urls[m[1]] = m[2];
    const partner = await call(urls['Admin API'], 'POST', '/partners', {
      auth: env.ADMIN_TOKEN,
      body: { name: 'Bench Partner', tier: 'enterprise' },
    });
    for (const tier of TIERS)
      await call(urls['Admin API'], 'PUT', `/tiers/${tier}`, {
        auth: env.ADMIN_TOKEN,
        body: { requestsPerHour: 10_000_000 },
      });
    return {
      process: server,
      A: urls['Variant A'],
      B: urls['Variant B'],
      admin: urls['Admin API'],
      adminToken: env.ADMIN_TOKEN,
      apiKey: String(partner.apiKey),
      partnerId: String(partner.partnerId),
      databaseUrl,
      redisPrefix,
      dataKey,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Runs `work` with a client of the service's database. */
export async function withDatabase<T>(databaseUrl: string, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

const adminQuery = (sql: string) => withDatabase(`${PG_SERVER_URL}/postgres`, async (db) => void (await db.query(sql)));

async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
