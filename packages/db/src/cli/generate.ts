/**
 * Generates the Prisma client without the native schema engine.
 *
 * `prisma generate` never runs the schema engine, but the CLI insists on finding one first and tries
 * to download it when none is present. Where that download host is out of reach we point the CLI at a
 * stub that refuses to run, so generation completes and any accidental engine use fails loudly.
 * Migrations go through the WebAssembly engine instead (see ../migrate.ts).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

const root = resolve(__dirname, '../../../..');
const schema = join(root, 'prisma/schema.prisma');

function stubEngine(): string {
  const dir = join(tmpdir(), 'loanmatch-prisma-stub');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'schema-engine');
  if (!existsSync(path)) {
    writeFileSync(path, '#!/bin/sh\necho "schema engine not available offline; use pnpm db:migrate" >&2\nexit 1\n');
    chmodSync(path, 0o755);
  }
  return path;
}

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= stubEngine();
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.CHECKPOINT_DISABLE = '1';

execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate', '--schema', schema], {
  cwd: join(root, 'packages/db'),
  env,
  stdio: 'inherit',
});
