/**
 * `pnpm bench`: throughput and latency of the service's busiest calls, each measured with autocannon
 * on loopback against the real server started as a child process, next to an Express hello-world
 * loaded the same way in the same run; then the match timings of the matching engine.
 *
 *   pnpm bench                       production configuration: PostgreSQL (127.0.0.1:5432) + Redis
 *   pnpm bench -- --embedded         the embedded default (PGlite in a temporary DATA_DIR, no Redis)
 *   options: --duration 10  --warmup 3  --connections 32  --only get,create  --pool-size N (DB_POOL_SIZE)
 *            --cpu-prof DIR (profile the server)  --memory (fill to 100,000 applications, then read RSS)
 *            --no-match-bench  --out results.json
 *
 * It creates its own database and Redis key prefix and drops them at the end, and stops by itself:
 * every phase is bounded in time, and a watchdog ends the run if something hangs. A benchmark, not a test.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
  cpuProfDir?: string;
  memory: boolean;
  matchBench: boolean;
  out?: string;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { embedded: false, durationS: 10, warmupS: 3, connections: 32, memory: false, matchBench: true };
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
    else if (arg === '--cpu-prof') options.cpuProfDir = resolve(value());
    else if (arg === '--memory') options.memory = true;
    else if (arg === '--no-match-bench') options.matchBench = false;
    else if (arg === '--out') options.out = resolve(value());
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

/** Starts `node --import tsx <script>` and waits until its output matches `ready`. */
async function startChild(script: string, args: string[], env: Record<string, string>, ready: RegExp, nodeArgs: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
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
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s:\n${out}`)), 60_000);
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

async function call(base: string, method: string, path: string, options: { auth?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
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
  note?: string;
}

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

async function measure(scenario: Scenario, options: Options): Promise<Measured> {
  const base = { url: scenario.url, connections: options.connections, requests: [scenario.request] };
  if (options.warmupS > 0) await runAutocannon({ ...base, duration: options.warmupS }, scenario.remaining);
  const result = await runAutocannon({ ...base, duration: options.durationS }, scenario.remaining);
  const measured: Measured = {
    name: scenario.name,
    label: scenario.label,
    // Completed requests over the measured time: the per-second average counts a stopped run's last second.
    rps: result.requests.total / Math.max(result.duration, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationS: result.duration,
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
  const scenarioCount = 9;
  const budgetMs = (scenarioCount * (options.durationS + options.warmupS) + (options.memory ? 600 : 0) + 420) * 1000;
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
      await new Promise<void>((resolveRun, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'packages/db/src/cli/migrate.ts', 'deploy'], {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: env.DATABASE_URL },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          if (code === 0) resolveRun();
          else reject(new Error(`pnpm db:migrate exited with ${code}`));
        });
      });
    }
    const hello = await startChild('tools/bench/src/hello.ts', [], {}, /listening on \d+/);
    const helloUrl = `http://127.0.0.1:${/listening on (\d+)/.exec(hello.output())![1]}/`;
    // BENCH_SERVER_NODE_ARGS: extra node options for the server (say `--max-semi-space-size=8`), to try settings.
    const nodeArgs = [
      ...(options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []),
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ];
    const server = await startChild('apps/server/src/main.ts', ['all'], env, /is running[\s\S]*\n\n/, nodeArgs);
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

    const want = (name: string) => !options.only || options.only.has(name);
    const results: Measured[] = [];
    const report = (m: Measured, hello?: Measured) => {
      results.push(m);
      process.stdout.write(`  ${m.label.padEnd(26)} ${fmt(m.rps, 0).padStart(7)} req/s${hello ? `  ${(m.rps / hello.rps).toFixed(2)}×` : ''}  p50 ${fmt(m.p50, 1)} ms  p99 ${fmt(m.p99, 1)} ms${m.non2xx || m.errors ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}${m.note ? `  [${m.note}]` : ''}\n`);
    };

    process.stdout.write(`\nLoanMatch HTTP bench, ${mode}: ${options.connections} connections, ${options.warmupS} s warm-up + ${options.durationS} s per call\n`);
    const helloResult = await measure({ name: 'hello', label: 'Express hello-world', url: helloUrl, request: { method: 'GET', path: '/' } }, options);
    report(helloResult);

    if (want('get')) {
      report(
        await measure(
          {
            name: 'get',
            label: 'A GET application',
            url: origin(A),
            request: { method: 'GET', path: `${BASE_A}/applications/${pool[0]}`, headers: auth, setupRequest: (r) => ({ ...r, path: `${BASE_A}/applications/${fromPool()}` }) },
          },
          options,
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
      const m = await measure({ name: 'create', label: 'A create', url: origin(A), request: createRequest }, options);
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
        await measure(
          {
            name: 'patch',
            label: 'A PATCH step',
            url: origin(A),
            request: { method: 'PATCH', path: `${BASE_A}/applications/${pool[0]}`, headers: auth, body: stepBody(2), setupRequest: (r) => ({ ...r, path: `${BASE_A}/applications/${fromPool()}` }) },
          },
          options,
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
        await measure(
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
          options,
        ),
        helloResult,
      );
    }

    if (want('match')) {
      report(
        await measure(
          {
            name: 'match',
            label: 'A match',
            url: origin(A),
            request: { method: 'POST', path: `${BASE_A}/applications/${pool[0]}/match`, headers: auth, setupRequest: (r) => ({ ...r, path: `${BASE_A}/applications/${fromPool()}/match` }) },
          },
          options,
        ),
        helloResult,
      );
    }

    if (want('b-token') || want('b-match')) {
      const token = () => call(B, 'POST', '/auth/token', { headers: { 'X-API-Key': apiKey }, body: { grantType: 'api_key' } }).then((d) => String(d.accessToken));
      if (want('b-token')) {
        report(
          await measure(
            {
              name: 'b-token',
              label: 'B token exchange',
              url: origin(B),
              request: { method: 'POST', path: '/v1/auth/token', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, body: json({ grantType: 'api_key' }) },
            },
            options,
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
          await measure(
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
            options,
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

    const byName = new Map(results.map((m) => [m.name, m]));
    const ratio = (name: string) => (byName.has(name) ? byName.get(name)!.rps / helloResult.rps : undefined);
    const goals: Array<[string, number | undefined, number]> = options.embedded ? [['GET', ratio('get'), 0.25]] : [['GET', ratio('get'), 0.5], ['create', ratio('create'), 0.33], ['match', ratio('match'), 0.33]];
    const p99Goal = options.embedded ? [] : ['get', 'create', 'match'].filter((n) => byName.has(n)).map((n) => [n, byName.get(n)!.p99] as const);
    const goalText = goals
      .filter(([, r]) => r !== undefined)
      .map(([n, r, g]) => `${n} ${r!.toFixed(2)}× (goal ≥ ${g.toFixed(2)} ${r! >= g ? 'met' : 'NOT met'})`)
      .concat(p99Goal.length ? [`p99 ≤ 25 ms ${p99Goal.every(([, p]) => p <= 25) ? 'met' : `NOT met (${p99Goal.filter(([, p]) => p > 25).map(([n, p]) => `${n} ${fmt(p, 0)} ms`).join(', ')})`}`] : []);
    process.stdout.write(
      `\n  server RSS at the end: ${rss === undefined ? 'unknown' : `${fmt(rss, 0)} MB`}${applicationCount !== undefined ? ` with ${applicationCount} applications in the database` : ''}\n`,
    );
    const machine = `${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, node ${process.version}`;
    process.stdout.write(
      `\nbench summary: ${options.embedded ? 'embedded' : 'postgresql+redis'}, ${machine}, hello-world ${fmt(helloResult.rps, 0)} req/s; ${goalText.join('; ')}; took ${Math.round((Date.now() - started) / 1000)} s\n`,
    );
    if (options.out) {
      writeFileSync(options.out, `${JSON.stringify({ date: new Date().toISOString(), mode: options.embedded ? 'embedded' : 'postgresql+redis', machine, options: { ...options, only: options.only && [...options.only] }, hello: helloResult, results, rssMb: rss, applicationCount }, null, 2)}\n`);
    }

    await cleanup();
    if (options.matchBench) {
      process.stdout.write('\nMatching engine (packages/domain/src/matching/bench.ts):\n');
      await new Promise<void>((r) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'packages/domain/src/matching/bench.ts'], { cwd: ROOT, stdio: 'inherit' });
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
