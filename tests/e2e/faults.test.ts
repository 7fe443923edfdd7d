/**
 * Faults, on started processes sharing one PostgreSQL database: a process killed mid-request,
 * PostgreSQL and Redis taken away (through a TCP proxy of the test, never by touching the real
 * servers), a credit bureau that is slow or gone, and SIGTERM while a request is in flight.
 * Each figure the issue names is measured and bounded.
 */
import { connect } from 'node:net';
import { REDIS_URL, VALID_STEPS, createTestContext, validApplicant, type TestContext } from '../support';
import { answers, startFakeBureau, type FakeBureau } from '../../packages/http/test/bureau/fake-bureau';
import { api, clusterSecrets, startServer, tempDataDir, tempRedisPrefix, type Started } from './process';
import { startTcpProxy, type Cut, type TcpProxy } from './tcp-proxy';

jest.setTimeout(90_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HEARTBEAT_MS = 250;
const STALE_MS = 1500;
/** Variant A processes in live mode: L's bureau attempts are bounded by this. */
const BUREAU_TIMEOUT_MS = 1000;
/** The live client's documented worst case: two attempts and at most 300 ms of pauses. */
const BUREAU_BOUND_MS = 2 * BUREAU_TIMEOUT_MS + 300;
const RATE_LIMIT = 30;

interface Answer {
  status: number;
  body: { success?: boolean; data?: any; error?: string | { code?: string } };
  headers: Headers;
  ms: number;
}

/** One request, timed; a request that got no answer within 10 s reports status 0 instead of hanging the test. */
async function call(
  base: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await api(base, method, path, { ...options, timeoutMs: 10_000 });
    return { status: res.status, body: res.body ?? {}, headers: res.headers, ms: performance.now() - started };
  } catch {
    return { status: 0, body: {}, headers: new Headers(), ms: performance.now() - started };
  }
}

const codeOf = (a: Answer) => (typeof a.body.error === 'object' ? a.body.error?.code : a.body.error);
const originOf = (url: string) => new URL(url).origin;

/** An application with steps 1-4 saved, ready for its credit check. */
async function prepared(base: string, key: string): Promise<string> {
  const created = await call(base, 'POST', '/applications', {
    key,
    body: { formType: 'personal', data: VALID_STEPS.personal[1] },
  });
  expect(created.status).toBe(201);
  const id = created.body.data.applicationId;
  for (const step of [2, 3, 4] as const) {
    expect(
      (await call(base, 'PATCH', `/applications/${id}`, { key, body: { step, data: VALID_STEPS.personal[step] } }))
        .status,
    ).toBe(200);
  }
  return id;
}

const check = (base: string, key: string, id: string, idempotencyKey: string) =>
  call(base, 'POST', `/applications/${id}/credit-check`, {
    key,
    body: { data: validApplicant() },
    headers: { 'Idempotency-Key': idempotencyKey },
  });

/** Whether a new TCP connection to the port is refused (nothing listens there any more). */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** Waits until `done()` holds, checking every 10 ms. */
async function waitFor(done: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`not within ${limitMs} ms: ${what}`);
    await sleep(10);
  }
}

/** Calls `request` every `everyMs` until `done` holds; answers the last answer and when it came (ms after `since`). */
async function until(
  request: () => Promise<Answer>,
  done: (a: Answer) => boolean,
  since: number,
  limitMs = 10_000,
  everyMs = 100,
) {
  const seen: Answer[] = [];
  while (performance.now() - since < limitMs) {
    const a = await request();
    seen.push(a);
    if (done(a)) return { answer: a, afterMs: performance.now() - since, seen };
    await sleep(everyMs);
  }
  throw new Error(
    `not within ${limitMs} ms; last answers: ${seen
      .slice(-3)
      .map((a) => `${a.status} ${codeOf(a)}`)
      .join(', ')}`,
  );
}

describe('faults on processes sharing one PostgreSQL', () => {
  let test: TestContext & { url?: string };
  let hanging: FakeBureau; // never answers: holds K's credit check in flight
  let bureau: FakeBureau; // answers as each test says, behind `bureauProxy`
  let bureauProxy: TcpProxy;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  const started: Started[] = [];
  /** K: all listeners, live, bureau that never answers; the one killed. L: Variant A, live. P: Variant A, sandbox, PostgreSQL and Redis through proxies. */
  let K: Started;
  let L: Started;
  let P: Started;
  /** What each test measured, printed once at the end. */
  const figures: string[] = [];
  let liveKey: string;
  let pgKey: string;
  let redisKey: string;

  beforeAll(async () => {
    let hangingBureau: FakeBureau;
    // Migrated and seeded here, so the processes started together do not queue behind one another to seed.
    [test, hangingBureau, bureau, pgProxy, redisProxy] = await Promise.all([
      createTestContext('postgresql'),
      startFakeBureau(),
      startFakeBureau(),
      startTcpProxy({ host: '127.0.0.1', port: 5432 }),
      startTcpProxy({ host: '127.0.0.1', port: Number(new URL(REDIS_URL).port || 6379) }),
    ]);
    hanging = hangingBureau;
    hanging.behave(() => undefined);
    bureauProxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(bureau.url).port) });

    const secrets = clusterSecrets();
    const adminToken = secrets.ADMIN_TOKEN;
    const shared = {
      ...secrets,
      DATABASE_URL: test.url!,
      REDIS_URL,
      REDIS_PREFIX: await tempRedisPrefix(),
      INSTANCE_HEARTBEAT_MS: String(HEARTBEAT_MS),
      INSTANCE_STALE_MS: String(STALE_MS),
      DB_POOL_SIZE: '4',
    };
    const viaProxy = (url: string, proxy: TcpProxy) =>
      Object.assign(new URL(url), { host: `127.0.0.1:${proxy.port}` }).toString();
    const starts = await Promise.allSettled([
      startServer({
        mode: 'all',
        env: {
          ...shared,
          DATA_DIR: tempDataDir(),
          LOANMATCH_ENV: 'live',
          BUREAU_URL: hanging.url,
          BUREAU_TIMEOUT_MS: '60000',
        },
      }),
      startServer({
        mode: 'a',
        env: {
          ...shared,
          DATA_DIR: tempDataDir(),
          LOANMATCH_ENV: 'live',
          BUREAU_URL: `http://127.0.0.1:${bureauProxy.port}`,
          BUREAU_TIMEOUT_MS: String(BUREAU_TIMEOUT_MS),
        },
      }),
      startServer({
        mode: 'a',
        env: {
          ...shared,
          DATA_DIR: tempDataDir(),
          DATABASE_URL: viaProxy(test.url!, pgProxy),
          REDIS_URL: viaProxy(REDIS_URL, redisProxy),
          RATE_LIMIT_A_PER_MINUTE: String(RATE_LIMIT),
          // DB_CONNECT_TIMEOUT_MS and DB_QUERY_TIMEOUT_MS at their defaults: answers within 2 s as shipped.
        },
      }),
    ]);
    for (const s of starts) if (s.status === 'fulfilled') started.push(s.value);
    const failed = starts.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    [K, L, P] = started;

    const partner = async (name: string, environment: string) => {
      const res = await call(K.urls['Admin API'], 'POST', '/partners', {
        key: adminToken,
        body: { name, environment },
      });
      expect(res.status).toBe(201);
      return res.body.data.apiKey as string;
    };
    [liveKey, pgKey, redisKey] = await Promise.all([
      partner('Live', 'live'),
      partner('Database outage', 'sandbox'),
      partner('Redis outage', 'sandbox'),
    ]);
  });

  afterAll(async () => {
    if (figures.length) console.log(`Measured:\n  ${figures.join('\n  ')}`);
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
    await Promise.all([hanging, bureau, bureauProxy, pgProxy, redisProxy].map((x) => x?.close()));
    await test?.close();
  });

  describe('the credit bureau slow or gone (live mode)', () => {
    // [what, how to break it, least and most time the check may take]: a timeout is waited out (twice,
    // with the one retry), a refusal is not.
    const cases: Array<[string, () => Promise<void>, number, number]> = [
      [
        'answers only after three times the timeout',
        async () => bureau.behave(answers.slow(3 * BUREAU_TIMEOUT_MS)),
        BUREAU_TIMEOUT_MS,
        BUREAU_BOUND_MS,
      ],
      ['refuses connections', () => bureauProxy.cut('refuse'), 0, BUREAU_TIMEOUT_MS],
      ['accepts connections and never answers', () => bureauProxy.cut('blackhole'), BUREAU_TIMEOUT_MS, BUREAU_BOUND_MS],
    ];
    it.each(cases)(
      'when the bureau %s, then the check completes in degraded mode within its bound',
      async (what, breakIt, leastMs, boundMs) => {
        const A = L.urls['Variant A'];
        const id = await prepared(A, liveKey);
        await breakIt();
        try {
          const checked = await check(A, liveKey, id, `degraded-${id}`);
          expect(checked.status).toBe(200);
          expect(checked.body.data).toMatchObject({
            creditCheckComplete: true,
            degraded_mode: true,
            sandbox_mode: false,
          });
          expect(checked.ms).toBeGreaterThanOrEqual(leastMs);
          expect(checked.ms).toBeLessThan(boundMs + 750); // timers run late on a loaded machine
          figures.push(
            `bureau ${what}: degraded in ${Math.round(checked.ms)} ms (timeout ${BUREAU_TIMEOUT_MS} ms, bound ${BUREAU_BOUND_MS} ms)`,
          );
        } finally {
          await bureauProxy.restore();
          bureau.behave(answers.score(700));
        }
      },
    );
  });

  it('when a process is killed with SIGKILL mid-request, then nothing committed is lost, its key turns IDEMPOTENCY_KEY_UNRESOLVED on another process, and the others keep serving', async () => {
    const [AK, AL] = [K.urls['Variant A'], L.urls['Variant A']];
    const id = await prepared(AK, liveKey); // committed on K
    const inFlight = check(AK, liveKey, id, 'killed-mid-check');
    await waitFor(() => hanging.requests.length === 1, 'the check reaches the bureau');
    // K is alive and holds the key: another process says the first request is still running.
    const whileAlive = await check(AL, liveKey, id, 'killed-mid-check');
    expect([whileAlive.status, codeOf(whileAlive)]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);

    K.child.kill('SIGKILL');
    const killedAt = performance.now();
    expect((await inFlight).status).toBe(0); // the connection died with the process

    const read = await call(AL, 'GET', `/applications/${id}`, { key: liveKey });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      applicationId: id,
      status: 'in_progress',
      lastStep: 4,
      creditCheckComplete: false,
    });
    expect(Object.keys(read.body.data.steps)).toEqual(['1', '2', '3', '4']);

    const unresolved = await until(
      () => check(AL, liveKey, id, 'killed-mid-check'),
      (a) => a.status !== 409 || codeOf(a) !== 'IDEMPOTENCY_IN_PROGRESS',
      killedAt,
    );
    expect([unresolved.answer.status, codeOf(unresolved.answer)]).toEqual([409, 'IDEMPOTENCY_KEY_UNRESOLVED']);
    expect(unresolved.afterMs).toBeLessThan(STALE_MS + 2 * HEARTBEAT_MS + 1000);
    figures.push(
      `SIGKILL: key unresolved on the other process ${Math.round(unresolved.afterMs)} ms after the kill (stale after ${STALE_MS} ms)`,
    );
    const again = await check(AL, liveKey, id, 'killed-mid-check');
    expect([again.status, codeOf(again)]).toEqual([409, 'IDEMPOTENCY_KEY_UNRESOLVED']);

    // The dead process's claim on the check is taken over: a new key runs the check once, on L.
    const retried = await check(AL, liveKey, id, 'after-the-kill');
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ creditCheckComplete: true, degraded_mode: false });
    expect((await call(AL, 'GET', `/applications/${id}`, { key: liveKey })).body.data).toMatchObject({
      status: 'credit_checked',
      lastStep: 5,
    });
    expect((await call(P.urls['Variant A'], 'GET', `/applications/${id}`, { key: pgKey })).status).toBe(404); // P serves too (another partner's)
  });

  describe.each<Cut>(['refuse', 'blackhole'])('PostgreSQL unreachable (%s)', (how) => {
    it('when cut, then requests answer 503 SERVICE_UNAVAILABLE within 2 s, /readyz 503 and /healthz 200; when restored, it serves again without a restart', async () => {
      const A = P.urls['Variant A'];
      const root = originOf(A);
      const id = await prepared(A, pgKey);
      expect((await call(root, 'GET', '/readyz')).status).toBe(200);

      await pgProxy.cut(how);
      let answers: Array<[string, Answer]>;
      try {
        const asked = await Promise.all([
          call(A, 'GET', `/applications/${id}`, { key: pgKey }),
          call(A, 'POST', '/applications', { key: pgKey, body: { formType: 'personal', data: { loanAmount: 9000 } } }),
          call(A, 'PATCH', `/applications/${id}`, { key: pgKey, body: { step: 2, data: VALID_STEPS.personal[2] } }),
          check(A, pgKey, id, `cut-${how}`),
          call(root, 'GET', '/readyz'),
          call(root, 'GET', '/healthz'),
        ]);
        answers = ['GET', 'create', 'PATCH', 'credit check', '/readyz'].map((what, i) => [what, asked[i]]);
        expect(asked[5].status).toBe(200);
      } finally {
        await pgProxy.restore();
      }
      const restoredAt = performance.now();
      figures.push(
        `PostgreSQL ${how}: ${answers.map(([what, a]) => `${what} ${a.status} in ${Math.round(a.ms)} ms`).join(', ')}`,
      );
      for (const [what, a] of answers) {
        expect([what, a.status, codeOf(a)]).toEqual([what, 503, 'SERVICE_UNAVAILABLE']);
        expect(a.body.success).toBe(false);
        expect(a.ms).toBeLessThan(2000);
      }

      const ready = await until(
        () => call(root, 'GET', '/readyz'),
        (a) => a.status === 200,
        restoredAt,
      );
      figures.push(`PostgreSQL ${how}: /readyz 200 again ${Math.round(ready.afterMs)} ms after the restore`);
      expect(ready.afterMs).toBeLessThan(5000);
      expect(P.child.exitCode).toBeNull();
      expect((await call(A, 'GET', `/applications/${id}`, { key: pgKey })).status).toBe(200);
      expect(
        (
          await call(A, 'POST', '/applications', {
            key: pgKey,
            body: { formType: 'personal', data: { loanAmount: 9000 } },
          })
        ).status,
      ).toBe(201);
      expect((await check(A, pgKey, id, `after-${how}`)).status).toBe(200);
    });
  });

  describe.each<Cut>(['refuse', 'blackhole'])('Redis unreachable (%s)', (how) => {
    it('when cut, then requests are served, limited by the process on its own, with a log line; when restored, shared limiting resumes', async () => {
      const A = P.urls['Variant A'];
      const get = () => call(A, 'GET', '/applications/00000000-0000-4000-8000-000000000000', { key: redisKey });
      // Fill this key's window (shared with the previous case: the window is a minute) until refused.
      const filled = await until(get, (a) => a.status === 429, performance.now(), 10_000, 0);
      expect(filled.seen.every((a) => a.status === 404 || a.status === 429)).toBe(true);
      const logBefore = P.output().length;

      await redisProxy.cut(how);
      const served: Answer[] = [];
      try {
        for (let i = 0; i < 5; i++) served.push(await get());
        served.push(
          await call(A, 'POST', '/applications', {
            key: redisKey,
            body: { formType: 'personal', data: { loanAmount: 7000 } },
          }),
        );
      } finally {
        await redisProxy.restore();
      }
      const restoredAt = performance.now();
      figures.push(`Redis ${how}: ${served.map((a) => `${a.status} in ${Math.round(a.ms)} ms`).join(', ')}`);
      expect(served.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 201]);
      for (const a of served) expect(a.ms).toBeLessThan(2000);
      expect(P.output().slice(logBefore)).toContain('rate limit store failed; counting in this process');

      const limited = await until(get, (a) => a.status === 429, restoredAt);
      figures.push(`Redis ${how}: limiting resumed ${Math.round(limited.afterMs)} ms after the restore`);
      expect(limited.afterMs).toBeLessThan(5000);
    });
  });

  it('when SIGTERM arrives during a slow credit check, then new connections are refused, the check answers 200, and the process exits 0', async () => {
    const A = L.urls['Variant A'];
    const id = await prepared(A, liveKey);
    // The bureau holds its answer until the test has seen new connections refused, so the check is
    // certainly in flight at that moment, whatever the machine's load; it is answered well within the timeout.
    let release: (() => void) | undefined;
    bureau.behave((res) => (release = () => answers.score(700)(res, 1)));
    let answered = false;
    const inFlight = check(A, liveKey, id, 'drained').finally(() => (answered = true));
    await waitFor(() => release !== undefined, 'the check reaches the bureau');

    const exited = L.stop('SIGTERM');
    const signalledAt = performance.now();
    const port = Number(new URL(A).port);
    let refused = false;
    while (!refused && performance.now() - signalledAt < 2000) refused = await connectionRefused(port);
    const refusedAfterMs = performance.now() - signalledAt;
    expect(refused).toBe(true);
    expect(answered).toBe(false); // refused while the check was still running
    release!();
    const drained = await inFlight;
    figures.push(
      `SIGTERM: new connections refused ${Math.round(refusedAfterMs)} ms after the signal; the check in flight answered ${drained.status}`,
    );
    expect(drained.status).toBe(200);
    expect(drained.body.data).toMatchObject({ creditCheckComplete: true, degraded_mode: false });
    expect(await exited).toBe(0);
  });
});
