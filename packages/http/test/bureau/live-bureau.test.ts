/**
 * The live bureau client against a fake bureau that is a real HTTP server on loopback: healthy,
 * slow, failing, garbage, huge, redirecting, and not there at all. Timings use generous bounds that
 * still fail if a timeout, the retry or the breaker does not work.
 */
import type { BureauRequest } from '@loanmatch/domain';
import { createLiveBureau, type BureauEvent, type LiveBureauOptions } from '../../src';
import { answers, closedPortUrl, startFakeBureau, type Behaviour, type FakeBureau } from './fake-bureau';

const APPLICANT = {
  firstName: 'Matilda',
  lastName: 'Quokkason',
  dateOfBirth: '1988-04-12',
  email: 'matilda.quokkason@example.com.au',
  mobileNumber: '0412345678',
  unitNumber: '4',
  streetNumber: '12',
  streetName: 'Wattlebird',
  streetType: 'Street',
  suburb: 'Fitzroy',
  state: 'VIC',
  postcode: '3065',
  gender: 'female',
  maritalStatus: 'single',
  consentCreditCheck: true,
  consentMarketing: false,
};
const REQUEST: BureauRequest = { applicationId: 'app_0001', applicant: APPLICANT };
/** What would betray the applicant if it showed up in an event or an error. */
const PERSONAL_VALUES = [
  'Matilda',
  'Quokkason',
  '1988-04-12',
  'matilda.quokkason@example.com.au',
  '0412345678',
  'Wattlebird',
  'Fitzroy',
];

let fake: FakeBureau;

beforeAll(async () => {
  fake = await startFakeBureau();
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.behave(answers.score(700));
});

/** A client on the fake with short timeouts, and the events it reported. */
function liveBureau(options: Partial<LiveBureauOptions> = {}) {
  const events: BureauEvent[] = [];
  const bureau = createLiveBureau({ url: fake.url, timeoutMs: 200, onEvent: (e) => events.push(e), ...options });
  return { bureau, events };
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

describe('a healthy bureau', () => {
  test('when the bureau answers a score, then the answer is available with that score from the bureau', async () => {
    fake.behave(answers.score(742));
    const { bureau } = liveBureau();
    expect(bureau.sandbox).toBe(false);
    await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: true, score: 742, source: 'bureau' });
    expect(fake.requests).toHaveLength(1);
  });

  test('when a score is requested, then one JSON POST to /v1/soft-enquiries carries the reference, identity and address, and nothing else', async () => {
    const { bureau } = liveBureau();
    await bureau.requestScore(REQUEST);
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/v1/soft-enquiries',
        contentType: 'application/json',
        body: {
          reference: 'app_0001',
          firstName: 'Matilda',
          lastName: 'Quokkason',
          dateOfBirth: '1988-04-12',
          email: 'matilda.quokkason@example.com.au',
          mobileNumber: '0412345678',
          unitNumber: '4',
          streetNumber: '12',
          streetName: 'Wattlebird',
          streetType: 'Street',
          suburb: 'Fitzroy',
          state: 'VIC',
          postcode: '3065',
        },
      },
    ]);
  });

  test('when the applicant gave no address, then the enquiry has no address fields', async () => {
    const { bureau } = liveBureau();
    const { firstName, lastName, dateOfBirth, email, mobileNumber } = APPLICANT;
    await bureau.requestScore({
      applicationId: 'app_0002',
      applicant: { firstName, lastName, dateOfBirth, email, mobileNumber },
    });
    expect(Object.keys(fake.requests[0].body as object).sort()).toEqual([
      'dateOfBirth',
      'email',
      'firstName',
      'lastName',
      'mobileNumber',
      'reference',
    ]);
  });

  test('when BUREAU_URL has a path and a trailing slash, then the enquiry goes below that path', async () => {
    const { bureau } = liveBureau({ url: `${fake.url}/bureau/` });
    await bureau.requestScore(REQUEST);
    expect(fake.requests[0].path).toBe('/bureau/v1/soft-enquiries');
  });

  test.each([0, 1200])('when the bureau answers the edge score %i, then it is accepted', async (score) => {
    fake.behave(answers.score(score));
    await expect(liveBureau().bureau.requestScore(REQUEST)).resolves.toEqual({
      available: true,
      score,
      source: 'bureau',
    });
  });
});

describe('a slow bureau', () => {
  test('when the bureau answers after the timeout, then the check is unavailable after two attempts in under 1500 ms', async () => {
    fake.behave(answers.slow(3000));
    const { bureau, events } = liveBureau({ timeoutMs: 200, retries: 1 });
    const { result, ms } = await timed(() => bureau.requestScore(REQUEST));
    expect(result).toEqual({ available: false, source: 'bureau-unavailable' });
    expect(fake.requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(2 * 200 - 20); // both attempts waited for their timeout
    expect(ms).toBeLessThan(1500);
    expect(events).toEqual([
      { type: 'attempt_failed', reason: 'timeout' },
      { type: 'attempt_failed', reason: 'timeout' },
      { type: 'unavailable', reason: 'timeout' },
    ]);
  });

  test('when the bureau sends its headers and then stalls the body, then the timeout still ends the attempt', async () => {
    fake.behave(answers.stalledBody());
    const { bureau, events } = liveBureau({ timeoutMs: 200, retries: 0 });
    const { result, ms } = await timed(() => bureau.requestScore(REQUEST));
    expect(result.available).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'timeout' });
    expect(ms).toBeLessThan(200 + 500);
  });

  test('when the bureau is slow and three retries are allowed, then the whole call stays under timeoutMs x attempts + 500 ms', async () => {
    fake.behave(answers.slow(3000));
    const { bureau } = liveBureau({ timeoutMs: 100, retries: 3 });
    const { result, ms } = await timed(() => bureau.requestScore(REQUEST));
    expect(result.available).toBe(false);
    expect(fake.requests).toHaveLength(4);
    expect(ms).toBeLessThan(100 * 4 + 500);
  });

  test('when the bureau answers just within the timeout, then the score is used', async () => {
    fake.behave(answers.slow(50, 655));
    await expect(liveBureau({ timeoutMs: 1000 }).bureau.requestScore(REQUEST)).resolves.toEqual({
      available: true,
      score: 655,
      source: 'bureau',
    });
  });
});

describe('a failing bureau', () => {
  test('when the bureau answers 500, then the check is unavailable after exactly two attempts with a pause between', async () => {
    fake.behave(answers.status(500));
    const { bureau, events } = liveBureau();
    const { result, ms } = await timed(() => bureau.requestScore(REQUEST));
    expect(result).toEqual({ available: false, source: 'bureau-unavailable' });
    expect(fake.requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(45); // the jittered pause is 50-150 ms
    expect(events.map((e) => e.reason)).toEqual(['http_500', 'http_500', 'http_500']);
  });

  test('when the bureau fails once and then answers, then the one retry gets the score', async () => {
    fake.behave(answers.failOnceThen(answers.status(503), answers.score(612)));
    const { bureau, events } = liveBureau();
    await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: true, score: 612, source: 'bureau' });
    expect(fake.requests).toHaveLength(2);
    expect(events).toEqual([{ type: 'attempt_failed', reason: 'http_503' }]);
  });

  test('when the bureau times out once and then answers, then the one retry gets the score', async () => {
    fake.behave(answers.failOnceThen(answers.slow(3000), answers.score(612)));
    await expect(liveBureau({ timeoutMs: 200 }).bureau.requestScore(REQUEST)).resolves.toEqual({
      available: true,
      score: 612,
      source: 'bureau',
    });
    expect(fake.requests).toHaveLength(2);
  });

  test('when the bureau answers 429, then it is retried once', async () => {
    fake.behave(answers.status(429));
    const { bureau } = liveBureau();
    await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: false, source: 'bureau-unavailable' });
    expect(fake.requests).toHaveLength(2);
  });

  test.each([400, 401, 404, 422])('when the bureau answers %i, then it is not retried', async (status) => {
    fake.behave(answers.status(status));
    const { bureau, events } = liveBureau();
    await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: false, source: 'bureau-unavailable' });
    expect(fake.requests).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: `http_${status}` });
  });

  test('when many retries are allowed, then all pauses together stay within their 300 ms budget', async () => {
    fake.behave(answers.status(500));
    const { result, ms } = await timed(() => liveBureau({ retries: 9 }).bureau.requestScore(REQUEST));
    expect(result.available).toBe(false);
    expect(fake.requests).toHaveLength(10);
    expect(ms).toBeLessThan(450); // nine unbudgeted pauses would take at least 9 x 50 ms
  });

  test('when retries is 0, then a 500 is not retried', async () => {
    fake.behave(answers.status(500));
    await liveBureau({ retries: 0 }).bureau.requestScore(REQUEST);
    expect(fake.requests).toHaveLength(1);
  });

  test('when nothing listens at BUREAU_URL, then the check is unavailable quickly with the connection error as reason', async () => {
    const { bureau, events } = liveBureau({ url: await closedPortUrl() });
    const { result, ms } = await timed(() => bureau.requestScore(REQUEST));
    expect(result).toEqual({ available: false, source: 'bureau-unavailable' });
    expect(ms).toBeLessThan(1000);
    expect(events).toEqual([
      { type: 'attempt_failed', reason: 'network_error:ECONNREFUSED' },
      { type: 'attempt_failed', reason: 'network_error:ECONNREFUSED' },
      { type: 'unavailable', reason: 'network_error:ECONNREFUSED' },
    ]);
  });
});

describe('garbage from the bureau', () => {
  test.each<[string, string, string]>([
    ['not JSON', '<html>Service Unavailable</html>', 'malformed_json'],
    ['JSON cut short', '{"score": 70', 'malformed_json'],
    ['JSON without a score', '{"result":"ok"}', 'missing_score'],
    ['a JSON array', '[700]', 'missing_score'],
    ['JSON null', 'null', 'missing_score'],
    ['an empty body', '', 'malformed_json'],
    ['score 1201', '{"score":1201}', 'invalid_score'],
    ['score -1', '{"score":-1}', 'invalid_score'],
    ['score 12.5', '{"score":12.5}', 'invalid_score'],
    ['score "700"', '{"score":"700"}', 'invalid_score'],
    ['score null', '{"score":null}', 'invalid_score'],
  ])(
    'when the bureau answers 200 with %s, then the check is unavailable and not retried',
    async (_what, body, reason) => {
      fake.behave(answers.raw(body));
      const { bureau, events } = liveBureau();
      await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: false, source: 'bureau-unavailable' });
      expect(fake.requests).toHaveLength(1);
      expect(events.at(-1)).toEqual({ type: 'unavailable', reason });
    },
  );

  test('when the bureau answers 200 with bytes that are not UTF-8, then the check is unavailable', async () => {
    fake.behave((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    });
    const { bureau, events } = liveBureau();
    await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: false, source: 'bureau-unavailable' });
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'malformed_json' });
  });

  test('when the bureau answers 201 with a score, then only 200 counts', async () => {
    fake.behave(answers.raw('{"score":700}', 201));
    await expect(liveBureau().bureau.requestScore(REQUEST)).resolves.toEqual({
      available: false,
      source: 'bureau-unavailable',
    });
  });

  test.each([
    ['with a content-length', true],
    ['chunked, without a content-length', false],
  ])(
    'when the bureau answers a valid score padded past 64 KB %s, then the body is refused',
    async (_what, declared) => {
      fake.behave(answers.huge(1024 * 1024, declared));
      const { bureau, events } = liveBureau({ timeoutMs: 2000 });
      await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: false, source: 'bureau-unavailable' });
      expect(fake.requests).toHaveLength(1);
      expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'body_too_large' });
    },
  );

  test('when the bureau answers a valid score padded to just under 64 KB, then the score is used', async () => {
    fake.behave(answers.huge(64 * 1024 - 10, false));
    await expect(liveBureau().bureau.requestScore(REQUEST)).resolves.toEqual({
      available: true,
      score: 700,
      source: 'bureau',
    });
  });

  test('when the bureau redirects to a healthy address, then the redirect is not followed and the check is unavailable', async () => {
    fake.behave(answers.failOnceThen(answers.redirect(`${fake.url}/elsewhere`), answers.score(800)));
    const { bureau, events } = liveBureau();
    await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: false, source: 'bureau-unavailable' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/soft-enquiries']);
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'redirect_302' });
  });
});

describe('the circuit breaker', () => {
  /** A client with a clock the test moves, opening after 3 failures for 10 s. */
  function withClock(behaviour: Behaviour) {
    fake.behave(behaviour);
    let now = 1_000_000;
    const { bureau, events } = liveBureau({
      retries: 0,
      breaker: { failureThreshold: 3, openMs: 10_000 },
      clock: () => now,
    });
    return { bureau, events, advance: (ms: number) => (now += ms) };
  }

  async function failTimes(bureau: ReturnType<typeof liveBureau>['bureau'], n: number) {
    for (let i = 0; i < n; i++) expect((await bureau.requestScore(REQUEST)).available).toBe(false);
  }

  test('when the bureau fails as many times in a row as the threshold, then the breaker opens and makes no network call', async () => {
    const { bureau, events } = withClock(answers.status(500));
    await failTimes(bureau, 2);
    expect(bureau.breakerState()).toBe('closed');
    await failTimes(bureau, 1);
    expect(bureau.breakerState()).toBe('open');
    expect(events.filter((e) => e.type === 'breaker_open')).toHaveLength(1);
    const seen = fake.requests.length;

    fake.behave(answers.score(700));
    const { result, ms } = await timed(() => bureau.requestScore(REQUEST));
    expect(result).toEqual({ available: false, source: 'bureau-breaker-open' });
    expect(fake.requests).toHaveLength(seen);
    expect(ms).toBeLessThan(50);
    expect(events.at(-1)).toEqual({ type: 'unavailable', reason: 'breaker_open' });
  });

  test('when a call succeeds between failures, then the count starts again and the breaker stays closed', async () => {
    const { bureau } = withClock(answers.status(500));
    await failTimes(bureau, 2);
    fake.behave(answers.score(700));
    expect((await bureau.requestScore(REQUEST)).available).toBe(true);
    fake.behave(answers.status(500));
    await failTimes(bureau, 2);
    expect(bureau.breakerState()).toBe('closed');
  });

  test('when the open time has passed and the bureau is back, then one trial call closes the breaker', async () => {
    const { bureau, events, advance } = withClock(answers.status(500));
    await failTimes(bureau, 3);
    advance(9_999);
    expect(bureau.breakerState()).toBe('open');
    advance(1);
    expect(bureau.breakerState()).toBe('half_open');

    fake.behave(answers.score(701));
    const seen = fake.requests.length;
    await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: true, score: 701, source: 'bureau' });
    expect(fake.requests).toHaveLength(seen + 1);
    expect(bureau.breakerState()).toBe('closed');
    expect(events.at(-1)).toEqual({ type: 'breaker_closed', reason: 'trial request succeeded' });
    await expect(bureau.requestScore(REQUEST)).resolves.toMatchObject({ available: true });
  });

  test('when the trial call fails, then the breaker opens again for the full open time after one request', async () => {
    fake.behave(answers.status(500));
    let now = 0;
    const { bureau } = liveBureau({ retries: 1, breaker: { failureThreshold: 1, openMs: 10_000 }, clock: () => now });
    await failTimes(bureau, 1);
    expect(fake.requests).toHaveLength(2); // a closed breaker lets the retry happen
    now += 10_000;
    await failTimes(bureau, 1);
    expect(fake.requests).toHaveLength(3); // the trial is a single request
    expect(bureau.breakerState()).toBe('open');
    now += 9_999;
    expect(bureau.breakerState()).toBe('open');
    await failTimes(bureau, 1);
    expect(fake.requests).toHaveLength(3);
  });

  test('when two calls arrive while half-open, then only one reaches the bureau', async () => {
    const { bureau, advance } = withClock(answers.status(500));
    await failTimes(bureau, 3);
    advance(10_000);
    fake.behave(answers.slow(100, 720));
    const seen = fake.requests.length;
    const [first, second] = await Promise.all([bureau.requestScore(REQUEST), bureau.requestScore(REQUEST)]);
    expect(first).toEqual({ available: true, score: 720, source: 'bureau' });
    expect(second).toEqual({ available: false, source: 'bureau-breaker-open' });
    expect(fake.requests).toHaveLength(seen + 1);
    expect(bureau.breakerState()).toBe('closed');
  });

  test('when no options are given, then the breaker opens after 5 failed calls and stays open for 30 s', async () => {
    fake.behave(answers.status(400));
    let now = 0;
    const bureau = createLiveBureau({ url: fake.url, clock: () => now });
    await failTimes(bureau, 4);
    expect(bureau.breakerState()).toBe('closed');
    await failTimes(bureau, 1);
    expect(bureau.breakerState()).toBe('open');
    now += 29_999;
    expect(bureau.breakerState()).toBe('open');
    now += 1;
    expect(bureau.breakerState()).toBe('half_open');
  });
});

describe('privacy and robustness', () => {
  test('when every kind of failure happens, then no event carries applicant data and no call rejects', async () => {
    const { bureau, events } = liveBureau({ timeoutMs: 150, breaker: { failureThreshold: 100 } });
    const behaviours: Behaviour[] = [
      answers.status(500),
      answers.status(400),
      answers.slow(1000),
      answers.raw('Matilda is not JSON'),
      answers.raw('{"score":"Quokkason"}'),
      answers.redirect(`${fake.url}/?email=${APPLICANT.email}`),
      answers.huge(100 * 1024, true),
    ];
    for (const behaviour of behaviours) {
      fake.behave(behaviour);
      await expect(bureau.requestScore(REQUEST)).resolves.toMatchObject({ available: false });
    }
    const refused = createLiveBureau({ url: await closedPortUrl(), onEvent: (e) => events.push(e) });
    await expect(refused.requestScore(REQUEST)).resolves.toMatchObject({ available: false });

    expect(events.length).toBeGreaterThanOrEqual(behaviours.length + 1);
    const logged = JSON.stringify(events);
    for (const value of PERSONAL_VALUES) expect(logged).not.toContain(value);
  });

  test('when the event listener throws, then the check still completes as unavailable', async () => {
    fake.behave(answers.status(500));
    const bureau = createLiveBureau({
      url: fake.url,
      onEvent: () => {
        throw new Error('listener broke');
      },
    });
    await expect(bureau.requestScore(REQUEST)).resolves.toEqual({ available: false, source: 'bureau-unavailable' });
  });
});
