/**
 * Statements that stand alone go over pipelined connections (pipeline.ts). What must hold is what a
 * pooled connection per statement gave: each statement is its own transaction, one caller's failure is
 * not another's, a statement held up by a lock does not hold up the next turn's, and a lost or timed-out
 * connection is replaced. On PostgreSQL, through a TCP proxy the test can cut (proxied-database.ts).
 */
import { Client } from 'pg';
import { createPipeline } from '../src/pipeline';
import { sqlOf, statement, transaction } from '../src/sql';
import { proxiedDatabaseForSuite, sql } from './proxied-database';

const INSERT = statement('test_pipe_insert', 'INSERT INTO probe (id) VALUES ($1::text) RETURNING id');
const UPDATE = statement('test_pipe_update', `UPDATE probe SET id = $2::text WHERE id = $1::text RETURNING id`);
const BACKEND = statement('test_pipe_backend', 'SELECT pg_backend_pid() AS pid');
const SLEEP = statement('test_pipe_sleep', 'SELECT pg_sleep($1::float8)');
const PLAN_MODE = statement('test_pipe_plan_mode', `SELECT current_setting('plan_cache_mode') AS mode`);

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('pipelined statements on PostgreSQL', () => {
  const suite = proxiedDatabaseForSuite();
  const rows = <R>(s: ReturnType<typeof statement>, values: unknown[]) => sqlOf(suite().db.prisma).rows<R>(s, values);
  const pid = async () => (await rows<{ pid: number }>(BACKEND, []))[0]!.pid;


  it('when statements are asked for in one turn, then they share one connection, and each is a transaction of its own: a failing one fails alone', async () => {
    const [pids, first, duplicate, second] = await Promise.all([
      Promise.all([pid(), pid(), pid()]),
      rows(INSERT, ['a']).then(
        () => 'ok',
        (err: Error) => err.message,
      ),
      rows(INSERT, ['a']).then(
        () => 'ok',
        (err: Error) => err.message,
      ),
      rows(INSERT, ['b']).then(
        () => 'ok',
        (err: Error) => err.message,
      ),
    ]);
    expect(new Set(pids).size).toBe(1);
    expect([first, second]).toEqual(['ok', 'ok']);
    expect(duplicate).toMatch(/duplicate key/);
    expect(await suite().probes()).toEqual(['a', 'b']);
  });

  it('when a statement stands alone, then its connection plans it once for all values; a transaction’s connection keeps the server’s choice', async () => {
    expect(await rows(PLAN_MODE, [])).toEqual([{ mode: 'force_generic_plan' }]);
    const inTransaction = await transaction(suite().db.prisma, (tx) => sqlOf(tx).rows(PLAN_MODE, []));
    expect(inTransaction).toEqual([{ mode: 'auto' }]);
  });

  it('when a connection’s setup fails, then what waited for it fails with that error, the connection is closed, and the next use opens another', async () => {
    const opened: Client[] = [];
    let setups = 0;
    const pipeline = createPipeline(
      () => {
        const client = new Client({ connectionString: suite().url });
        opened.push(client);
        return client;
      },
      1,
      async (client) => {
        setups += 1;
        if (setups === 1) await client.query('SET plan_cache_mode = no_such_mode');
        else await client.query('SET plan_cache_mode = force_generic_plan');
      },
    );
    try {
      const failed = await pipeline.query({ ...PLAN_MODE, values: [] }).then(
        () => 'answered',
        (err: Error) => err.message,
      );
      expect(failed).toMatch(/invalid value for parameter "plan_cache_mode"/);
      expect((opened[0] as unknown as { _ending: boolean })._ending).toBe(true);
      expect((await pipeline.query({ ...PLAN_MODE, values: [] })).rows).toEqual([{ mode: 'force_generic_plan' }]);
      expect(opened).toHaveLength(2);
    } finally {
      await pipeline.end();
    }
  });

  it('when pg cannot send one statement’s value, then it fails alone, and from the next turn its statement runs on a fresh connection', async () => {
    const before = await pid();
    const [refused, sameTurn] = await Promise.all([
      rows(INSERT, [{ cannot: 1n }]).then(
        () => 'sent',
        (err: Error) => err.name,
      ),
      rows(BACKEND, []),
    ]);
    expect(refused).toBe('TypeError');
    expect(sameTurn).toEqual([{ pid: before }]);
    // pg closes the statement it had just prepared for the refused one but still counts it as prepared on
    // that connection (a later use would fail with "prepared statement does not exist", as it would on a
    // pooled connection): the statement is sent again from the next turn, on a new connection.
    await nextTurn();
    expect(await rows(INSERT, ['next-turn'])).toEqual([{ id: 'next-turn' }]);
    expect(await pid()).not.toBe(before);
    expect(await suite().probes()).toEqual(['next-turn']);
  });

  it('when a statement waits for a lock a transaction holds, then the next turn’s statements go to another connection and are answered meanwhile', async () => {
    await rows(INSERT, ['locked']);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = transaction(suite().db.prisma, async (tx) => {
      await sqlOf(tx).rows(UPDATE, ['locked', 'locked-by-transaction']);
      locked();
      await held;
    });
    await isLocked;
    const blocked = rows(UPDATE, ['locked', 'never']); // waits for the transaction's row lock
    await nextTurn();
    await nextTurn();
    let giveUp: NodeJS.Timeout | undefined;
    const heldUp = new Promise((r) => {
      giveUp = setTimeout(() => r('held up'), 2000);
    });
    const answered = await Promise.race([rows(INSERT, ['meanwhile']).then(() => 'answered'), heldUp]);
    clearTimeout(giveUp); // else it keeps Jest waiting for it after the last test
    expect(answered).toBe('answered');
    release();
    await holder;
    expect(await blocked).toEqual([]); // the row it waited for was renamed by the transaction
    expect(await suite().probes()).toEqual(['locked-by-transaction', 'meanwhile']);
  });

  it('when a pipelined connection is lost, then what was in flight on it fails and the next statements run on a new one', async () => {
    const before = await pid();
    const inFlight = rows(SLEEP, [0.5]).catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 100));
    await sql(suite().url, `SELECT pg_terminate_backend(${before})`);
    expect(await inFlight).toBeInstanceOf(Error);
    await rows(INSERT, ['after-loss']);
    expect(await suite().probes()).toEqual(['after-loss']);
  });

  /** What the service answers 503 for (packages/http/src/errors.ts), as the pipeline says it. */
  const UNAVAILABLE = /Query read timeout|Connection terminated|timeout exceeded when trying to connect/;

  it('when a statement is not answered within the query timeout, then it fails, and the next statements are answered once the network is back', async () => {
    await pid();
    await suite().proxy.cut('blackhole');
    try {
      await expect(rows(SLEEP, [0])).rejects.toThrow(UNAVAILABLE);
    } finally {
      await suite().proxy.restore({ heal: true });
    }
    await rows(INSERT, ['after-timeout']);
    expect(await suite().probes()).toEqual(['after-timeout']);
  });

  it('when the server cannot be reached, then every statement fails as unavailable, in flight or still to connect, and the next are answered once it can be', async () => {
    await suite().proxy.cut('blackhole');
    let answers: string[];
    try {
      const failure = () => rows(SLEEP, [0]).then(() => 'answered', (err: Error) => err.message);
      const first = [failure(), failure()];
      await nextTurn();
      const second = failure();
      answers = await Promise.all([...first, second]);
    } finally {
      await suite().proxy.restore();
    }
    for (const answer of answers) expect(answer).toMatch(UNAVAILABLE);
    await rows(INSERT, ['after-cut']);
    expect(await suite().probes()).toEqual(['after-cut']);
  });
});
