/**
 * Starts the real service as a child process, the way `pnpm start` does, and talks to it over HTTP.
 * What a test file makes here (processes, data folders, PostgreSQL databases, Redis key prefixes) is
 * killed, removed or dropped after its last test, by the hook this module registers when the file
 * imports it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createPgDatabase, openTestRedis, startWebhookReceiver, type WebhookReceiver } from '../support';

export const ROOT = resolve(__dirname, '../..');
/** Node's flags that run TypeScript, with the workspace's packages resolved to their sources (docs/adr/0184). */
const FROM_SOURCE = ['--import', 'tsx', '--conditions=@loanmatch/source'];

export interface Started {
  child: ChildProcess;
  output: () => string;
  urls: Record<string, string>;
  demoApiKey?: string;
  adminToken?: string;
  /** Sends a signal and answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const children = new Set<ChildProcess>();
const folders: string[] = [];
const databases: Array<{ drop(): Promise<void> }> = [];
const redisPrefixes: Array<{ close(): Promise<void> }> = [];

afterAll(async () => {
  const running = [...children].filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map((child) => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      return exited;
    }),
  );
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  await Promise.all([...databases.splice(0).map((db) => db.drop()), ...redisPrefixes.splice(0).map((r) => r.close())]);
});

/** An empty folder for a process's DATA_DIR. */
export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loanmatch-e2e-'));
  folders.push(dir);
  return dir;
}

/** A Redis key prefix no other run uses, for processes' REDIS_PREFIX. */
export async function tempRedisPrefix(): Promise<string> {
  const redis = await openTestRedis();
  redisPrefixes.push(redis);
  return redis.prefix;
}

/** An empty database on the PostgreSQL server, for processes' DATABASE_URL: each migrates it on start. */
export async function tempDatabaseUrl(): Promise<string> {
  const db = await createPgDatabase();
  databases.push(db);
  return db.url;
}

/** `compiled`: the build's `apps/server/dist/main.js`, as `pnpm start` runs it (built by the caller); by default the source through tsx. */
export async function startServer(
  options: { mode?: string; env?: Record<string, string>; compiled?: boolean } = {},
): Promise<Started> {
  const entry = options.compiled ? ['apps/server/dist/main.js'] : [...FROM_SOURCE, 'apps/server/src/main.ts'];
  const child = spawn(process.execPath, [...entry, options.mode ?? 'all'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT_A: '0',
      PORT_B: '0',
      PORT_ADMIN: '0',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  await new Promise<void>((resolveReady, reject) => {
    // A start that times out must not leave its server running behind the failed test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 40 s:\n${out}`));
    }, 40_000);
    const check = () => {
      if (/is running[\s\S]*\n\n/.test(out)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout!.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before starting:\n${out}`));
    });
  });

  const urls: Record<string, string> = {};
  for (const m of out.matchAll(/^ {2}(Variant A|Variant B|Admin API)\s+(http\S+)/gm)) urls[m[1]] = m[2];
  return {
    child,
    output: () => out,
    urls,
    demoApiKey: /API key, shown this once:\n\s+(\S+)/.exec(out)?.[1],
    adminToken: /Admin token, shown this once[^\n]*\n\s+(\S+)/.exec(out)?.[1],
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

/** A started server on a database and data folder of its own, beside a webhook receiver it delivers to
 * (polled every 100 ms); both are set before the file's first test and stopped after its last. */
export function serverWithReceiver(): { server: Started; receiver: WebhookReceiver; dataDir: string } {
  const started = {} as { server: Started; receiver: WebhookReceiver; dataDir: string };
  beforeAll(async () => {
    started.receiver = await startWebhookReceiver();
    started.dataDir = tempDataDir();
    started.server = await startServer({
      env: { DATA_DIR: started.dataDir, DATABASE_URL: await tempDatabaseUrl(), WEBHOOK_POLL_MS: '100' },
    });
  });
  afterAll(async () => {
    await started.server?.stop();
    await started.receiver?.close();
  });
  return started;
}

/** Runs a command of the repository (e.g. `pnpm ops …`) to completion. */
export function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [...FROM_SOURCE, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolveRun({ code, out, err }));
  });
}

export async function api(
  base: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}),
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

/**
 * The secrets every process of one deployment must share (README, "Several processes"), made fresh:
 * the admin token, and the keys of access tokens, tracking links, webhook secrets, personal data and
 * the applicant hashes of lead ownership.
 */
export function clusterSecrets(): {
  ADMIN_TOKEN: string;
  JWT_SECRET: string;
  TRACKING_SECRET: string;
  WEBHOOK_SEALING_SECRET: string;
  DATA_KEY: string;
  APPLICANT_HASH_SECRET: string;
} {
  const hex = () => randomBytes(32).toString('hex');
  return {
    ADMIN_TOKEN: `lm_admin_${randomBytes(24).toString('base64url')}`,
    JWT_SECRET: hex(),
    TRACKING_SECRET: hex(),
    WEBHOOK_SEALING_SECRET: hex(),
    DATA_KEY: hex(),
    APPLICANT_HASH_SECRET: hex(),
  };
}
