/**
 * `pnpm build`: the workspace's TypeScript as plain JavaScript under `dist/`, which `pnpm start` runs
 * with `node` alone (docs/adr/0066). Each file is compiled on its own by esbuild, as
 * tsx compiles it on the fly (no type check: `pnpm typecheck` does that), and written as esbuild makes
 * it; `dist/` mirrors the repository so that everything a file finds beside it is still there:
 *
 * - `dist/<package>/src/**.js` for each `.ts` of every package under `apps/` and `packages/`; every other
 *   file of the package (catalogues, static assets) is linked, not copied;
 * - `dist/<package>/package.json`, its `main` pointing at the compiled entry;
 * - `dist/<package>/node_modules/`: the package's own dependencies, linked where pnpm installed them,
 *   except the workspace's, which point at their `dist/` copy;
 * - `dist/prisma`, linked: the migrations, read at start.
 *
 * Source stays the only truth: `node --import tsx …` and the tests run it, except tests/e2e/compiled.test.ts,
 * which builds `dist/` and runs the compiled server as `pnpm start` does. A build starts from an
 * empty `dist/`; it is skipped when nothing it depends on changed since the last one (`dist/.stamp`), and
 * builds started together take turns (`dist.lock`). No source maps: a stack trace names `dist/<the same path>.js`, whose
 * lines follow the source's closely (compiled file by file, not minified); loading maps
 * (`--enable-source-maps`) kept about 40 MB more resident for the life of the process.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const DIST = join(ROOT, 'dist');
/** What the server needs; tests, the bench and this tool are run from source. */
const PACKAGE_DIRS = ['apps', 'packages'];

interface WorkspacePackage {
  name: string;
  dir: string;
}

function workspacePackages(): WorkspacePackage[] {
  return PACKAGE_DIRS.flatMap((parent) =>
    readdirSync(join(ROOT, parent))
      .map((d) => join(ROOT, parent, d))
      .filter((dir) => existsSync(join(dir, 'package.json')))
      .map((dir) => ({
        name: (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name,
        dir,
      })),
  );
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

function link(target: string, at: string): void {
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at);
}

/** A TypeScript source the build compiles (not a declaration file). */
const isSource = (file: string): boolean => file.endsWith('.ts') && !file.endsWith('.d.ts');

/** `node_modules/<name>` and `node_modules/@scope/<name>` entries of a package. */
function dependencies(dir: string): string[] {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .filter((n) => n !== '.bin' && !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]));
}

/**
 * What a build depends on: this file, every file of the packages (sources, manifests, linked assets) and
 * every dependency link, by path, size and time of change. Equal stamps: `dist/` is up to date.
 */
function stamp(packages: WorkspacePackage[]): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(__filename)); // this file: a change in how it builds is a change too
  for (const pkg of packages) {
    for (const entry of readdirSync(pkg.dir)) {
      if (entry === 'node_modules' || entry === 'test') continue;
      const path = join(pkg.dir, entry);
      for (const file of statSync(path).isDirectory() ? filesUnder(path).map((f) => join(path, f)) : [path]) {
        const { size, mtimeMs } = statSync(file);
        hash.update(`${file}\0${size}\0${mtimeMs}\n`);
      }
    }
    for (const dep of dependencies(pkg.dir))
      hash.update(`${pkg.dir}\0${dep}\0${realpathSync(join(pkg.dir, 'node_modules', dep))}\n`);
  }
  return hash.digest('hex');
}

/**
 * Runs `work` holding the build lock (a directory, made atomically), so that processes started together
 * (`pnpm start:a & pnpm start:b`) build once, one after the other, and never read a half-written `dist/`.
 * A lock older than a minute is a build that died, and is taken over.
 */
async function withLock(work: () => Promise<void>): Promise<void> {
  const lock = `${DIST}.lock`;
  for (const deadline = Date.now() + 120_000; ; ) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 60_000)
        rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`build: ${lock} is held by another build`);
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const packages = workspacePackages();
  await withLock(async () => {
    const current = stamp(packages);
    const stampFile = join(DIST, '.stamp');
    if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === current) return;
    await compile(packages);
    writeFileSync(stampFile, current);
    process.stdout.write(`built ${packages.length} packages into dist/ in ${Date.now() - started} ms\n`);
  });
}

async function compile(packages: WorkspacePackage[]): Promise<void> {
  const distOf = new Map(packages.map((p) => [p.name, join(DIST, relative(ROOT, p.dir))]));
  const entryPoints = packages.flatMap((pkg) => {
    const src = join(pkg.dir, 'src');
    return existsSync(src)
      ? filesUnder(src)
          .filter(isSource)
          .map((file) => join(src, file))
      : [];
  });
  rmSync(DIST, { recursive: true, force: true });

  for (const pkg of packages) {
    const out = distOf.get(pkg.name)!;
    mkdirSync(out, { recursive: true });
    for (const entry of readdirSync(pkg.dir)) {
      if (entry === 'src' || entry === 'node_modules' || entry === 'package.json' || entry === 'test') continue;
      link(join(pkg.dir, entry), join(out, entry));
    }
    if (existsSync(join(pkg.dir, 'src'))) {
      for (const file of filesUnder(join(pkg.dir, 'src'))) {
        if (!isSource(file)) link(join(pkg.dir, 'src', file), join(out, 'src', file));
      }
    }
    const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as { main?: string };
    if (manifest.main) manifest.main = manifest.main.replace(/\.ts$/, '.js');
    writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const dep of dependencies(pkg.dir)) {
      const at = join(out, 'node_modules', dep);
      const workspace = distOf.get(dep);
      link(workspace ?? realpathSync(join(pkg.dir, 'node_modules', dep)), at);
    }
  }
  link(join(ROOT, 'prisma'), join(DIST, 'prisma'));

  await build({
    entryPoints,
    outdir: DIST,
    outbase: ROOT,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    bundle: false,
    logLevel: 'warning',
  });
}

main().catch((err) => {
  process.stderr.write(`build failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
