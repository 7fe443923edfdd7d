/**
 * Loaded into the server by `pnpm bench -- --statements` (`node --import <this file>`): counts the SQL
 * statements and Redis commands each HTTP request sends, and appends one line per request to the file
 * named by BENCH_STATEMENT_LOG: `<X-Request-Id> METHOD path status sql=N redis=M` then the statements,
 * indented. A request's work is told apart from background work (webhook dispatcher, heartbeats) by an
 * AsyncLocalStorage context opened when the request arrives. For measuring only; never loaded in service.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

interface Counted {
  sql: string[];
  redis: string[];
}

const logFile = process.env.BENCH_STATEMENT_LOG;
if (!logFile) throw new Error('statement-counter: BENCH_STATEMENT_LOG is not set');
const context = new AsyncLocalStorage<Counted>();
const root = process.cwd();
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 400);

// pg: every statement goes through Client#query (the pool's and Prisma's adapter's alike).
const pg = createRequire(resolve(root, 'packages/db/package.json'))('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  const config = args[0] as string | { text?: string; name?: string };
  context.getStore()?.sql.push(oneLine(typeof config === 'string' ? config : `${config.name ? `[${config.name}] ` : ''}${config.text ?? ''}`));
  return query.apply(this, args);
};

// PGlite (embedded): queries, scripts and transactions.
const { PGlite } = createRequire(resolve(root, 'packages/db/package.json'))('@electric-sql/pglite') as {
  PGlite: { prototype: Record<'query' | 'exec' | 'transaction', (...args: unknown[]) => Promise<unknown>> };
};
for (const method of ['query', 'exec'] as const) {
  const original = PGlite.prototype[method];
  PGlite.prototype[method] = function (this: unknown, ...args: unknown[]) {
    context.getStore()?.sql.push(oneLine(String(args[0])));
    return original.apply(this, args);
  };
}
const transaction = PGlite.prototype.transaction;
PGlite.prototype.transaction = function (this: unknown, ...args: unknown[]) {
  const store = context.getStore();
  store?.sql.push('BEGIN');
  const run = args[0] as (tx: Record<'query' | 'exec', (...a: unknown[]) => unknown>) => Promise<unknown>;
  return transaction
    .call(this, (tx: Record<'query' | 'exec', (...a: unknown[]) => unknown>) => {
      for (const method of ['query', 'exec'] as const) {
        const original = tx[method].bind(tx);
        tx[method] = (...a: unknown[]) => {
          store?.sql.push(oneLine(String(a[0])));
          return original(...a);
        };
      }
      return run(tx);
    })
    .finally(() => store?.sql.push('COMMIT (or ROLLBACK)'));
};

// ioredis: every command goes through Redis#sendCommand.
const { Redis } = createRequire(resolve(root, 'apps/server/package.json'))('ioredis') as { Redis: { prototype: { sendCommand: (...args: unknown[]) => unknown } } };
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: unknown, ...args: unknown[]) {
  context.getStore()?.redis.push(String((args[0] as { name?: string }).name));
  return sendCommand.apply(this, args);
};

const DISPATCHER = /^UPDATE webhook_deliveries AS d SET lease_until/;

// HTTP: one context per request, written out when the answer has gone.
const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
  if (event !== 'request') return emit.call(this, event, ...args);
  const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
  const counted: Counted = { sql: [], redis: [] };
  res.on('finish', () => {
    // The dispatcher's claim, started by a request's nudge, is the dispatcher's work, not the request's.
    const background = counted.sql.filter((s) => DISPATCHER.test(s));
    counted.sql = counted.sql.filter((s) => !DISPATCHER.test(s));
    const lines = [`${req.headers['x-request-id'] ?? '-'} ${req.method} ${req.url} ${res.statusCode} sql=${counted.sql.length} redis=${counted.redis.length}`];
    for (const s of counted.sql) lines.push(`    ${s}`);
    if (counted.redis.length) lines.push(`    redis: ${counted.redis.join(' ')}`);
    for (const b of background) lines.push(`    (not counted: the dispatcher, nudged) ${b}`);
    appendFileSync(logFile, `${lines.join('\n')}\n`);
  });
  return context.run(counted, () => emit.call(this, event, ...args));
} as typeof http.Server.prototype.emit;
