/**
 * `pnpm bench:profile <file.cpuprofile> [top] [--last S]`: where a server's busy time went, from a profile
 * written by `pnpm bench -- --cpu-prof DIR`. Self time grouped by package (the `node_modules` package a
 * function is in, `node:` internals, or our own workspace package), then the top functions, then who
 * called the write system calls; idle and program time are left out of the shares. `--last S` keeps the
 * last S seconds only: the call the bench measured last. A reading aid for docs/decisions.md "Performance".
 *
 * V8's sampler counts the time a thread waits inside a system call as that call's self time: on a busy
 * machine `writev` includes the wait for the CPU after waking the peer (PostgreSQL, Redis, the client).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2).filter((a) => a !== '--');
const lastAt = args.indexOf('--last');
const lastS = lastAt >= 0 ? Number(args.splice(lastAt, 2)[1]) : undefined;
const [file, topArg] = args;
if (!file) {
  process.stderr.write('usage: pnpm bench:profile <file.cpuprofile> [top] [--last S]   (--last: only the last S seconds, say the last call measured)\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 25);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
const from = lastS === undefined ? 0 : total - lastS * 1e6;
let at = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at >= from) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

/** The package a frame belongs to: the last `node_modules/<name>` in its URL, `node:` internals, or our folder. */
function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : `(native) ${name}`;
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node:').split('/').slice(0, 2).join('/');
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const ours = /\/(apps|packages|tools)\/([^/]+)\//.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

const groups = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)' || functionName === '(program)') continue;
  busy += us;
  const group = packageOf(url, functionName);
  groups.set(group, (groups.get(group) ?? 0) + us);
  const fn = `${functionName || '(anonymous)'}  ${url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|packages|tools)\//, '$1/')}:${lineNumber + 1}` : ''}`;
  functions.set(fn, (functions.get(fn) ?? 0) + us);
}

const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
const window = lastS === undefined ? total : Math.min(total, lastS * 1e6);
process.stdout.write(`${file}\n  profiled ${(window / 1e6).toFixed(1)} s${lastS === undefined ? '' : ` (the last ${lastS} s)`}, busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / window).toFixed(0)}%)\n\nSelf time by package (share of busy time):\n`);
for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${pct(us)}  ${g}\n`);
process.stdout.write('\nTop functions by self time:\n');
for (const [f, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${pct(us)}  ${f}\n`);

// Who calls the system-call functions: their self time by the nearest frame outside node's internals.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
for (const native of ['writev', 'writeUtf8String', 'writeBuffer']) {
  const callers = new Map<string, number>();
  let sum = 0;
  for (const [id, us] of selfUs) {
    if (byId.get(id)!.callFrame.functionName !== native) continue;
    let at = parent.get(id);
    const chain: string[] = [];
    while (at !== undefined) {
      const { functionName, url } = byId.get(at)!.callFrame;
      if (url && !url.startsWith('node:')) {
        chain.push(`${packageOf(url, functionName)} ${functionName}`);
        if (chain.length === 2) break;
      }
      at = parent.get(at);
    }
    const key = chain.join(' < ') || '(node internals only)';
    callers.set(key, (callers.get(key) ?? 0) + us);
    sum += us;
  }
  if (sum === 0) continue;
  process.stdout.write(`\n${native} (${pct(sum).trim()}) by caller:\n`);
  for (const [c, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 8)) process.stdout.write(`  ${pct(us)}  ${c}\n`);
}
