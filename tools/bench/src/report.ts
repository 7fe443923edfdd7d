/**
 * The results of one run as one table, each figure beside its goal (met or not met), printed and, with
 * `--json FILE`, written as JSON: the same figures, and the goals as a flat list.
 */
import { writeFileSync } from 'node:fs';
import type { SaturationResult } from './closed-load';
import type { EngineTiming } from './engine-timing';
import {
  CALLS,
  ENGINE_GOAL_MS,
  FLOORS,
  GROWTH,
  RETIRING_GET_GOAL_X,
  callInfo,
  type CallName,
  type FloorName,
} from './goals';
import type { GrowthResult } from './growth';
import type { OpenLoadResult } from './open-load';
import type { Options } from './options';
import { formatSummary, type CostSummary } from './profile';

export interface Results {
  machine: string;
  options: Options;
  latency: {
    hello: OpenLoadResult;
    floors: Array<{ name: FloorName; result: OpenLoadResult }>;
    calls: Array<{ name: CallName; result: OpenLoadResult }>;
  };
  efficiency: {
    hello: SaturationResult;
    floors: Array<{ name: FloorName; result: SaturationResult }>;
    calls: Array<{ name: CallName; result: SaturationResult }>;
  };
  /** `--cpu-prof`: the server's largest costs during each call's saturation phase. */
  profiles?: Array<{ name: CallName; summary: CostSummary }>;
  growth?: GrowthResult;
  engine?: EngineTiming;
  tookS: number;
}

export interface Goal {
  what: string;
  figure: number;
  unit: string;
  goal: string;
  met: boolean;
}

const fmt = (n: number, digits = 1) =>
  Number.isFinite(n) ? n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** A latency figure meets its goal only if every request was answered (2xx or 3xx) at the offered rate. */
function latencyMet(r: OpenLoadResult, goalMs: number): boolean {
  return r.p99 <= goalMs && r.errors === 0 && r.achievedRate >= 0.98 * r.offeredRate;
}

export function goalsOf(results: Results): Goal[] {
  const goals: Goal[] = [];
  for (const { name, result } of results.latency.calls) {
    const { label, p99GoalMs } = callInfo(name);
    goals.push({
      what: `${label}: p99 at ${results.options.rate} req/s`,
      figure: result.p99,
      unit: 'ms',
      goal: `≤ ${p99GoalMs} ms`,
      met: latencyMet(result, p99GoalMs),
    });
  }
  const helloCpu = results.efficiency.hello.cpuUsPerRequest;
  for (const { name, result } of results.efficiency.calls) {
    const { label, cpuGoalX } = callInfo(name);
    if (cpuGoalX === undefined) continue;
    const ratio = result.cpuUsPerRequest / helloCpu;
    goals.push({
      what: `${label}: CPU per request / hello-world's`,
      figure: ratio,
      unit: '×',
      goal: `≤ ${cpuGoalX}×`,
      met: ratio <= cpuGoalX,
    });
  }
  const cpuOf = (name: CallName) => results.efficiency.calls.find((c) => c.name === name)?.result.cpuUsPerRequest;
  const [plain, retiring] = [cpuOf('get'), cpuOf('get-retiring')];
  if (plain && retiring)
    goals.push({
      what: `${callInfo('get-retiring').label}: CPU per request / plain GET's`,
      figure: retiring / plain,
      unit: '×',
      goal: `≤ ${RETIRING_GET_GOAL_X}×`,
      met: retiring / plain <= RETIRING_GET_GOAL_X,
    });
  const growth = results.growth;
  if (growth && growth.steps.length === GROWTH.sizes.length) {
    const [small, large] = [growth.steps[0], growth.steps.at(-1)!];
    for (const name of GROWTH.calls) {
      const ratio = large.results[name].p50 / small.results[name].p50;
      goals.push({
        what: `${callInfo(name).label}: p50 at ${fmt(large.applications, 0)} / at ${fmt(small.applications, 0)}`,
        figure: ratio,
        unit: '×',
        goal: `≤ ${GROWTH.p50RatioGoal}×`,
        met: ratio <= GROWTH.p50RatioGoal,
      });
    }
    const rss = growth.resident?.now ?? NaN;
    goals.push({
      what: `server resident size at ${fmt(large.applications, 0)} applications`,
      figure: rss,
      unit: 'MB',
      goal: `≤ ${GROWTH.residentGoalMb} MB`,
      met: rss <= GROWTH.residentGoalMb,
    });
  }
  if (results.engine) {
    for (const [what, ms, goal] of [
      ['average', results.engine.meanMs, ENGINE_GOAL_MS.average],
      ['slowest application', results.engine.slowestMs, ENGINE_GOAL_MS.slowest],
    ] as const) {
      goals.push({
        what: `matching engine, ${fmt(results.engine.products, 0)} products: ${what}`,
        figure: ms,
        unit: 'ms',
        goal: `< ${goal} ms`,
        met: ms < goal,
      });
    }
  }
  return goals;
}

/** What a call's figures are read against: the hello-world and the floors, held to no goal. */
type Yardstick = 'hello' | FloorName;
const isFloor = (name: Yardstick | CallName): name is FloorName => FLOORS.some((f) => f.name === name);
const floorLabel = (name: FloorName) => FLOORS.find((f) => f.name === name)!.label;

const row = (cells: Array<[string, number]>) =>
  cells.map(([text, width]) => (width < 0 ? text.padEnd(-width) : text.padStart(width))).join(' ');

export function formatResults(results: Results): string {
  const { options } = results;
  const lines: string[] = [`\nLoanMatch bench: production configuration (PostgreSQL + Redis), ${results.machine}`];
  const label = (name: Yardstick | CallName) =>
    name === 'hello' ? 'Express hello-world' : isFloor(name) ? floorLabel(name) : callInfo(name).label;

  lines.push(
    `\nLatency, open model: ${options.rate} requests/s offered, ${options.warmupS} s warm-up + ${options.durationS} s counted per call`,
  );
  lines.push(
    row([
      ['  call', -22],
      ['achieved/s', 10],
      ['p50 ms', 8],
      ['p99 ms', 8],
      ['max ms', 8],
      ['errors', 7],
      ['  goal (p99)', -14],
    ]),
  );
  const latencyRow = (name: Yardstick | CallName, r: OpenLoadResult) => {
    const goal =
      name === 'hello' || isFloor(name)
        ? ''
        : `  ≤ ${callInfo(name).p99GoalMs} ms  ${verdict(latencyMet(r, callInfo(name).p99GoalMs))}`;
    return row([
      [`  ${label(name)}`, -22],
      [fmt(r.achievedRate), 10],
      [fmt(r.p50, 2), 8],
      [fmt(r.p99, 2), 8],
      [fmt(r.max), 8],
      [String(r.errors), 7],
      [goal, -14],
    ]);
  };
  lines.push(latencyRow('hello', results.latency.hello));
  for (const f of results.latency.floors) lines.push(latencyRow(f.name, f.result));
  for (const c of results.latency.calls) {
    lines.push(latencyRow(c.name, c.result));
    for (const e of c.result.errorSamples) lines.push(`      error: ${e}`);
  }

  const hello = results.efficiency.hello;
  lines.push(
    `\nEfficiency, closed loop: ${options.connections} connections, ${options.saturationWarmupS} s warm-up + ${options.saturationS} s counted per call`,
  );
  lines.push(
    row([
      ['  call', -22],
      ['CPU µs/req', 10],
      ['× hello', 8],
      ['  goal', -15],
      ['saturation req/s', 17],
    ]),
  );
  const efficiencyRow = (name: Yardstick | CallName, r: SaturationResult) => {
    const goalX = name === 'hello' || isFloor(name) ? undefined : callInfo(name).cpuGoalX;
    const ratio = r.cpuUsPerRequest / hello.cpuUsPerRequest;
    const goal = goalX === undefined ? '' : `  ≤ ${goalX}×  ${verdict(ratio <= goalX)}`;
    const note = [r.errors ? `${r.errors} errors` : '', r.note ?? ''].filter(Boolean).join('; ');
    return (
      row([
        [`  ${label(name)}`, -22],
        [fmt(r.cpuUsPerRequest, 0), 10],
        [fmt(ratio, 2), 8],
        [goal, -15],
        [fmt(r.rps, 0), 17],
      ]) + (note ? `  (${note})` : '')
    );
  };
  lines.push(efficiencyRow('hello', hello));
  for (const f of results.efficiency.floors) lines.push(efficiencyRow(f.name, f.result));
  for (const c of results.efficiency.calls) lines.push(efficiencyRow(c.name, c.result));
  const retiring = goalsOf(results).find((g) => g.what.endsWith("plain GET's"));
  if (retiring)
    lines.push(`  ${retiring.what}: ${fmt(retiring.figure, 2)}× (${retiring.goal})  ${verdict(retiring.met)}`);

  const growth = results.growth;
  if (growth) {
    const sizes = growth.steps.map((s) => fmt(s.applications, 0));
    lines.push(
      `\nCost as data grows: ${options.rate} requests/s offered, ${options.warmupS} s + ${options.durationS} s per call and size`,
    );
    lines.push(
      row([['  figure', -22], ...sizes.map((s): [string, number] => [`at ${s}`, 14]), ['ratio', 7], ['  goal', -15]]),
    );
    for (const name of GROWTH.calls) {
      const p50s = growth.steps.map((s) => s.results[name].p50);
      const ratio = p50s.at(-1)! / p50s[0];
      lines.push(
        row([
          [`  ${callInfo(name).label} p50`, -22],
          ...p50s.map((p): [string, number] => [`${fmt(p, 2)} ms`, 14]),
          [fmt(ratio, 2), 7],
          [`  ≤ ${GROWTH.p50RatioGoal}×  ${verdict(ratio <= GROWTH.p50RatioGoal)}`, -15],
        ]),
      );
      lines.push(
        row([
          [`  ${callInfo(name).label} p99`, -22],
          ...growth.steps.map((s): [string, number] => [`${fmt(s.results[name].p99, 2)} ms`, 14]),
        ]),
      );
    }
    const rss = growth.resident?.now ?? NaN;
    lines.push(
      `${row([
        ['  server resident size', -22],
        ...sizes.slice(0, -1).map((): [string, number] => ['', 14]),
        [`${fmt(rss, 0)} MB`, 14],
        ['', 7],
        [`  ≤ ${GROWTH.residentGoalMb} MB  ${verdict(rss <= GROWTH.residentGoalMb)}`, -15],
      ])}  (peak ${fmt(growth.resident?.peak ?? NaN, 0)} MB)`,
    );
    lines.push(
      `  filling took ${growth.steps.map((s) => `${fmt(s.fillS, 0)} s to ${fmt(s.applications, 0)}`).join(', ')}`,
    );
  }

  if (results.engine) {
    const e = results.engine;
    const met = e.meanMs < ENGINE_GOAL_MS.average && e.slowestMs < ENGINE_GOAL_MS.slowest;
    lines.push(`\nMatching engine, one application against ${fmt(e.products, 0)} products`);
    lines.push(
      `  average ${fmt(e.meanMs, 3)} ms (goal < ${ENGINE_GOAL_MS.average} ms), slowest application ${fmt(e.slowestMs, 3)} ms (goal < ${ENGINE_GOAL_MS.slowest} ms)  ${verdict(met)}`,
    );
  }

  const goals = goalsOf(results);
  const missed = goals.filter((g) => !g.met);
  lines.push(
    `\nGoals: ${goals.length - missed.length} of ${goals.length} met${missed.length ? `; not met: ${missed.map((g) => g.what).join('; ')}` : ''}. Took ${fmt(results.tookS, 0)} s.`,
  );

  for (const p of results.profiles ?? [])
    lines.push(
      `\nServer profile, ${callInfo(p.name).label} (saturation phase), five largest costs:\n${formatSummary(p.summary, '  ')}`,
    );
  return `${lines.join('\n')}\n`;
}

export function writeJson(file: string, results: Results): void {
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), ...results, goals: goalsOf(results), calls: CALLS, floors: FLOORS }, null, 2)}\n`,
  );
}
