/**
 * The processes the bench starts: the service built and started as `pnpm build` and `pnpm start` do
 * (their commands are read from the root package.json, so the bench follows them), the yardsticks, and
 * one-shot commands (migrations). Every process started is stopped by `stopAll`, whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { transform } from 'esbuild';

export const ROOT = resolve(__dirname, '../../..');

export interface Child {
  child: ChildProcess;
  pid: number;
  /** What it printed until it was ready (its banner), and its error output. */
  output: () => string;
  stop(): Promise<void>;
}

const running: Child[] = [];

/** A clean environment: the machine's PATH with the workspace's tools first, and what the caller adds. */
function environment(env: Record<string, string>): Record<string, string> {
  const path = [join(ROOT, 'node_modules/.bin'), dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
  return { PATH: path, HOME: process.env.HOME ?? '', NODE_ENV: 'production', ...env };
}

/**
 * Starts `node <argv>` and waits until its output matches `ready`. Its standard output goes to a file, as
 * a production log collector drains it: a pipe read by this process, which is busy sending load, would
 * fill, and Node's writes to a full pipe block the server.
 */
export async function startNode(argv: string[], env: Record<string, string>, ready: RegExp): Promise<Child> {
  const logFile = join(tmpdir(), `loanmatch-bench-${process.pid}-${running.length}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: environment(env), stdio: ['ignore', log, 'pipe'] });
  closeSync(log);
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (errors.length < 100_000) errors += d;
  });
  const banner = () => readFileSync(logFile, 'utf8').slice(0, 100_000);
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const handle: Child = {
    child,
    pid: child.pid!,
    output: () => out + errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(logFile, { force: true });
    },
  };
  running.push(handle);
  const deadline = Date.now() + 60_000;
  for (;;) {
    out = banner();
    if (ready.test(out)) return handle;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`node ${argv.join(' ')} exited before it was ready:\n${out}${errors}`);
    }
    if (Date.now() > deadline) throw new Error(`node ${argv.join(' ')} did not start within 60 s:\n${out}${errors}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs a shell command to its end (`limitS` at most); its errors go to our stderr. */
export function runToEnd(command: string, env: Record<string, string>, limitS = 300): Promise<void> {
  return new Promise<void>((resolveRun, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd: ROOT,
      env: environment(env),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), limitS * 1000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolveRun();
      else reject(new Error(`${command} exited with ${code}`));
    });
  });
}

export async function stopAll(): Promise<void> {
  for (const c of running.splice(0).reverse()) await c.stop().catch(() => undefined);
}

function rootScript(name: string): string {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const script = scripts[name];
  if (!script) throw new Error(`package.json has no "${name}" script`);
  return script;
}

/** `pnpm build`'s command, run as it is. */
export const buildService = (): Promise<void> => runToEnd(rootScript('build'), {});

/** `pnpm db:migrate`'s command against this database. */
export const migrate = (databaseUrl: string): Promise<void> =>
  runToEnd(rootScript('db:migrate'), { DATABASE_URL: databaseUrl });

/**
 * What `pnpm start` runs once built: the last command of its script (`… && exec node_modules/node/bin/node …
 * apps/server/dist/main.js all`), without `exec` and the node binary, as arguments for this node: the runtime
 * the bench itself runs on.
 */
export function serviceArgv(): string[] {
  const last = rootScript('start').split('&&').at(-1)!.trim().split(/\s+/);
  const words = last[0] === 'exec' ? last.slice(1) : last;
  if (!/(^|\/)node$/.test(words[0]))
    throw new Error(`the start script does not end with a node command: ${rootScript('start')}`);
  return words.slice(1);
}

/**
 * A yardstick's server (hello.ts, floor.ts) compiled as one plain file (esbuild, as tsx would compile it),
 * beside the bench's dependencies.
 */
export async function compileYardstick(name: 'hello' | 'floor'): Promise<string> {
  const { code } = await transform(readFileSync(join(ROOT, `tools/bench/src/${name}.ts`), 'utf8'), {
    loader: 'ts',
    format: 'cjs',
    platform: 'node',
    target: 'node24',
  });
  const file = join(ROOT, `tools/bench/node_modules/.cache/${name}.js`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, code);
  return file;
}
