/**
 * `pnpm bench`: throughput and latency of the service's busiest calls, each measured with autocannon
 * on loopback against the real server started as a child process, next to an Express hello-world
 * loaded the same way in the same run; then the match timings of the matching engine. The goals are
 * ratios to that hello-world (`app.listen`); the ratios to a second one, its server made with the
 * service's `appServer`, are shown beside them (tools/bench/src/hello.ts).
 *
 *   pnpm bench                       production configuration: PostgreSQL (127.0.0.1:5432) + Redis
 *   pnpm bench -- --embedded         the embedded default (PGlite in a temporary DATA_DIR, no Redis)
 *   options: --duration 10  --warmup 3  --connections 32  --only get,create  --pool-size N (DB_POOL_SIZE)
 *            --pipeline N (DB_PIPELINE_CONNECTIONS; 0: every statement through the pool)
 *            --cpu-prof DIR (profile the server)  --memory (fill to 100,000 applications, then read RSS)
 *            --no-match-bench  --out results.json
 *            --statements (instead of the load: the SQL statements and Redis commands of one request of each call)
 *            --from-source (server and hello-world through tsx, as the tests run them; default: compiled, as `pnpm start`)
 *            --paired (the hello-world measured again just before each call, and each call's ratio taken to that
 *            measurement: steadier ratios on a machine whose load changes during the run; takes twice as long)
 *            --instructions (server and hello-world under valgrind's callgrind: the instructions each spends a request,
 *            which move much less with the machine's speed than CPU time does; about 50 times slower, so give
 *            --connections 4 --warmup 40 --duration 30: V8 must finish compiling before the count starts)
 *
 * It creates its own database and Redis key prefix and drops them at the end, and stops by itself:
 * every phase is bounded in time, and a watchdog ends the run if something hangs. A benchmark, not a test.
 */
import autocannon from 'autocannon';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { transform } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { VALID_STEPS, validApplicant } from '@loanmatch/testing';

const ROOT = resolve(__dirname, '../../..');
const PG_SERVER_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BASE_A = '/api/partner/v1';

interface Options {
  embedded: boolean;
  durationS: number;
  warmupS: number;
  connections: number;
  only?: Set<string>;
  poolSize?: number;
  pipelineConnections?: number;
  cpuProfDir?: string;
  memory: boolean;
  matchBench: boolean;
  /** Server and hello-world under callgrind, which counts the instructions of each measured call. */
  instructions?: boolean;
  out?: string;
  statements: boolean;
  fromSource: boolean;
  paired: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { embedded: false, durationS: 10, warmupS: 3, connections: 32, memory: false, matchBench: true, statements: false, fromSource: false, paired: false };
  const args = argv.filter((a) => a !== '--');
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--embedded') options.embedded = true;
    else if (arg === '--duration') options.durationS = Number(value());
    else if (arg === '--warmup') options.warmupS = Number(value());
    else if (arg === '--connections') options.connections = Number(value());
    else if (arg === '--only') options.only = new Set(value().split(','));
    else if (arg === '--pool-size') options.poolSize = Number(value());
    else if (arg === '--pipeline') options.pipelineConnections = Number(value());
    else if (arg === '--cpu-prof') options.cpuProfDir = resolve(value());
    else if (arg === '--memory') options.memory = true;
    else if (arg === '--no-match-bench') options.matchBench = false;
    else if (arg === '--out') options.out = resolve(value());
    else if (arg === '--statements') options.statements = true;
    else if (arg === '--from-source') options.fromSource = true;
    else if (arg === '--paired') options.paired = true;
    else if (arg === '--instructions') options.instructions = true;
    else throw new Error(`unknown option ${arg}`);
  }
  if (!(options.durationS > 0 && options.warmupS >= 0 && options.connections > 0)) throw new Error('--duration, --warmup and --connections must be positive');
  return options;
}

// ---------------------------------------------------------------------------------------------------
// Processes

interface Child {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

const children: Child[] = [];

/**
 * Starts `node <argv>` and waits until its output matches `ready`. `callgrindOut`: under valgrind's
 * callgrind, instrumentation off until `countInstructions` turns it on, dumps written to that folder.
 */
async function startChild(argv: string[], env: Record<string, string>, ready: RegExp, callgrindOut?: string): Promise<Child> {
  const script = argv.find((a) => /\.[jt]s$/.test(a) && !a.startsWith('-')) ?? argv.join(' ');
  const [command, args] = callgrindOut
    ? ['valgrind', ['--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${callgrindOut}/callgrind.%p`, process.execPath, ...argv]]
    : [process.execPath, argv];
  const readyWithinS = callgrindOut ? 600 : 60;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let started = false;
  // Until it is ready, keep what it prints (the banner); after that, read and drop (the access log).
  child.stdout!.on('data', (d: Buffer) => {
    if (!started) out += d;
  });
  child.stderr!.on('data', (d: Buffer) => {
    if (out.length < 100_000) out += d;
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within ${readyWithinS} s:\n${out}`)), readyWithinS * 1000);
    const check = () => {
      if (ready.test(out)) {
        started = true;
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before it was ready:\n${out}`));
    });
  });
  const handle: Child = {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
  children.push(handle);
  return handle;
}

/** Runs `node <argv>` to its end (a minute at most); its errors go to our stderr. */
function runToEnd(argv: string[], env: Record<string, string>, what: string): Promise<void> {
  return new Promise<void>((resolveRun, reject) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolveRun();
      else reject(new Error(`${what} exited with ${code}`));
    });
  });
}

/** The hello-world compiled as `pnpm build` compiles the server (esbuild, one file), beside the bench's own dependencies. */
async function compileHello(): Promise<string> {
  const { code } = await transform(readFileSync(join(ROOT, 'tools/bench/src/hello.ts'), 'utf8'), { loader: 'ts', format: 'cjs', platform: 'node', target: 'node20' });
  const file = join(ROOT, 'tools/bench/node_modules/.cache/hello.js');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, code);
  return file;
}

/** The resident size after the process has been idle for a minute (V8's memory reducer has run by then). */
async function settledResidentMb(pid: number | undefined): Promise<{ mb: number; afterS: number } | undefined> {
  await new Promise((r) => setTimeout(r, 60_000));
  const mb = residentMb(pid);
  return mb === undefined ? undefined : { mb, afterS: 60 };
}

function residentMb(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// HTTP helpers (set-up only; the measured load is autocannon's)

/** `--statements`: the request id of the request being counted, sent with it. */
let counted: string | undefined;
let censusSeq = 0;

async function call(base: string, method: string, path: string, options: { auth?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(counted ? { 'X-Request-Id': counted } : {}),
      ...(options.auth ? { Authorization: `Bearer ${options.auth}` } : {}),
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  const body = text ? (JSON.parse(text) as { data?: Record<string, unknown> }) : undefined;
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return body?.data ?? {};
}

/** Runs `work` over `items` with `concurrency` workers. */
async function inParallel<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------------
// Scenarios

interface Scenario {
  name: string;
  label: string;
  url: string;
  request: autocannon.Request;
  /** For calls that use something up (one fresh application per credit check): items left. */
  remaining?: () => number;
}

interface Measured {
  name: string;
  label: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  durationS: number;
  /** `--paired`: the hello-world's req/s measured just before this call, which its ratio is taken to. */
  helloRps?: number;
  /** CPU time per completed request, in µs, of the process that served it and of its PostgreSQL backends. */
  cpuUs?: { server: number; database?: number };
  /** `--instructions`: instructions the serving process executed per completed request (callgrind). */
  instructions?: number;
  note?: string;
}

/** Whose CPU time a measurement reads: the serving process, and the database backends it talks to. */
interface CpuProbe {
  server: number | undefined;
  database?: () => Promise<number[]>;
  /** `--instructions`: the folder of the server's callgrind dumps. */
  callgrindDir?: string;
}

/** Runs `callgrind_control <args> <pid>`. */
const callgrindControl = (args: string[], pid: number) =>
  new Promise<void>((resolveRun, reject) => execFile('callgrind_control', [...args, String(pid)], (err) => (err ? reject(err) : resolveRun())));

/**
 * The instructions process `pid` (under callgrind, instrumentation off) executes while `run` runs:
 * instrumentation on, `run`, off, then a dump (which also zeroes the counts), whose total is read.
 */
async function countInstructions<T>(pid: number, dir: string, run: () => Promise<T>): Promise<{ result: T; instructions: number }> {
  await callgrindControl(['-i', 'on'], pid);
  const result = await run();
  await callgrindControl(['-i', 'off'], pid);
  await callgrindControl(['-d'], pid);
  const prefix = `callgrind.${pid}.`;
  const last = readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)))
    .at(-1);
  // `summary:` near the top holds 0 for a dump asked for while running; `totals:` at the end holds the count.
  const total = last ? /^totals:\s+(\d+)/m.exec(readFileSync(join(dir, last), 'utf8')) : null;
  if (!total) throw new Error(`no callgrind dump of process ${pid} in ${dir}`);
  return { result, instructions: Number(total[1]) };
}

/** CPU time (user + system) of these processes so far, in µs; processes that are gone count nothing. */
function cpuUs(pids: Array<number | undefined>): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // After the command name, which may hold spaces: state is field 3, utime and stime fields 14 and 15.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone, or not Linux
    }
  }
  return (ticks * 1e6) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

function runAutocannon(options: autocannon.Options, remaining?: () => number): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    const instance = autocannon({ ...options, timeout: 10 }, (err: unknown, result: autocannon.Result) => (err ? reject(err) : resolveRun(result)));
    if (remaining) {
      // Out of fresh items: stop early rather than measure refusals.
      const watch = setInterval(() => {
        if (remaining() <= 0) instance.stop();
      }, 50);
      instance.on('done', () => clearInterval(watch));
    }
  });
}

async function measure(scenario: Scenario, options: Options, probe: CpuProbe): Promise<Measured> {
  const base = { url: scenario.url, connections: options.connections, requests: [scenario.request] };
  if (options.warmupS > 0) await runAutocannon({ ...base, duration: options.warmupS }, scenario.remaining);
  const dbPids = (await probe.database?.()) ?? [];
  const cpuBefore = { server: cpuUs([probe.server]), database: dbPids.map((pid) => cpuUs([pid])) };
  const load = () => runAutocannon({ ...base, duration: options.durationS }, scenario.remaining);
  const counted = probe.callgrindDir && probe.server !== undefined ? await countInstructions(probe.server, probe.callgrindDir, load) : undefined;
  const result = counted ? counted.result : await load();
  const served = Math.max(result['2xx'], 1);
  // A backend that ended meanwhile (the pool closes idle connections) counts nothing, rather than minus its past.
  const dbDelta = dbPids.reduce((sum, pid, i) => {
    const now = cpuUs([pid]);
    return now > 0 ? sum + now - cpuBefore.database[i] : sum;
  }, 0);
  const cpu = { server: (cpuUs([probe.server]) - cpuBefore.server) / served, database: probe.database ? dbDelta / served : undefined };
  const measured: Measured = {
    name: scenario.name,
    label: scenario.label,
    // Answered 2xx over the measured time: the per-second average counts a stopped run's last second, and
    // a refusal (a check of an application already checked, once the prepared ones ran out) is no work done.
    rps: result['2xx'] / Math.max(result.duration, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationS: result.duration,
    cpuUs: cpu,
    instructions: counted && counted.instructions / served,
  };
  if (scenario.remaining && scenario.remaining() <= 0) measured.note = `ran out of prepared applications after ${result.duration.toFixed(1)} s`;
  return measured;
}

const json = (value: unknown) => JSON.stringify(value);
let keySeq = 0;
const runId = randomBytes(4).toString('hex');
const newKey = (what: string) => `bench-${runId}-${what}-${++keySeq}`;

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const mode = options.embedded ? 'embedded default (PGlite, in-memory limits)' : 'production configuration (PostgreSQL + Redis)';
  const scenarioCount = 10;
  const budgetMs = (scenarioCount * (options.durationS + options.warmupS) + (options.memory ? 600 : 0) + (options.instructions ? 1800 : 0) + 420) * 1000;
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: still running after ${Math.round(budgetMs / 1000)} s; stopping\n`);
    void cleanup().finally(() => process.exit(2));
  }, budgetMs);
  watchdog.unref();

  const dataDir = mkdtempSync(join(tmpdir(), 'loanmatch-bench-'));
  const dbName = `lm_bench_${runId}`;
  const redisPrefix = `lmbench:${runId}:`;
  let dropDb = false;
  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async () => {
    for (const c of children.splice(0)) await c.stop().catch(() => undefined);
    for (const c of cleanups.splice(0).reverse()) await c().catch((err) => process.stderr.write(`bench: cleanup: ${String(err)}\n`));
  };
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));

  try {
    const env: Record<string, string> = {
      PORT_A: '0',
      PORT_B: '0',
      PORT_ADMIN: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      LOANMATCH_ENV: 'sandbox',
      ADMIN_TOKEN: `lm_admin_${randomBytes(24).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      TRACKING_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_A_PER_MINUTE: '100000000',
    };
    if (options.poolSize) env.DB_POOL_SIZE = String(options.poolSize);
    if (options.pipelineConnections !== undefined) env.DB_PIPELINE_CONNECTIONS = String(options.pipelineConnections);
    if (!options.embedded) {
      await adminQuery(`CREATE DATABASE ${dbName}`);
      dropDb = true;
      cleanups.push(async () => {
        if (dropDb) await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      });
      cleanups.push(() => deleteRedisKeys(redisPrefix));
      Object.assign(env, { DATABASE_URL: `${PG_SERVER_URL}/${dbName}`, REDIS_URL, REDIS_PREFIX: redisPrefix });
    }

    if (!options.embedded) {
      // As in production (README, "Several processes"): migrate once, then start processes that find nothing to apply.
      await runToEnd(['--import', 'tsx', 'packages/db/src/cli/migrate.ts', 'deploy'], { DATABASE_URL: env.DATABASE_URL }, 'pnpm db:migrate');
    }
    // The server and the hello-world run alike: compiled, with node alone, as `pnpm start` runs the server
    // (`--from-source`: both through tsx, as the tests run it), with the same node options.
    // BENCH_NODE_ARGS: extra node options for both (say `--max-semi-space-size=16`), to try settings.
    const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const runs = options.fromSource
      ? { hello: ['--import', 'tsx', 'tools/bench/src/hello.ts'], server: ['--import', 'tsx', 'apps/server/src/main.ts'] }
      : { hello: [await compileHello()], server: ['dist/apps/server/src/main.js'] };
    if (!options.fromSource) await runToEnd(['--import', 'tsx', 'tools/build/src/build.ts'], {}, 'pnpm build');
    const callgrindDir = options.instructions ? join(dataDir, 'callgrind') : undefined;
    if (callgrindDir) mkdirSync(callgrindDir);
    const hello = await startChild([...nodeArgs, ...runs.hello], {}, /listening on \d+/, callgrindDir);
    /** The address a hello-world printed it listens on. */
    const helloUrlOf = (child: Child) => `http://127.0.0.1:${/listening on (\d+)/.exec(child.output())![1]}/`;
    const helloUrl = helloUrlOf(hello);
    // The same hello-world with its server made as the service's are (`appServer`): a second yardstick.
    const appServerModule = options.fromSource ? join(ROOT, 'packages/http/src/server.ts') : join(ROOT, 'dist/packages/http/src/server.js');
    const helloApp = await startChild([...nodeArgs, ...runs.hello, '--app-server', appServerModule], {}, /listening on \d+/, callgrindDir);
    const helloAppUrl = helloUrlOf(helloApp);
    const statementLog = join(dataDir, 'statements.log');
    if (options.statements) env.BENCH_STATEMENT_LOG = statementLog;
    const serverArgs = [
      ...nodeArgs,
      ...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []),
      // The counter is TypeScript: tsx loads it (and only it, for a compiled server).
      ...(options.statements ? ['--import', 'tsx', '--import', './tools/bench/src/statement-counter.ts'] : []),
      ...runs.server,
      'all',
    ];
    const server = await startChild(serverArgs, env, /is running[\s\S]*\n\n/, callgrindDir);
    const urls: Record<string, string> = {};
    for (const m of server.output().matchAll(/^ {2}(Variant A|Variant B|Admin API)\s+(http\S+)/gm)) urls[m[1]] = m[2];
    const A = urls['Variant A'];
    const B = urls['Variant B'];
    const admin = urls['Admin API'];
    const origin = (u: string) => new URL(u).origin;

    // A partner of its own and every tier raised, so that no limit is what gets measured.
    const partner = await call(admin, 'POST', '/partners', { auth: env.ADMIN_TOKEN, body: { name: 'Bench Partner', tier: 'enterprise' } });
    const apiKey = String(partner.apiKey);
    for (const tier of ['free', 'standard', 'enterprise']) {
      await call(admin, 'PUT', `/tiers/${tier}`, { auth: env.ADMIN_TOKEN, body: { requestsPerHour: 10_000_000 } });
    }

    const auth = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const createBody = json({ formType: 'personal', data: VALID_STEPS.personal[1] });
    const stepBody = (step: 2 | 3 | 4) => json({ step, data: VALID_STEPS.personal[step] });
    const checkBody = json({ data: validApplicant() });
    const prep = (label: string) => process.stdout.write(`  preparing: ${label}\n`);

    const createApp = async () => String((await call(A, 'POST', '/applications', { auth: apiKey, headers: { 'Idempotency-Key': newKey('prep') }, body: JSON.parse(createBody) })).applicationId);
    const throughStep4 = (ids: string[]) =>
      inParallel(ids, options.connections, async (id) => {
        for (const step of [2, 3, 4] as const) await call(A, 'PATCH', `/applications/${id}`, { auth: apiKey, body: JSON.parse(stepBody(step)) });
      });
    const creditCheck = (ids: string[]) =>
      inParallel(ids, options.connections, async (id) => {
        await call(A, 'POST', `/applications/${id}/credit-check`, { auth: apiKey, headers: { 'Idempotency-Key': newKey('check'), 'X-Sandbox-Score': 'good' }, body: JSON.parse(checkBody) });
      });

    prep('256 applications through the credit check');
    const pool: string[] = [];
    await inParallel(Array.from({ length: 256 }), options.connections, async () => {
      pool.push(await createApp());
    });
    await throughStep4(pool);
    await creditCheck(pool);
    let cursor = 0;
    const fromPool = () => pool[cursor++ % pool.length];

    if (options.statements) {
      await statementCensus({ A, B, admin, adminToken: env.ADMIN_TOKEN, apiKey, pool, createApp, throughStep4, log: statementLog, connections: options.connections });
      await cleanup();
      clearTimeout(watchdog);
      return 0;
    }

    const want = (name: string) => !options.only || options.only.has(name);
    const results: Measured[] = [];
    const report = (m: Measured, hello?: Measured) => {
      results.push(m);
      process.stdout.write(`  ${m.label.padEnd(26)} ${fmt(m.rps, 0).padStart(7)} req/s${hello ? `  ${(m.rps / (m.helloRps ?? hello.rps)).toFixed(2)}×` : ''}  p50 ${fmt(m.p50, 1)} ms  p99 ${fmt(m.p99, 1)} ms${m.non2xx || m.errors ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}${m.note ? `  [${m.note}]` : ''}\n`);
    };

    // CPU per request: the server process, and (production configuration) its PostgreSQL backends.
    const probe: CpuProbe = { server: server.child.pid, database: options.embedded ? undefined : () => backendPids(dbName), callgrindDir };
    const helloProbe: CpuProbe = { server: hello.child.pid, callgrindDir };

    process.stdout.write(
      `\nLoanMatch HTTP bench, ${mode}: ${options.connections} connections, ${options.warmupS} s warm-up + ${options.durationS} s per call${options.paired ? ', the hello-world again before each call' : ''}\n`,
    );
    const helloScenario: Scenario = { name: 'hello', label: 'Express hello-world', url: helloUrl, request: { method: 'GET', path: '/' } };
    const helloResult = await measure(helloScenario, options, helloProbe);
    report(helloResult);
    const helloAppResult = await measure(
      { name: 'hello-app', label: 'hello-world, appServer', url: helloAppUrl, request: { method: 'GET', path: '/' } },
      options,
      { server: helloApp.child.pid, callgrindDir },
    );
    report(helloAppResult);
    /** Measures a call of the service; with `--paired`, the hello-world first, for that call's ratio. */
    const measureCall = async (scenario: Scenario): Promise<Measured> => {
      const before = options.paired ? await measure(helloScenario, options, helloProbe) : undefined;
      const m = await measure(scenario, options, probe);
      if (before) m.helloRps = before.rps;
      return m;
    };

    if (want('get')) {
      report(
        await measureCall(
          {
            name: 'get',
            label: 'A GET application',
            url: origin(A),
            request: { method: 'GET', path: `${BASE_A}/applications/${pool[0]}`, headers: auth, setupRequest: (r) => ({ ...r, path: `${BASE_A}/applications/${fromPool()}` }) },
          },
        ),
        helloResult,
      );
    }

    // Create: a new Idempotency-Key each time; the applications it makes feed the credit-check call.
    const created: string[] = [];
    if (want('create') || want('check')) {
      const createRequest: autocannon.Request = {
        method: 'POST',
        path: `${BASE_A}/applications`,
        headers: auth,
        body: createBody,
        setupRequest: (r) => ({ ...r, headers: { ...r.headers, 'Idempotency-Key': newKey('create') } }),
        onResponse: (status, body) => {
          if (status === 201) created.push(String((JSON.parse(body) as { data: { applicationId: string } }).data.applicationId));
        },
      };
      const m = await measureCall({ name: 'create', label: 'A create', url: origin(A), request: createRequest });
      if (want('create')) report(m, helloResult);
      // The credit check uses one fresh application per request: make sure there are enough for a
      // check as fast as create (and a half more), so that the call is not cut short.
      const needed = Math.min(20_000, Math.ceil(m.rps * 1.5 * (options.warmupS + options.durationS)));
      if (want('check') && created.length < needed) {
        prep(`${needed - created.length} more applications for the credit check`);
        await runAutocannon({ url: origin(A), connections: options.connections, amount: needed - created.length, requests: [createRequest] });
      }
    }

    if (want('patch')) {
      report(
        await measureCall(
          {
            name: 'patch',
            label: 'A PATCH step',
            url: origin(A),
            request: { method: 'PATCH', path: `${BASE_A}/applications/${pool[0]}`, headers: auth, body: stepBody(2), setupRequest: (r) => ({ ...r, path: `${BASE_A}/applications/${fromPool()}` }) },
          },
        ),
        helloResult,
      );
    }

    if (want('check')) {
      const fresh = created.splice(0, 20_000);
      prep(`${fresh.length} fresh applications through step 4`);
      await throughStep4(fresh);
      let next = 0;
      report(
        await measureCall(
          {
            name: 'check',
            label: 'A credit check',
            url: origin(A),
            remaining: () => fresh.length - next,
            request: {
              method: 'POST',
              path: `${BASE_A}/applications/${fresh[0]}/credit-check`,
              headers: { ...auth, 'X-Sandbox-Score': 'good' },
              body: checkBody,
              setupRequest: (r) => ({
                ...r,
                path: `${BASE_A}/applications/${fresh[Math.min(next++, fresh.length - 1)]}/credit-check`,
                headers: { ...r.headers, 'Idempotency-Key': newKey('check') },
              }),
            },
          },
        ),
        helloResult,
      );
    }

    if (want('match')) {
      report(
        await measureCall(
          {
            name: 'match',
            label: 'A match',
            url: origin(A),
            request: { method: 'POST', path: `${BASE_A}/applications/${pool[0]}/match`, headers: auth, setupRequest: (r) => ({ ...r, path: `${BASE_A}/applications/${fromPool()}/match` }) },
          },
        ),
        helloResult,
      );
    }

    if (want('b-token') || want('b-match')) {
      const token = () => call(B, 'POST', '/auth/token', { headers: { 'X-API-Key': apiKey }, body: { grantType: 'api_key' } }).then((d) => String(d.accessToken));
      if (want('b-token')) {
        report(
          await measureCall(
            {
              name: 'b-token',
              label: 'B token exchange',
              url: origin(B),
              request: { method: 'POST', path: '/v1/auth/token', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, body: json({ grantType: 'api_key' }) },
            },
          ),
          helloResult,
        );
      }
      if (want('b-match')) {
        const accessToken = await token();
        prep('64 Variant B applications through the credit check');
        const bPool: Array<{ id: string; securityToken: string }> = [];
        const bAuth = { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' };
        await inParallel(Array.from({ length: 64 }), options.connections, async () => {
          const d = await call(B, 'POST', '/applications', {
            headers: bAuth,
            body: { formType: 'personal', loanAmount: 15000, loanPurpose: 'debt_consolidation', firstName: 'Jordan', lastName: 'Citizen', email: 'jordan@example.com', phone: '0412345678', consentCreditCheck: true },
          });
          bPool.push({ id: String(d.applicationId), securityToken: String(d.securityToken) });
        });
        await throughStep4(bPool.map((b) => b.id));
        await inParallel(bPool, options.connections, async (b) => {
          await call(B, 'POST', `/applications/${b.id}/credit-check`, { headers: { ...bAuth, 'X-Sandbox-Score': 'good' }, body: { securityToken: b.securityToken, dateOfBirth: '1988-07-14' } });
        });
        let bCursor = 0;
        report(
          await measureCall(
            {
              name: 'b-match',
              label: 'B match',
              url: origin(B),
              request: {
                method: 'POST',
                path: `/v1/applications/${bPool[0].id}/match`,
                headers: bAuth,
                body: json({ securityToken: bPool[0].securityToken }),
                setupRequest: (r) => {
                  const b = bPool[bCursor++ % bPool.length];
                  return { ...r, path: `/v1/applications/${b.id}/match`, body: json({ securityToken: b.securityToken }) };
                },
              },
            },
          ),
          helloResult,
        );
      }
    }

    let filled: number | undefined;
    if (options.memory) {
      const target = 100_000;
      const count = await countApplications(options.embedded ? undefined : env.DATABASE_URL);
      const missing = count === undefined ? target : Math.max(0, target - count);
      prep(`${missing} more applications (to ${target}) for the memory reading`);
      await runAutocannon({
        url: origin(A),
        connections: options.connections,
        amount: missing,
        requests: [{ method: 'POST', path: `${BASE_A}/applications`, headers: auth, body: createBody, setupRequest: (r) => ({ ...r, headers: { ...r.headers, 'Idempotency-Key': newKey('fill') } }) }],
      });
      filled = (await countApplications(options.embedded ? undefined : env.DATABASE_URL)) ?? target;
      await new Promise((r) => setTimeout(r, 2000));
    }
    const rss = residentMb(server.child.pid);
    const applicationCount = options.embedded ? filled : await countApplications(env.DATABASE_URL);
    // Right after a burst, much of the heap is garbage V8 has not collected yet; once the process is idle,
    // V8's memory reducer collects it and gives the pages back (within a minute here). Both are shown.
    const settled = options.memory ? await settledResidentMb(server.child.pid) : undefined;

    const byName = new Map(results.map((m) => [m.name, m]));
    const ratio = (name: string) => (byName.has(name) ? byName.get(name)!.rps / (byName.get(name)!.helloRps ?? helloResult.rps) : undefined);
    const goals: Array<[string, number | undefined, number]> = options.embedded ? [['GET', ratio('get'), 0.25]] : [['GET', ratio('get'), 0.5], ['create', ratio('create'), 0.33], ['match', ratio('match'), 0.33]];
    const p99Goal = options.embedded ? [] : ['get', 'create', 'match'].filter((n) => byName.has(n)).map((n) => [n, byName.get(n)!.p99] as const);
    const goalText = goals
      .filter(([, r]) => r !== undefined)
      .map(([n, r, g]) => `${n} ${r!.toFixed(2)}× (goal ≥ ${g.toFixed(2)} ${r! >= g ? 'met' : 'NOT met'})`)
      .concat(p99Goal.length ? [`p99 ≤ 25 ms ${p99Goal.every(([, p]) => p <= 25) ? 'met' : `NOT met (${p99Goal.filter(([, p]) => p > 25).map(([n, p]) => `${n} ${fmt(p, 0)} ms`).join(', ')})`}`] : [])
      .concat(
        settled && rss !== undefined
          ? [`RSS < 250 MB with ${applicationCount ?? '?'} applications: ${fmt(rss, 0)} MB right after the fill (${rss < 250 ? 'met' : 'NOT met'}), ${fmt(settled.mb, 0)} MB settled (${settled.mb < 250 ? 'met' : 'NOT met'})`]
          : [],
      );
    process.stdout.write(
      `\n  server RSS at the end: ${rss === undefined ? 'unknown' : `${fmt(rss, 0)} MB`}${applicationCount !== undefined ? ` with ${applicationCount} applications in the database` : ''}${settled ? `; ${fmt(settled.mb, 0)} MB once idle for ${settled.afterS} s` : ''}\n`,
    );
    const cpuLine = (m: Measured) =>
      `${m.label.padEnd(26)} ${fmt(m.cpuUs?.server ?? NaN, 0).padStart(5)}${m.cpuUs?.database !== undefined ? ` + ${fmt(m.cpuUs.database, 0).padStart(4)}` : ''}`;
    process.stdout.write(
      `\n  CPU time per request, µs (server process${options.embedded ? '' : ' + its PostgreSQL backends'}); steadier than req/s on a busy machine:\n${results.map((m) => `    ${cpuLine(m)}\n`).join('')}`,
    );
    if (options.instructions) {
      const millions = (m: Measured) => fmt((m.instructions ?? NaN) / 1e6, 2).padStart(6);
      process.stdout.write(
        `\n  Instructions per request, millions (server process, callgrind), and as a multiple of the hello-world's:\n${results
          .map((m) => `    ${m.label.padEnd(26)} ${millions(m)}${m === helloResult ? '' : `  ${((m.instructions ?? NaN) / (helloResult.instructions ?? NaN)).toFixed(2)}×`}\n`)
          .join('')}  Under callgrind both run about 50 times slower: the req/s, latencies, CPU times and goals here are not the service's.\n`,
      );
    }
    // The goals are ratios to the hello-world as the issue gives it (`app.listen`). On Node 20 that one pays
    // for Express's prototype swap, which the service's listeners avoid (`appServer`); the ratios to the
    // hello-world made the same way show how far that alone carries them.
    const calls = results.filter((m) => m !== helloResult && m !== helloAppResult);
    const appRatios = calls.map((m) => `${m.name} ${(m.rps / helloAppResult.rps).toFixed(2)}×`).join(', ');
    if (calls.length) {
      process.stdout.write(
        `\n  Ratios to the hello-world made with appServer (${fmt(helloAppResult.rps, 0)} req/s), as the service's listeners are made:\n    ${appRatios}\n`,
      );
    }
    const machine = `${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, node ${process.version}`;
    process.stdout.write(
      `\nbench summary: ${options.embedded ? 'embedded' : 'postgresql+redis'}, ${machine}, hello-world ${fmt(helloResult.rps, 0)} req/s; ${goalText.join('; ')}${calls.length ? `; to the appServer hello-world (${fmt(helloAppResult.rps, 0)} req/s): ${appRatios}` : ''}; took ${Math.round((Date.now() - started) / 1000)} s\n`,
    );
    if (options.out) {
      writeFileSync(options.out, `${JSON.stringify({ date: new Date().toISOString(), mode: options.embedded ? 'embedded' : 'postgresql+redis', machine, options: { ...options, only: options.only && [...options.only] }, hello: helloResult, helloAppServer: helloAppResult, results, rssMb: rss, applicationCount }, null, 2)}\n`);
    }

    await cleanup();
    if (options.matchBench) {
      // Through tsx, like the rest of the bench: the timing lives in tools/, which the build does not compile.
      const matchBench = ['--import', 'tsx', 'tools/bench/src/engine.ts'];
      process.stdout.write('\nMatching engine (tools/bench/src/engine.ts, through tsx):\n');
      await new Promise<void>((r) => {
        const child = spawn(process.execPath, matchBench, { cwd: ROOT, stdio: 'inherit' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
        child.on('exit', () => {
          clearTimeout(timer);
          r();
        });
      });
    }
    clearTimeout(watchdog);
    return 0;
  } catch (err) {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    for (const c of children) process.stderr.write(`--- ${String(c.child.spawnargs.slice(-2).join(' '))} output ---\n${c.output().slice(-3000)}\n`);
    await cleanup();
    clearTimeout(watchdog);
    return 1;
  }
}

/**
 * `--statements`: one request of each call, each after one like it (so caches and prepared statements are
 * warm), with the SQL statements and Redis commands the server sent for it (statement-counter.ts); then
 * the same for the writes again once the partner has a webhook endpoint.
 */
async function statementCensus(s: {
  A: string;
  B: string;
  admin: string;
  adminToken: string;
  apiKey: string;
  pool: string[];
  createApp: () => Promise<string>;
  throughStep4: (ids: string[]) => Promise<void>;
  log: string;
  connections: number;
}): Promise<void> {
  const { A, B, apiKey } = s;
  const checkBody = { data: validApplicant() };
  const step = (n: 2 | 3 | 4) => ({ step: n, data: VALID_STEPS.personal[n] });
  const token = String((await call(B, 'POST', '/auth/token', { headers: { 'X-API-Key': apiKey }, body: { grantType: 'api_key' } })).accessToken);
  const bHeaders = { Authorization: `Bearer ${token}` };
  const bFlat = { formType: 'personal', loanAmount: 15000, loanPurpose: 'debt_consolidation', firstName: 'Jordan', lastName: 'Citizen', email: 'jordan@example.com', phone: '0412345678', consentCreditCheck: true };
  const fresh: string[] = [];
  const bFresh: Array<{ id: string; securityToken: string }> = [];
  const prepare = async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => s.createApp()));
    await s.throughStep4(ids.slice(0, 4));
    fresh.push(...ids);
    for (let i = 0; i < 4; i++) {
      const d = await call(B, 'POST', '/applications', { headers: bHeaders, body: bFlat });
      bFresh.push({ id: String(d.applicationId), securityToken: String(d.securityToken) });
    }
    await s.throughStep4(bFresh.slice(-4).map((b) => b.id));
    for (const b of bFresh.slice(-4, -2)) {
      await call(B, 'POST', `/applications/${b.id}/credit-check`, { headers: { ...bHeaders, 'X-Sandbox-Score': 'good' }, body: { securityToken: b.securityToken, dateOfBirth: '1988-07-14' } });
    }
  };
  // fresh: [0..3] through step 4 ([0, 1] checked, then matched, by the calls below), [4..7] at step 1.
  // bFresh: [0, 1] checked, [2, 3] through step 4.
  const calls: Array<[string, (i: number) => Promise<unknown>]> = [
    ['A GET application', () => call(A, 'GET', `/applications/${s.pool[0]}`, { auth: apiKey })],
    ['A create', () => call(A, 'POST', '/applications', { auth: apiKey, headers: { 'Idempotency-Key': newKey('census') }, body: { formType: 'personal', data: VALID_STEPS.personal[1] } })],
    ['A PATCH (draft → in_progress)', (i) => call(A, 'PATCH', `/applications/${fresh[4 + i]}`, { auth: apiKey, body: step(2) })],
    ['A PATCH (status unchanged)', () => call(A, 'PATCH', `/applications/${s.pool[1]}`, { auth: apiKey, body: step(2) })],
    ['A credit check', (i) => call(A, 'POST', `/applications/${fresh[i]}/credit-check`, { auth: apiKey, headers: { 'Idempotency-Key': newKey('census'), 'X-Sandbox-Score': 'good' }, body: checkBody })],
    ['A match (credit_checked → matched)', (i) => call(A, 'POST', `/applications/${fresh[i]}/match`, { auth: apiKey })],
    ['A match (again)', () => call(A, 'POST', `/applications/${s.pool[2]}/match`, { auth: apiKey })],
    ['B token exchange', () => call(B, 'POST', '/auth/token', { headers: { 'X-API-Key': apiKey }, body: { grantType: 'api_key' } })],
    ['B create', () => call(B, 'POST', '/applications', { headers: { ...bHeaders, 'Idempotency-Key': newKey('census') }, body: bFlat })],
    ['B credit check', (i) => call(B, 'POST', `/applications/${bFresh[2 + i].id}/credit-check`, { headers: { ...bHeaders, 'X-Sandbox-Score': 'good' }, body: { securityToken: bFresh[2 + i].securityToken, dateOfBirth: '1988-07-14' } })],
    ['B match', (i) => call(B, 'POST', `/applications/${bFresh[i].id}/match`, { headers: bHeaders, body: { securityToken: bFresh[i].securityToken } })],
  ];
  const census = async (title: string) => {
    fresh.length = 0;
    bFresh.length = 0;
    // Fresh applications for the calls that use one up, made before the counts (so they are not counted).
    await prepare();
    process.stdout.write(`\nStatements per request, ${title}:\n  ${'call'.padEnd(36)}  SQL  Redis\n`);
    const details: string[] = [];
    for (const [label, run] of calls) {
      await run(0);
      counted = `census-${++censusSeq}`;
      await run(1);
      await new Promise((r) => setTimeout(r, 200));
      // This request's entry: its header line (by request id) and the indented lines under it.
      const entry = new RegExp(`^${counted} .*\n(?: {4}.*\n)*`, 'm').exec(readFileSync(s.log, 'utf8'))?.[0] ?? '';
      const m = /sql=(\d+) redis=(\d+)/.exec(entry);
      process.stdout.write(`  ${label.padEnd(36)} ${(m?.[1] ?? '?').padStart(4)}  ${(m?.[2] ?? '?').padStart(5)}\n`);
      details.push(`  ${label}:\n${entry.split('\n').slice(1).join('\n')}`);
    }
    counted = undefined;
    process.stdout.write(`\n${details.join('\n')}\n`);
  };
  await census('the partner has no webhook endpoint');
  await call(A, 'POST', '/webhooks', { auth: apiKey, body: { url: 'http://127.0.0.1:9/loanmatch-bench' } });
  await census('the partner has one webhook endpoint');
}

function fmt(n: number, digits: number): string {
  return n.toFixed(digits);
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: `${PG_SERVER_URL}/postgres`, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The PostgreSQL server processes serving the bench's own database (its connections). */
async function backendPids(dbName: string): Promise<number[]> {
  const client = new Client({ connectionString: `${PG_SERVER_URL}/postgres`, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [dbName]);
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

async function countApplications(url: string | undefined): Promise<number | undefined> {
  if (!url) return undefined;
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*)::text AS n FROM applications');
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

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

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench failed: ${String(err)}\n`);
    process.exit(1);
  },
);
