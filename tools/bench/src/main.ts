/**
 * `pnpm bench`: the service in its production configuration (built and started as `pnpm start` does,
 * PostgreSQL and Redis of its own), measured against the goals in goals.ts (docs/performance.md):
 *
 * 1. latency where partners live: each call under a constant offered load in an open model (open-load.ts);
 * 2. efficiency: the server's CPU time per request at saturation (closed-load.ts), as a multiple of an
 *    Express hello-world's measured the same way in the same run (hello.ts);
 *    beside the hello-world, the floors (floor.ts) are measured in both phases: the stack around one
 *    statement, with nothing of the service's own code;
 * 3. `--growth`: GET and match at 10,000 and at 1,000,000 applications, and the resident size (growth.ts);
 * 4. the matching engine against 1,000 products (engine-timing.ts).
 *
 * Every latency phase runs before every saturated one, since a saturated phase leaves a tail behind it.
 * It stops by itself (a watchdog ends a run that hangs) and removes its databases and Redis keys.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { runSaturation, type SaturationResult } from './closed-load';
import { benchMatchingEngine } from './engine-timing';
import { FLOORS, FLOOR_ROWS, callInfo, type CallName, type FloorName } from './goals';
import { measureGrowth } from './growth';
import { runOpenLoad, type OpenLoadResult } from './open-load';
import { parseOptions, type Options } from './options';
import { floorCalls, helloCall, prepareCalls, type Call } from './prepare';
import { buildService, compileYardstick, startNode, stopAll } from './processes';
import { profilesIn, readProfile, summarize } from './profile';
import { formatResults, writeJson, type Results } from './report';
import { REDIS_URL, startService, stopAllServices } from './service';

/** The most credit checks a second the saturation phase is prepared for (each uses up one application). */
const MAX_CHECKS_PER_S = 1500;

const log = (line: string) => process.stdout.write(`  ${line}\n`);

function budgetS(o: Options): number {
  const perCall = o.warmupS + o.durationS + o.saturationWarmupS + o.saturationS;
  const yardsticks = 1 + FLOORS.length;
  return (o.calls.length + yardsticks) * perCall + 300 + (o.growth ? 1500 : 0) + (o.engine ? 120 : 0);
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: still running after ${budgetS(options)} s; stopping\n`);
    void stopAllServices()
      .then(stopAll)
      .finally(() => process.exit(2));
  }, budgetS(options) * 1000);
  watchdog.unref();
  const machine = `Node ${process.version}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os.loadavg()[0].toFixed(1)} at the start`;
  process.stdout.write(`LoanMatch bench (${machine})\n`);

  log('building the service (pnpm build)');
  await buildService();
  const hello = await startNode([await compileYardstick('hello')], {}, /listening on \d+/);
  const helloUrl = `http://127.0.0.1:${/listening on (\d+)/.exec(hello.output())![1]}/`;
  if (options.cpuProfDir) mkdirSync(options.cpuProfDir, { recursive: true });
  const profiled = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
  const service = await startService('main', profiled);
  let stopped = false;
  try {
    const floor = await startNode(
      [await compileYardstick('floor')],
      {
        FLOOR_DATABASE_URL: service.databaseUrl,
        FLOOR_REDIS_URL: REDIS_URL,
        FLOOR_REDIS_PREFIX: `${service.redisPrefix}floor:`,
        FLOOR_ROWS: String(FLOOR_ROWS),
      },
      /listening on \d+/,
    );
    const floors = floorCalls(`http://127.0.0.1:${/listening on (\d+)/.exec(floor.output())![1]}/`);
    const checkBudget = Math.ceil(
      options.rate * (options.warmupS + options.durationS) * 1.05 +
        MAX_CHECKS_PER_S * (options.saturationWarmupS + options.saturationS),
    );
    const calls = await prepareCalls(service, options.calls, options.rate, checkBudget, log);
    const helloLoad = helloCall(helloUrl);

    log(`latency: ${options.rate} requests/s, open model`);
    const openLoad = (call: Call) =>
      runOpenLoad({
        origin: call.origin,
        rate: options.rate,
        warmupS: options.warmupS,
        durationS: options.durationS,
        request: call.request,
      });
    const helloLatency = await openLoad(helloLoad);
    const floorLatency: Array<{ name: FloorName; result: OpenLoadResult }> = [];
    for (const f of floors) floorLatency.push({ name: f.name, result: await openLoad(f) });
    const latency: Array<{ name: CallName; result: OpenLoadResult }> = [];
    for (const call of calls) {
      const result = await openLoad(call);
      log(
        `${callInfo(call.name).label}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ${result.errors} errors`,
      );
      latency.push({ name: call.name, result });
    }

    log(`efficiency: closed loop, ${options.connections} connections`);
    const saturation = {
      connections: options.connections,
      warmupS: options.saturationWarmupS,
      durationS: options.saturationS,
    };
    const helloSaturation = await runSaturation(helloLoad, hello.pid, saturation);
    const floorSaturation: Array<{ name: FloorName; result: SaturationResult }> = [];
    for (const f of floors)
      floorSaturation.push({ name: f.name, result: await runSaturation(f, floor.pid, saturation) });
    const efficiency: Array<{ name: CallName; result: SaturationResult }> = [];
    for (const call of calls) {
      const result = await runSaturation(call, service.process.pid, saturation);
      log(
        `${callInfo(call.name).label}: ${result.cpuUsPerRequest.toFixed(0)} µs CPU per request, ${result.rps.toFixed(0)} req/s`,
      );
      efficiency.push({ name: call.name, result });
    }
    await floor.stop();
    // The profile is written when the server exits.
    await service.stop();
    await hello.stop();
    stopped = true;

    const results: Results = {
      machine,
      options,
      latency: { hello: helloLatency, floors: floorLatency, calls: latency },
      efficiency: { hello: helloSaturation, floors: floorSaturation, calls: efficiency },
      tookS: 0,
    };
    if (options.cpuProfDir) {
      const profile = profilesIn(options.cpuProfDir)
        .map(readProfile)
        .find((p) =>
          efficiency.every((e) => e.result.window.fromUs >= p.startTime && e.result.window.toUs <= p.endTime),
        );
      if (profile)
        results.profiles = efficiency.map((e) => ({
          name: e.name,
          summary: summarize(profile, { ...e.result.window, top: 5 }),
        }));
      else log(`no profile in ${options.cpuProfDir} covers this run's phases`);
    }
    if (options.growth) {
      log('cost as data grows');
      results.growth = await measureGrowth(
        { rate: options.rate, warmupS: options.warmupS, durationS: options.durationS },
        log,
      );
    }
    if (options.engine) {
      log('matching engine');
      results.engine = await benchMatchingEngine((text) => process.stdout.write(text));
    }
    results.tookS = (Date.now() - started) / 1000;
    process.stdout.write(formatResults(results));
    if (options.json) writeJson(options.json, results);
    return 0;
  } finally {
    if (!stopped) await service.stop();
    await stopAll();
    clearTimeout(watchdog);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench: ${signal}; stopping\n`);
    void stopAllServices()
      .then(stopAll)
      .finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    void stopAllServices()
      .then(stopAll)
      .finally(() => process.exit(1));
  },
);
