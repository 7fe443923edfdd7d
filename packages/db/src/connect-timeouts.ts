/**
 * The PostgreSQL client the pool makes its connections with: pg's own, except when a statement is not
 * answered within `query_timeout`.
 *
 * pg then fails the statement but keeps the connection, still waiting for the answer and, inside a
 * transaction, with the transaction still open on the server. Prisma's adapter gives a transaction's
 * connection back to the pool after its rollback, and the rollback too timed out: once the network came
 * back, the next caller's statements ran inside the abandoned transaction and were never committed (the
 * test in packages/db/test/query-timeout.test.ts saw exactly that). This client ends the connection
 * instead, so the server rolls the transaction back and the pool drops the connection. pg's `end()`
 * closes the socket at once while a statement is still awaited, so a partition cannot hold it open.
 */
import { Client } from 'pg';

/** pg's message for a statement past `query_timeout` (lib/client.js). */
const READ_TIMEOUT = 'Query read timeout';

type Callback = (err: Error | null | undefined, result?: unknown) => void;

export class TimeoutClosingClient extends Client {
  // pg's overloads of `query` (promise or callback, text or config) are forwarded as they are.
  override query(...args: unknown[]): never {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as Callback;
      args[last] = (err: Error | null | undefined, result?: unknown) => {
        this.closeOnTimeout(err);
        callback(err, result);
      };
    }
    const result = (Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) result.catch((err: Error) => this.closeOnTimeout(err));
    return result as never;
  }

  private closeOnTimeout(err: Error | null | undefined): void {
    if (err?.message === READ_TIMEOUT) void this.end().catch(() => undefined);
  }
}
