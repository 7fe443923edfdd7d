/**
 * Where a server's busy time went, from a V8 CPU profile (`node --cpu-prof`): self time by function and
 * by package (the `node_modules` package a function is in, `node:` internals, or our own workspace
 * package), optionally within a time window (one measured phase). Idle and program time are left out.
 *
 * V8's sampler counts the time a thread waits inside a system call as that call's self time: on a busy
 * machine `writev` includes the wait for the CPU after waking the peer (PostgreSQL, Redis, the client).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Cost {
  name: string;
  /** Share of the busy time, 0-1. */
  share: number;
}

export interface CostSummary {
  /** Seconds of profile read, and the busy seconds among them. */
  windowS: number;
  busyS: number;
  byPackage: Cost[];
  byFunction: Cost[];
}

export const readProfile = (file: string): Profile => JSON.parse(readFileSync(file, 'utf8')) as Profile;

/** The profiles a `--cpu-prof-dir` holds. */
export const profilesIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f));

/** The package a frame belongs to: the last `node_modules/<name>` in its URL, `node:` internals, or our folder. */
function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : `(native) ${name}`;
  if (url.startsWith('node:'))
    return url
      .replace(/^node:internal\//, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const ours = /\/(apps|packages|tools)\/([^/]+)\//.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

const functionOf = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
  `${functionName || '(anonymous)'}${url ? `  ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|packages|tools)\//, '$1/')}:${lineNumber + 1}` : ''}`;

/** Self time between `fromUs` and `toUs` (the profile's clock: the machine's monotonic one), the `top` largest. */
export function summarize(profile: Profile, options: { fromUs?: number; toUs?: number; top: number }): CostSummary {
  const from = options.fromUs ?? profile.startTime;
  const to = options.toUs ?? profile.endTime;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    busy += delta;
    const pkg = packageOf(frame.url, frame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + delta);
    const fn = functionOf(frame);
    functions.set(fn, (functions.get(fn) ?? 0) + delta);
  });
  const largest = (m: Map<string, number>) =>
    [...m]
      .sort((x, y) => y[1] - x[1])
      .slice(0, options.top)
      .map(([name, us]) => ({ name, share: busy > 0 ? us / busy : 0 }));
  return {
    windowS: (Math.min(to, profile.endTime) - Math.max(from, profile.startTime)) / 1e6,
    busyS: busy / 1e6,
    byPackage: largest(packages),
    byFunction: largest(functions),
  };
}

export function formatSummary(s: CostSummary, indent = '  '): string {
  const pct = (c: Cost) => `${(100 * c.share).toFixed(1).padStart(5)}%  ${c.name}`;
  return [
    `${indent}profiled ${s.windowS.toFixed(1)} s, busy ${s.busyS.toFixed(1)} s`,
    `${indent}self time by package:`,
    ...s.byPackage.map((c) => `${indent}  ${pct(c)}`),
    `${indent}self time by function:`,
    ...s.byFunction.map((c) => `${indent}  ${pct(c)}`),
  ].join('\n');
}
