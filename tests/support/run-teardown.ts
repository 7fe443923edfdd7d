/**
 * Jest's global teardown: removes what is left of this run (tests/support/run.ts). Each test removes
 * what it made; this is for the ones that could not. A server that is down was not used by the run.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { PGLITE_BASE, PG_SERVER_URL, REDIS_URL, RUN_ID, pgliteFolderName } from './run';

export default async function tearDownRun(): Promise<void> {
  for (const name of readdirSync(PGLITE_BASE))
    if (name.startsWith(pgliteFolderName())) rmSync(join(PGLITE_BASE, name), { recursive: true, force: true });
  await Promise.all([dropDatabases(), deleteKeys()]);
}

async function dropDatabases(): Promise<void> {
  const client = new Client({ connectionString: `${PG_SERVER_URL}/postgres` });
  try {
    await client.connect();
  } catch {
    return;
  }
  try {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [`lm_test_${RUN_ID}_`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

async function deleteKeys(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  try {
    await redis.connect();
  } catch {
    redis.disconnect();
    return;
  }
  try {
    const keys = await redis.keys(`lmtest:${RUN_ID}:*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}
