/**
 * `pnpm build`: the workspace's TypeScript as plain JavaScript under `dist/`, which `pnpm start` runs
 * with `node` alone (docs/decisions.md, "Performance"). Each file is compiled on its own by esbuild, as
 * tsx compiles it on the fly (no type check: `pnpm typecheck` does that), and `dist/` mirrors the
 * repository so that everything a file finds beside it is still there:
 *
 * - `dist/<package>/src/**.js` for each `.ts` of every package under `apps/` and `packages/`; every other
 *   file of the package (catalogues, static assets) is linked, not copied;
 * - `dist/<package>/package.json`, its `main` pointing at the compiled entry;
 * - `dist/<package>/node_modules/`: the package's own dependencies, linked where pnpm installed them,
 *   except the workspace's, which point at their `dist/` copy;
 * - `dist/prisma`, linked: the migrations, read at start.
 *
 * Source stays the only truth: tests and `node --import tsx …` never read `dist/`, and each build
 * starts from an empty `dist/`. No source maps: a stack trace names `dist/<the same path>.js`, whose
 * lines follow the source's closely (compiled file by file, not minified); loading maps
 * (`--enable-source-maps`) kept about 40 MB more resident for the life of the process.
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
      .map((dir) => ({ name: (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name, dir })),
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

/** `node_modules/<name>` and `node_modules/@scope/<name>` entries of a package. */
function dependencies(dir: string): string[] {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .filter((n) => n !== '.bin' && !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]));
}

async function main(): Promise<void> {
  const started = Date.now();
  const packages = workspacePackages();
  const distOf = new Map(packages.map((p) => [p.name, join(DIST, relative(ROOT, p.dir))]));
  rmSync(DIST, { recursive: true, force: true });

  const entryPoints: string[] = [];
  for (const pkg of packages) {
    const out = distOf.get(pkg.name)!;
    mkdirSync(out, { recursive: true });
    for (const entry of readdirSync(pkg.dir)) {
      if (entry === 'src' || entry === 'node_modules' || entry === 'package.json' || entry === 'test') continue;
      link(join(pkg.dir, entry), join(out, entry));
    }
    if (existsSync(join(pkg.dir, 'src'))) {
      for (const file of filesUnder(join(pkg.dir, 'src'))) {
        if (file.endsWith('.ts') && !file.endsWith('.d.ts')) entryPoints.push(join(pkg.dir, 'src', file));
        else link(join(pkg.dir, 'src', file), join(out, 'src', file));
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
  process.stdout.write(`built ${entryPoints.length} files of ${packages.length} packages into dist/ in ${Date.now() - started} ms\n`);
}

main().catch((err) => {
  process.stderr.write(`build failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
