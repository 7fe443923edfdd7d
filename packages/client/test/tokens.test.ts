/**
 * Variant B's access token, against a scripted server: exchanged once and shared, renewed before it
 * expires, and renewed once when the service refuses it.
 */
import { LoanMatchClientB } from '../src';
import {
  failure,
  recordingSleep,
  startFakeServer,
  success,
  type FakeServer,
  type Recorded,
  type Scripted,
} from './fake-server';

const KEY = 'lm_sandbox_b-key';
const FLAT = {
  formType: 'personal',
  loanAmount: 15000,
  loanPurpose: 'holiday',
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'j@example.com',
  phone: '0412345678',
} as const;
const CREATED = { applicationId: 'a1', securityToken: 'st_abc' };

describe('LoanMatchClientB access tokens', () => {
  let server: FakeServer;
  let issued: number;
  /** How the service answers calls other than the exchange; by default a success. */
  let answerCall: (request: Recorded) => Scripted;
  let answerExchange: () => Scripted;
  let clock: number;

  beforeAll(async () => {
    server = await startFakeServer((request) => {
      if (request.url === '/v1/auth/token') return answerExchange();
      return answerCall(request);
    });
  });
  beforeEach(() => {
    server.requests.length = 0;
    issued = 0;
    clock = 1_000_000;
    answerExchange = () => success({ accessToken: `token-${++issued}`, tokenType: 'Bearer', expiresIn: 900 });
    answerCall = () => success(CREATED, 201);
  });
  afterAll(() => server.close());

  const client = () =>
    new LoanMatchClientB({
      baseUrl: `${server.origin}/v1`,
      apiKey: KEY,
      sleep: recordingSleep().sleep,
      now: () => clock,
    });
  const exchanges = () => server.requests.filter((r) => r.url === '/v1/auth/token');
  const calls = () => server.requests.filter((r) => r.url !== '/v1/auth/token');

  it('when several calls start at once, then one exchange with X-API-Key serves them all, and the key never goes elsewhere', async () => {
    const b = client();
    await Promise.all([b.createApplication(FLAT), b.createApplication(FLAT), b.match('a1', 'st_abc')]);
    await b.runCreditCheck('a1', 'st_abc', { dateOfBirth: '1988-07-14' });
    expect(exchanges()).toHaveLength(1);
    expect(exchanges()[0]).toMatchObject({ method: 'POST', body: '{"grantType":"api_key"}' });
    expect(exchanges()[0].headers['x-api-key']).toBe(KEY);
    expect(exchanges()[0].headers.authorization).toBeUndefined();
    expect(calls().map((r) => r.headers.authorization)).toEqual(Array(4).fill('Bearer token-1'));
    expect(calls().every((r) => r.headers['x-api-key'] === undefined)).toBe(true);
    expect(JSON.parse(calls()[3].body)).toEqual({ dateOfBirth: '1988-07-14', securityToken: 'st_abc' });
  });

  it('when the token nears its expiry, then it is renewed a minute before, not earlier', async () => {
    const b = client();
    await b.createApplication(FLAT);
    clock += 900_000 - 60_000 - 1;
    await b.createApplication(FLAT);
    expect(exchanges()).toHaveLength(1);
    clock += 1;
    await b.createApplication(FLAT);
    expect(exchanges()).toHaveLength(2);
    expect(calls().map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1', 'Bearer token-2']);
  });

  it('when the service refuses the token, then a new one is fetched and the request sent once more under the same idempotency key', async () => {
    const b = client();
    await b.createApplication(FLAT); // token-1 in hand
    server.requests.length = 0;
    answerCall = (request) =>
      request.headers.authorization === 'Bearer token-1'
        ? failure(
            401,
            'UNAUTHORIZED',
            'The access token has expired: exchange your API key at POST /v1/auth/token for a new one',
          )
        : success(CREATED, 201);
    await expect(b.createApplication(FLAT, { idempotencyKey: 'b-create-1' })).resolves.toEqual(CREATED);
    expect(
      server.requests.map((r) => [r.url, r.headers.authorization ?? null, r.headers['idempotency-key'] ?? null]),
    ).toEqual([
      ['/v1/applications', 'Bearer token-1', 'b-create-1'],
      ['/v1/auth/token', null, null],
      ['/v1/applications', 'Bearer token-2', 'b-create-1'],
    ]);
  });

  it('when the fresh token is refused too, then the 401 is thrown after one renewal, not in a loop', async () => {
    const b = client();
    answerCall = () => failure(401, 'UNAUTHORIZED', 'The access token is not valid');
    // `attempts` counts both sends, the resend with a fresh token included.
    await expect(b.match('a1', 'st_abc')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED', attempts: 2 });
    expect(exchanges()).toHaveLength(2);
    expect(calls()).toHaveLength(2);
  });

  it('when the key itself is refused at the exchange (revoked), then that 401 is thrown and nothing else is sent', async () => {
    const b = client();
    answerExchange = () => failure(401, 'UNAUTHORIZED', 'A valid API key is required');
    await expect(b.createApplication(FLAT)).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'A valid API key is required',
    });
    expect(exchanges()).toHaveLength(1);
    expect(calls()).toHaveLength(0);
  });

  it('when the renewal fails in the minute before expiry, then the call goes with the token in hand', async () => {
    const b = client();
    await b.createApplication(FLAT);
    clock += 900_000 - 30_000;
    answerExchange = () => failure(503, 'SERVICE_UNAVAILABLE', 'try again');
    await expect(b.createApplication(FLAT)).resolves.toEqual(CREATED);
    expect(calls().map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1']);
    // Once it has expired, the failed renewal is the call's error.
    clock += 30_000;
    await expect(b.match('a1', 'st_abc')).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(calls()).toHaveLength(2);
  });

  it('when the token cannot be renewed for a retry, then the call throws its own error with its idempotency key', async () => {
    const b = client();
    answerCall = () => {
      clock += 900_000; // the token expires while the first attempt is out, and no new one can be had
      answerExchange = () => failure(401, 'UNAUTHORIZED', 'A valid API key is required');
      return 'drop';
    };
    await expect(b.createApplication(FLAT, { idempotencyKey: 'b-create-3' })).rejects.toMatchObject({
      name: 'LoanMatchConnectionError',
      idempotencyKey: 'b-create-3',
      attempts: 1,
      message: expect.stringMatching(/^POST \/applications: connection failed/),
    });
    expect(calls()).toHaveLength(1);
  });

  it("when a request waits out a rate limit past the token's renewal time, then the retry goes with a renewed token", async () => {
    const b = client();
    let n = 0;
    answerCall = () => {
      n++;
      if (n === 1) {
        clock += 900_000; // the wait outlives the token
        return failure(429, 'RATE_LIMITED', 'slow down', { 'Retry-After': '30' });
      }
      return success(CREATED, 201);
    };
    await b.createApplication(FLAT, { idempotencyKey: 'b-create-2' });
    expect(calls().map((r) => [r.headers.authorization, r.headers['idempotency-key']])).toEqual([
      ['Bearer token-1', 'b-create-2'],
      ['Bearer token-2', 'b-create-2'],
    ]);
  });
});
