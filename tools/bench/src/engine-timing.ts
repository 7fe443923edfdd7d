/**
 * The matching engine's time per match against 1,000 generated products, as the engine's own timing
 * script measures it (engine.ts: a median over rounds for each of a few applications, then their average
 * and the slowest), in a process of its own so that the load phases' heap does not disturb it. Its output
 * is shown and its figures read back.
 */
import { spawn } from 'node:child_process';
import { ROOT } from './processes';

export interface EngineTiming {
  products: number;
  meanMs: number;
  slowestMs: number;
}

const SOURCE = 'tools/bench/src/engine.ts';

export async function benchMatchingEngine(print: (text: string) => void): Promise<EngineTiming | undefined> {
  const argv = ['--import', 'tsx', '--conditions=@loanmatch/source', SOURCE];
  const output = await new Promise<string>((resolveRun) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', () => {
      clearTimeout(timer);
      resolveRun(out);
    });
  });
  print(output.replace(/^/gm, '  '));
  // The generated catalogue's section: "generated catalogue (1000 products): X µs per match on average …", then "slowest: Y µs".
  const section =
    /generated catalogue \((\d+) products\): ([\d.]+) µs per match on average[\s\S]*?slowest: ([\d.]+) µs/.exec(output);
  return section
    ? { products: Number(section[1]), meanMs: Number(section[2]) / 1000, slowestMs: Number(section[3]) / 1000 }
    : undefined;
}
