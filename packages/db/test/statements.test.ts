/**
 * Statements outside a transaction, on PostgreSQL, through the pool. What must hold: each statement is
 * its own transaction, one caller's failure is not another's, and a lost or timed-out connection is
 * replaced. Through a TCP proxy the test can cut (proxied-database.ts), with a pool of one connection.
 */
import { eventually } from '../../../tests/support/eventually';
import { proxiedDatabaseForSuite, sql } from './proxied-database';

const INSERT = 'INSERT INTO probe (id) VALUES ($1::text) RETURNING id';
const BACKEND = 'SELECT pg_backend_pid() AS pid';
const SLEEP = 'SELECT pg_sleep($1::float8)';

/** What the service answers 503 for (packages/http/src/errors.ts). */
const UNAVAILABLE = /Query read timeout|Connection terminated|timeout exceeded when trying to connect/;

describe('statements on PostgreSQL', () => {
  const suite = proxiedDatabaseForSuite();
  const rows = <R>(text: string, values: unknown[]) => suite().db.query<R>(text, values);
  const pid = async () => (await rows<{ pid: number }>(BACKEND, []))[0]!.pid;
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err: Error) => err.message,
    );

  it('when statements are asked for at once, then each is a transaction of its own: a failing one fails alone', async () => {
    const [first, duplicate, second] = await Promise.all([
      outcome(rows(INSERT, ['a'])),
      outcome(rows(INSERT, ['a'])),
      outcome(rows(INSERT, ['b'])),
    ]);
    expect([first, second]).toEqual(['ok', 'ok']);
    expect(duplicate).toMatch(/duplicate key/);
    expect(await suite().probes()).toEqual(['a', 'b']);
  });

  it('when a statement is used again, then it is answered again', async () => {
    for (const id of ['x', 'y', 'z']) expect(await rows(INSERT, [id])).toEqual([{ id }]);
    expect(await suite().probes()).toEqual(['x', 'y', 'z']);
  });

  it('when pg cannot send one statement’s value, then that statement fails alone, and the statement is answered afterwards', async () => {
    expect(await rows(INSERT, ['before'])).toEqual([{ id: 'before' }]);
    expect(await outcome(rows(INSERT, [{ cannot: 1n }]))).toMatch(/BigInt/);
    expect(await rows(INSERT, ['after'])).toEqual([{ id: 'after' }]);
    expect(await suite().probes()).toEqual(['after', 'before']);
  });

  it('when a connection is lost, then what was in flight on it fails and the next statements run on a new one', async () => {
    const before = await pid();
    const inFlight = rows(SLEEP, [0.5]).catch((err: Error) => err);
    const running = () =>
      sql(suite().url, `SELECT query FROM pg_stat_activity WHERE pid = ${before} AND state = 'active'`);
    expect(await eventually(running, (found) => found.length > 0)).toEqual([{ query: SLEEP }]);
    await sql(suite().url, `SELECT pg_terminate_backend(${before})`);
    expect(await inFlight).toBeInstanceOf(Error);
    await rows(INSERT, ['after-loss']);
    expect(await pid()).not.toBe(before);
    expect(await suite().probes()).toEqual(['after-loss']);
  });

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

  it('when the server cannot be reached, then every statement fails as unavailable, and the next are answered once it can be', async () => {
    await suite().proxy.cut('blackhole');
    let answers: string[];
    try {
      answers = await Promise.all([1, 2, 3].map(() => outcome(rows(SLEEP, [0]))));
    } finally {
      await suite().proxy.restore();
    }
    for (const answer of answers) expect(answer).toMatch(UNAVAILABLE);
    await rows(INSERT, ['after-cut']);
    expect(await suite().probes()).toEqual(['after-cut']);
  });
});
