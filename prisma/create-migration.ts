/**
 * `pnpm db:migration:create <name>`: a new migration written by Prisma's schema engine, compiled to
 * WebAssembly (the native engine cannot be downloaded everywhere), from the difference between the
 * migration history and `schema.prisma`, run against a throw-away in-memory database. A developer's tool:
 * the service applies migrations with `packages/db/src/migrate.ts`.
 */
import { readFileSync, readdirSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

const SCHEMA_PATH = join(__dirname, 'schema.prisma');
const MIGRATIONS_DIR = join(__dirname, 'migrations');
const NO_FILTERS = { externalTables: [], externalEnums: [] };

// The engine's wasm module is large; compile it once per process.
// (Node has WebAssembly; TypeScript declares it only with the DOM library, which this project leaves out.)
const { WebAssembly } = globalThis as unknown as { WebAssembly: WasmApi };
interface WasmApi {
  Module: new (bytes: Buffer) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

// biome-ignore lint/suspicious/noExplicitAny: the schema engine's wasm-bindgen glue ships without types.
type Bindings = Record<string, any>;
let bindings: Bindings | undefined;
/** Timers the engine armed and has not fired; cleared when an engine call is over. */
const engineTimers = new Set<NodeJS.Timeout>();

/**
 * Loads the engine once per process. The package's main entry imports the .wasm as an ES module,
 * which Node 20 refuses, so we load the wasm-bindgen glue and instantiate the module ourselves.
 */
function loadBindings(): Bindings {
  if (bindings) return bindings;
  const bg = require('@prisma/schema-engine-wasm/schema_engine_bg');
  const wasmPath = join(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'), '../schema_engine_bg.wasm');
  const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(wasmPath)), {
    './schema_engine_bg.js': withTrackedTimers(bg),
  });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
  bindings = bg as Bindings;
  return bindings;
}

/**
 * The engine arms timers (a 10-second lock timeout) that outlive the call that armed them: they
 * would keep a finished `pnpm db:migrate` alive, and fire into an engine already freed. We unref
 * them, and clear those still pending once the engine call is over.
 */
function withTrackedTimers(bg: Bindings): Bindings {
  const imports: Bindings = { ...bg };
  for (const [name, fn] of Object.entries(bg)) {
    if (name.startsWith('__wbg_setTimeout_') && typeof fn === 'function') {
      imports[name] = (callback: () => void, ms: number) => {
        const timer: NodeJS.Timeout = fn(() => {
          engineTimers.delete(timer);
          callback();
        }, ms);
        timer.unref();
        engineTimers.add(timer);
        return timer;
      };
    }
  }
  return imports;
}

async function withEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  // biome-ignore lint/suspicious/noExplicitAny: the schema engine's wasm-bindgen glue ships without types.
  use: (engine: any, schema: string) => Promise<T>,
): Promise<T> {
  const bg = loadBindings();
  const schema = readFileSync(SCHEMA_PATH, 'utf8');
  const connections: SqlDriverAdapter[] = [];
  const track = async (open: Promise<SqlDriverAdapter>) => {
    const adapter = await open;
    connections.push(adapter);
    return adapter;
  };
  // The engine opens its own connections (a pool, for pg) and takes a session advisory lock on one;
  // they must be closed when it is done, or the lock outlives the migration and blocks other processes.
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: () => track(adapterFactory.connect()),
    connectToShadowDb: () => track(adapterFactory.connectToShadowDb()),
  };
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[SCHEMA_PATH, schema]] },
    () => {},
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  try {
    return await use(engine, schema);
  } finally {
    for (const timer of engineTimers) clearTimeout(timer);
    engineTimers.clear();
    engine.free();
    await Promise.all(connections.map((c) => c.dispose().catch(() => undefined)));
  }
}

function migrationsList() {
  const dirs = existsSync(MIGRATIONS_DIR)
    ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = join(MIGRATIONS_DIR, 'migration_lock.toml');
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((path) => ({
      path,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: readFileSync(join(MIGRATIONS_DIR, path, 'migration.sql'), 'utf8') },
      },
    })),
  };
}

/** Writes a migration that takes the schema from the last migration to `schema.prisma`; null when none is needed. */
async function createMigration(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  name: string,
): Promise<string | null> {
  return withEngine(adapterFactory, async (engine, schema) => {
    const list = migrationsList();
    const from = list.migrationDirectories.length ? { tag: 'migrations', ...list } : { tag: 'empty' };
    const diff = await engine.diff({
      from,
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    });
    const script: string = diff.stdout ?? '';
    if (!script.trim() || /^-- This is an empty migration\.\s*$/.test(script.trim())) return null;
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = join(MIGRATIONS_DIR, `${stamp}_${name.replace(/\W+/g, '_')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'migration.sql'), script);
    const lock = join(MIGRATIONS_DIR, 'migration_lock.toml');
    if (!existsSync(lock))
      writeFileSync(
        lock,
        '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
      );
    return dir;
  });
}

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name) {
    console.error('usage: pnpm db:migration:create <name>');
    process.exitCode = 2;
    return;
  }
  const pglite = new PGlite();
  try {
    const dir = await createMigration(new PrismaPGlite(pglite), name);
    console.log(dir ? `Created ${dir}` : 'No schema changes: no migration written.');
  } finally {
    await pglite.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
