/**
 * Statements that stand alone (each a transaction of its own: the busiest reads and one-statement
 * writes of sql.ts), sent over a few connections in pg's pipeline mode instead of one pooled connection
 * per statement (docs/decisions.md, "Issue 7, fourth session").
 *
 * The statements asked for in one turn of the event loop go to one connection in one write (its socket
 * is corked until `setImmediate`), and PostgreSQL answers them in order. Each still ends with its own
 * Sync, so each is its own transaction: one that fails is that caller's failure only, and the server
 * goes on with the next. Transactions of several statements never come here: they take a connection of
 * the pool, which pipelined statements do not use.
 *
 * A connection that fails (the server restarted, a statement past the query timeout, which pg answers
 * by closing a pipelined connection) fails what was sent on it and is replaced on the next use.
 */
import type { Client } from 'pg';

interface PgResult {
  rows: unknown[];
}

interface Lane {
  client?: Client;
  connecting?: Promise<Client>;
  /** Statements sent and not yet answered. */
  pending: number;
}

interface Corkable {
  cork(): void;
  uncork(): void;
  destroy(): void;
  destroyed: boolean;
}

/**
 * A failure the server reports for the session rather than the statement: FATAL or PANIC (the session was
 * ended, as by `pg_terminate_backend` or a shutdown), or class 08 (connection exception). A statement's
 * own failure (a constraint, a cancelled statement: ERROR) leaves the session as it was.
 */
function sessionEnded(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown };
  return e?.severity === 'FATAL' || e?.severity === 'PANIC' || (typeof e?.code === 'string' && e.code.startsWith('08'));
}

/** pg's own state of a client (not in its types): the socket and whether it still takes queries. */
interface ClientState {
  connection: { stream: Corkable };
  _queryable?: boolean;
  _ending?: boolean;
}

const streamOf = (client: Client) => (client as unknown as ClientState).connection.stream;

/**
 * False once the connection is closing, even before its 'end' arrives: a statement timed out a moment ago
 * (pg destroys a pipelined connection then) must not be sent on it.
 */
function usable(client: Client): boolean {
  const state = client as unknown as ClientState;
  return state._queryable !== false && !state._ending && !streamOf(client).destroyed;
}

/**
 * pg's Client says `timeout expired` when it cannot connect in time; its Pool says `timeout exceeded when
 * trying to connect`, which is what the service answers 503 for (packages/http/src/errors.ts): the same here.
 */
function connectFailure(err: unknown): unknown {
  return err instanceof Error && err.message === 'timeout expired' ? new Error('timeout exceeded when trying to connect', { cause: err }) : err;
}

export interface Pipeline {
  query(config: { name: string; text: string; values: unknown[] }): Promise<PgResult>;
  end(): Promise<void>;
}

/**
 * `lanes` connections made by `connect` (not yet connected), each opened on first use. A turn's
 * statements go to the lane with the fewest statements waiting, so a statement held up by a lock
 * (a row another transaction holds) delays only what was sent behind it, and the next turn goes elsewhere.
 * `setup`, when given, runs on each connection once it is open, before any statement is sent on it; if it
 * fails, the connection is closed and what waited for it fails as a connection that could not be opened.
 */
export function createPipeline(connect: () => Client, lanes: number, setup?: (client: Client) => Promise<unknown>): Pipeline {
  const all: Lane[] = Array.from({ length: Math.max(1, lanes) }, () => ({ pending: 0 }));
  let turn: Lane | undefined;
  let ended = false;

  function open(lane: Lane): Promise<Client> {
    if (lane.client && !usable(lane.client)) lane.client = undefined;
    if (lane.client) return Promise.resolve(lane.client);
    if (!lane.connecting) {
      const client = connect();
      const drop = () => {
        if (lane.client === client) lane.client = undefined;
      };
      // A lost connection fails what it had been sent (pg does), and the lane opens a new one next time.
      client.on('error', drop);
      client.on('end', drop);
      lane.connecting = client.connect().then(
        async () => {
          try {
            await setup?.(client);
            if (ended) throw new Error('the database was closed');
          } catch (err) {
            // Not to be used: its setup failed, or the database was closed while it opened.
            lane.connecting = undefined;
            void client.end().catch(() => undefined);
            throw err;
          }
          lane.connecting = undefined;
          lane.client = client;
          return client;
        },
        (err: unknown) => {
          lane.connecting = undefined;
          throw connectFailure(err);
        },
      );
    }
    return lane.connecting;
  }

  /** The turn's lane, and the sockets corked in it: both let go at the end of the turn, in one `setImmediate`. */
  const corked = new Set<Corkable>();
  let endScheduled = false;
  function endOfTurn(): void {
    endScheduled = false;
    turn = undefined;
    for (const stream of corked) stream.uncork();
    corked.clear();
  }
  function atEndOfTurn(): void {
    if (endScheduled) return;
    endScheduled = true;
    setImmediate(endOfTurn);
  }

  function laneOfThisTurn(): Lane {
    if (!turn) {
      turn = all.reduce((best, lane) => (lane.pending < best.pending ? lane : best));
      atEndOfTurn();
    }
    return turn;
  }

  /** Holds the connection's writes until the end of the turn, so that its statements leave in one write. */
  function cork(client: Client): void {
    const stream = streamOf(client);
    if (corked.has(stream)) return;
    corked.add(stream);
    stream.cork();
    atEndOfTurn();
  }

  /** Statements sent on each connection and not yet answered, and connections to close once they are. */
  const inFlight = new Map<Client, number>();
  const retiring = new WeakSet<Client>();

  async function send(lane: Lane, config: { name: string; text: string; values: unknown[] }): Promise<PgResult> {
    const client = lane.client && usable(lane.client) ? lane.client : await open(lane);
    cork(client);
    inFlight.set(client, (inFlight.get(client) ?? 0) + 1);
    try {
      return (await client.query(config)) as PgResult;
    } catch (err) {
      if (lane.client === client) {
        if (sessionEnded(err) || !usable(client)) {
          // The connection failed: not used again, even if its socket has not closed yet (a server that
          // ends the session sends its error first).
          lane.client = undefined;
          streamOf(client).destroy();
        } else if (typeof (err as { code?: unknown })?.code !== 'string') {
          // pg refused to send the statement (a value it could not serialise): the statements sent before
          // it are answered, but pg's record of what this connection has prepared may no longer be true,
          // so new statements go to a new connection and this one closes once its last answer is in.
          lane.client = undefined;
          retiring.add(client);
        }
      }
      throw err;
    } finally {
      const left = (inFlight.get(client) ?? 1) - 1;
      if (left > 0) inFlight.set(client, left);
      else {
        inFlight.delete(client);
        if (retiring.has(client)) void client.end().catch(() => undefined);
      }
    }
  }

  return {
    async query(config) {
      if (ended) throw new Error('the database was closed');
      const lane = laneOfThisTurn();
      lane.pending++;
      try {
        return await send(lane, config);
      } finally {
        lane.pending--;
      }
    },
    async end() {
      ended = true;
      await Promise.all(
        all.map(async (lane) => {
          const client = lane.client ?? (await lane.connecting?.catch(() => undefined));
          lane.client = undefined;
          await client?.end().catch(() => undefined);
        }),
      );
    },
  };
}
