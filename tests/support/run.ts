/**
 * One test run's name for what it makes outside its processes: PostgreSQL databases `lm_test_<run>_…`,
 * Redis keys under `lmtest:<run>:`, PGlite folders `loanmatch-pglite-<run>…` in memory-backed storage.
 * Jest's global set-up names the run (TEST_RUN_ID, which every worker inherits); its teardown removes
 * whatever of the run is left, which is what a test that failed half-way or was killed did not remove.
 * Outside jest (the bench) each process is a run of its own.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';

export const RUN_ID = process.env.TEST_RUN_ID ?? randomBytes(4).toString('hex');

export const PG_SERVER_URL = process.env.TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Where PGlite folders are made: memory-backed storage where the machine has it. */
export const PGLITE_BASE = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

export const databaseName = () => `lm_test_${RUN_ID}_${randomBytes(6).toString('hex')}`;
export const redisPrefix = () => `lmtest:${RUN_ID}:${randomBytes(6).toString('hex')}:`;
export const pgliteFolderName = (suffix = '') => `loanmatch-pglite-${RUN_ID}${suffix}`;
