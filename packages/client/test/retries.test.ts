/**
 * The client's own rules, against a scripted server: which failures it sends again, how long it waits,
 * that every attempt of one request carries the same `Idempotency-Key`, and how errors read.
 */
import {
  LoanMatchApiError,
  LoanMatchClientA,
  LoanMatchConnectionError,
  type ApplicantDetails,
  type ClientAOptions,
} from '../src';
import { failure, recordingSleep, startFakeServer, success, type FakeServer, type Scripted } from './fake-server';

const KEY = 'lm_sandbox_test-key';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CREATED = { applicationId: 'a1', formType: 'personal', status: 'draft', lastStep: 1 };
const APPLICANT: ApplicantDetails = {
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'j@example.com',
  mobileNumber: '0412345678',
  dateOfBirth: '1988-07-14',
  consentCreditCheck: true,
};

describe('LoanMatchClientA retries and errors', () => {
  let server: FakeServer;
  let script: Scripted[];
  let waits: number[];

  /** A client on the fake server; answers come from `answers` in turn, the last one repeating. */
  function clientWith(answers: Scripted[], options: Partial<ClientAOptions> = {}): LoanMatchClientA {
    script = answers;
    const recording = recordingSleep();
    waits = recording.waits;
    return new LoanMatchClientA({
      baseUrl: `${server.origin}/api/partner/v1`,
      apiKey: KEY,
      sleep: recording.sleep,
      random: () => 0,
      ...options,
    });
  }

  beforeAll(async () => {
    server = await startFakeServer((_req, n) => script[Math.min(n, script.length) - 1]);
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterAll(() => server.close());

  const keysSent = () => server.requests.map((r) => r.headers['idempotency-key']);

  it('when a create meets a 503, then an idempotency conflict, then success, then all three attempts carry the one key it made, after growing waits', async () => {
    const client = clientWith([
      failure(503, 'SERVICE_UNAVAILABLE'),
      failure(409, 'IDEMPOTENCY_IN_PROGRESS'),
      success(CREATED, 201),
    ]);
    await expect(client.createApplication({ formType: 'personal', data: { loanAmount: 15000 } })).resolves.toEqual(
      CREATED,
    );
    expect(server.requests).toHaveLength(3);
    const keys = keysSent();
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(waits).toEqual([250, 500]); // equal jitter with random() = 0: half of 500, half of 1000
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/partner/v1/applications',
      body: '{"formType":"personal","data":{"loanAmount":15000}}',
    });
    expect(server.requests[0].headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
    });
  });

  it('when the connection drops under a credit check, then it is sent again under the key the caller gave, with the sandbox score', async () => {
    const client = clientWith([
      'drop',
      success({ applicationId: 'a1', creditCheckComplete: true, degraded_mode: false, sandbox_mode: true }),
    ]);
    await client.runCreditCheck('a1', APPLICANT, { idempotencyKey: 'check-a1', sandboxScore: 'good' });
    expect(keysSent()).toEqual(['check-a1', 'check-a1']);
    expect(server.requests.map((r) => r.headers['x-sandbox-score'])).toEqual(['good', 'good']);
    expect(JSON.parse(server.requests[1].body)).toEqual({ data: APPLICANT });
  });

  it('when two creates are made without keys, then each gets a key of its own', async () => {
    const client = clientWith([success(CREATED, 201)]);
    await client.createApplication({ formType: 'personal', data: { loanAmount: 15000 } });
    await client.createApplication({ formType: 'personal', data: { loanAmount: 15000 } });
    const [first, second] = keysSent();
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });

  it('when rate limited with Retry-After, then it waits exactly that long, even for a request it would not resend after a 5xx', async () => {
    const client = clientWith([
      failure(429, 'RATE_LIMITED', 'Too many requests', { 'Retry-After': '7' }),
      success({ webhookId: 'w1', secret: 'whsec_x' }, 201),
    ]);
    await expect(client.webhooks.register({ url: 'https://partner.example/hooks' })).resolves.toMatchObject({
      webhookId: 'w1',
    });
    expect(waits).toEqual([7000]);
    expect(server.requests).toHaveLength(2);
  });

  it('when Retry-After is longer than maxRetryAfterMs, then it throws at once with retryAfter for the caller to schedule', async () => {
    const client = clientWith([failure(429, 'RATE_LIMITED', 'Too many requests', { 'Retry-After': '3600' })], {
      maxRetryAfterMs: 60_000,
    });
    const error = await client.getApplication('a1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoanMatchApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 3600, attempts: 1 });
    expect(waits).toEqual([]);
  });

  it('when a 5xx or a dropped connection meets a request that is not safe to repeat, then it is not sent again', async () => {
    let client = clientWith([failure(500, 'INTERNAL_ERROR')]);
    await expect(client.webhooks.register({ url: 'https://partner.example/hooks' })).rejects.toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
      attempts: 1,
    });
    await expect(client.webhooks.rotateSecret('w1')).rejects.toMatchObject({ status: 500 });
    await expect(client.webhooks.sendTest('w1')).rejects.toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(3);

    server.requests.length = 0;
    client = clientWith(['drop']);
    const error = await client.webhooks.register({ url: 'https://partner.example/hooks' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoanMatchConnectionError);
    expect(error).toMatchObject({ timedOut: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('when a 5xx meets a read, a step save, a match or a delete, then each is sent again', async () => {
    const client = clientWith([failure(502, 'INTERNAL_ERROR'), success({ ok: 1 })]);
    for (const call of [
      () => client.getApplication('a1'),
      () => client.saveStep('a1', 2, { loanPurpose: 'holiday', loanTerm: 3 }),
      () => client.match('a1'),
      () => client.listReferrals({ limit: 10 }),
      () => client.webhooks.delete('w1'),
    ]) {
      server.requests.length = 0;
      script = [failure(502, 'INTERNAL_ERROR'), success({ ok: 1 })];
      await expect(call()).resolves.toEqual({ ok: 1 });
      expect(server.requests).toHaveLength(2);
    }
  });

  it('when the first request under a key is unresolved, then it is not retried and the error names the key', async () => {
    const client = clientWith([failure(409, 'IDEMPOTENCY_KEY_UNRESOLVED'), success(CREATED, 201)]);
    const error = await client
      .createApplication({ formType: 'personal', data: { loanAmount: 15000 } }, { idempotencyKey: 'k-unresolved' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 409,
      code: 'IDEMPOTENCY_KEY_UNRESOLVED',
      idempotencyKey: 'k-unresolved',
      attempts: 1,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('when other refusals come (4xx, a running check under another key, 501), then none is retried', async () => {
    for (const answer of [
      failure(409, 'STEP_OUT_OF_ORDER'),
      failure(409, 'CREDIT_CHECK_IN_PROGRESS'),
      failure(404, 'NOT_FOUND'),
      failure(422, 'IDEMPOTENCY_KEY_REUSED'),
      failure(501, 'NOT_IMPLEMENTED'),
    ]) {
      server.requests.length = 0;
      const client = clientWith([answer, success({})]);
      await expect(client.runCreditCheck('a1', APPLICANT)).rejects.toBeInstanceOf(LoanMatchApiError);
      expect(server.requests).toHaveLength(1);
    }
  });

  it('when every attempt fails, then it stops after `retries` retries and throws the last error with the count', async () => {
    const client = clientWith([failure(503, 'SERVICE_UNAVAILABLE', 'down', { 'Retry-After': '5' })], { retries: 2 });
    const error = await client.getApplication('a1').catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      retryAfter: 5,
      attempts: 3,
      requestId: 'req-SERVICE_UNAVAILABLE',
    });
    expect(server.requests).toHaveLength(3);
    expect(waits).toEqual([5000, 5000]);
  });

  it('when backoff grows, then it doubles up to maxDelayMs with at most half of each wait random', async () => {
    const client = clientWith([failure(503, 'SERVICE_UNAVAILABLE')], {
      retries: 5,
      baseDelayMs: 100,
      maxDelayMs: 600,
      random: () => 0.999,
    });
    await expect(client.getApplication('a1')).rejects.toMatchObject({ attempts: 6 });
    expect(waits).toEqual([100, 200, 400, 600, 600]);
  });

  it('when retries is 0, then not even a 429 is sent again', async () => {
    const client = clientWith([failure(429, 'RATE_LIMITED', 'slow down', { 'Retry-After': '1' }), success({})], {
      retries: 0,
    });
    await expect(client.getApplication('a1')).rejects.toMatchObject({ status: 429, retryAfter: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('when a field is invalid, then the error carries status, code, message, every violation and the request id', async () => {
    const details = [{ field: 'loanAmount', rule: 'minimum', message: 'loanAmount: must be between 1000 and 100000' }];
    const client = clientWith([
      {
        status: 400,
        body: { success: false, error: 'VALIDATION_ERROR', message: details[0].message, details },
        headers: { 'X-Request-Id': 'r-400' },
      },
    ]);
    const error = await client
      .createApplication({ formType: 'personal', data: { loanAmount: 5 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoanMatchApiError);
    expect(error).toMatchObject({
      name: 'LoanMatchApiError',
      status: 400,
      code: 'VALIDATION_ERROR',
      message: details[0].message,
      details,
      requestId: 'r-400',
      attempts: 1,
    });
    expect((error as LoanMatchApiError).retryAfter).toBeUndefined();
    expect(String((error as Error).message)).not.toContain(KEY);
  });

  it('when a proxy answers with a page instead of the envelope, then the error says UNEXPECTED_RESPONSE with the status, after the safe retries', async () => {
    const client = clientWith([{ status: 502, body: '<html>Bad gateway</html>' }], { retries: 1 });
    await expect(client.getApplication('a1')).rejects.toMatchObject({
      status: 502,
      code: 'UNEXPECTED_RESPONSE',
      attempts: 2,
    });
    server.requests.length = 0;
    const ok200 = clientWith([{ status: 200, body: '<html>hello</html>' }]);
    await expect(ok200.getApplication('a1')).rejects.toMatchObject({ status: 200, code: 'UNEXPECTED_RESPONSE' });
    expect(server.requests).toHaveLength(1);
  });

  it('when the service does not answer in timeoutMs, then a connection error says it timed out, retried only when safe', async () => {
    const client = clientWith(['hang'], { timeoutMs: 200, retries: 1 });
    const read = await client.getApplication('a1').catch((e: unknown) => e);
    expect(read).toBeInstanceOf(LoanMatchConnectionError);
    expect(read).toMatchObject({ timedOut: true, attempts: 2 });
    server.requests.length = 0;
    const create = await client
      .createApplication({ formType: 'personal', data: { loanAmount: 15000 } }, { idempotencyKey: 'k-timeout' })
      .catch((e: unknown) => e);
    expect(create).toMatchObject({ timedOut: true, attempts: 2, idempotencyKey: 'k-timeout' });
    expect(keysSent()).toEqual(['k-timeout', 'k-timeout']);
  });

  it('when answers come, then onResponse is told of each, retried ones included, with status, headers and attempt', async () => {
    const seen: [string, string, number, string | null, number][] = [];
    const client = clientWith(
      [
        failure(503, 'SERVICE_UNAVAILABLE'),
        { status: 201, body: { success: true, data: CREATED }, headers: { 'Idempotency-Replayed': 'true' } },
      ],
      {
        onResponse: (r) => seen.push([r.method, r.path, r.status, r.headers.get('idempotency-replayed'), r.attempt]),
      },
    );
    await client.createApplication({ formType: 'personal', data: { loanAmount: 15000 } });
    expect(seen).toEqual([
      ['POST', '/applications', 503, null, 1],
      ['POST', '/applications', 201, 'true', 2],
    ]);
  });

  it('when ids hold path characters, then they stay one path segment; query options are sent as given', async () => {
    const client = clientWith([success({})]);
    await client.getApplication('../referrals?x=1');
    await client.listReferrals({ cursor: 'abc+/=', limit: 5 });
    await client.webhooks.listDeliveries('w/1', { limit: 3 });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/partner/v1/applications/..%2Freferrals%3Fx%3D1',
      '/api/partner/v1/referrals?limit=5&cursor=abc%2B%2F%3D',
      '/api/partner/v1/webhooks/w%2F1/deliveries?limit=3',
    ]);
  });

  it('when options are wrong, then the constructor says which', () => {
    expect(() => new LoanMatchClientA({ baseUrl: 'localhost:3000', apiKey: KEY })).toThrow(
      'baseUrl must be an absolute http or https URL',
    );
    expect(() => new LoanMatchClientA({ baseUrl: 'ftp://x/api', apiKey: KEY })).toThrow('baseUrl');
    expect(() => new LoanMatchClientA({ baseUrl: 'http://x/api', apiKey: '' })).toThrow('apiKey must be');
    expect(() => new LoanMatchClientA({ baseUrl: 'http://x/api', apiKey: KEY, retries: -1 })).toThrow(
      'retries must be a number of at least 0',
    );
    expect(() => new LoanMatchClientA({ baseUrl: 'http://x/api', apiKey: KEY, timeoutMs: 0 })).toThrow(
      'timeoutMs must be a number of at least 1',
    );
  });
});
