/**
 * Prisma migrations without the native schema engine: the same engine compiled to WebAssembly, run
 * over our driver adapter (PGlite or pg). The layout stays Prisma's own (`prisma/migrations/<ts>_<name>/
 * migration.sql`, `migration_lock.toml`, table `_prisma_migrations`), so `prisma migrate deploy` on a
 * machine with internet sees the same history.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';

export const PRISMA_DIR = resolve(__dirname, '../../../prisma');
const SCHEMA_PATH = join(PRISMA_DIR, 'schema.prisma');
const MIGRATIONS_DIR = join(PRISMA_DIR, 'migrations');
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

/** Applies every migration not yet applied; returns the names applied by this call. */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  if (await everyMigrationApplied(adapterFactory)) return [];
  return withEngine(adapterFactory, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: migrationsList(), filters: NO_FILTERS });
    return out.appliedMigrationNames as string[];
  });
}

/**
 * Writes a new migration that takes the schema from the last migration to the current schema.prisma.
 * Developer tool: it diffs the migration history against the schema, so it needs no shadow database.
 */
export async function createMigration(
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

/**
 * On a PostgreSQL server whose `_prisma_migrations` already records every migration folder as finished,
 * with the checksum of its file as it is now, there is nothing to apply: the engine (about 75 MB of
 * WebAssembly, kept for the life of the process once loaded) is not loaded at all. Any doubt (no table,
 * a missing, failed, rolled-back or changed migration, an error) leaves the decision to the engine.
 * Embedded PGlite always goes through the engine: its adapter shares the one in-process database.
 */
async function everyMigrationApplied(adapterFactory: SqlMigrationAwareDriverAdapterFactory): Promise<boolean> {
  if (adapterFactory.adapterName !== '@prisma/adapter-pg') return false;
  const local = migrationsList().migrationDirectories.map((d) => ({
    name: d.path,
    checksum: createHash('sha256').update(d.migrationFile.content.value).digest('hex'),
  }));
  let adapter: SqlDriverAdapter | undefined;
  try {
    adapter = await adapterFactory.connect();
    const result = await adapter.queryRaw({
      sql: 'SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      args: [],
      argTypes: [],
    });
    const applied = new Set(result.rows.map((row) => `${String(row[0])}:${String(row[1])}`));
    return local.every((m) => applied.has(`${m.name}:${m.checksum}`));
  } catch {
    return false;
  } finally {
    await adapter?.dispose().catch(() => undefined);
  }
}
