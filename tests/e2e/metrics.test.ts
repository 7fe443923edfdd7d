/**
 * Metrics and logs of a started process: `pnpm start:b` has no admin listener, so METRICS_PORT opens
 * one for `GET /metrics`; its access lines are JSON on a pipe, or pretty with LOG_FORMAT=pretty.
 */
import { eventually } from '../support';
import { api, startServer, tempDataDir, tempDatabaseUrl, type Started } from './process';

jest.setTimeout(120_000);

const METRICS_TOKEN = 'e2e-metrics-token-0123456789abcdef';

describe('pnpm start:b with METRICS_PORT', () => {
  let server: Started;
  let metricsUrl: string;

  beforeAll(async () => {
    server = await startServer({
      mode: 'b',
      env: {
        DATA_DIR: tempDataDir(),
        DATABASE_URL: await tempDatabaseUrl(),
        METRICS_PORT: '0',
        METRICS_TOKEN,
        LOG_LEVEL: 'info',
      },
    });
    metricsUrl = /^ {2}Metrics\s+(http\S+)/m.exec(server.output())![1];
  });
  afterAll(() => server?.stop());

  it('when Variant B is called, then the metrics listener reports it to a scraper with the metrics token, and the log has a JSON access line without the key', async () => {
    expect(new URL(metricsUrl).hostname).toBe('127.0.0.1');
    const exchanged = await api(server.urls['Variant B'], 'POST', '/auth/token', {
      headers: { 'X-API-Key': server.demoApiKey! },
      body: { grantType: 'api_key' },
    });
    expect(exchanged.status).toBe(200);

    expect((await fetch(metricsUrl)).status).toBe(401);
    const res = await fetch(metricsUrl, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /^loanmatch_http_request_duration_seconds_count\{contract="B",route="\/v1\/auth\/token",status="200"\} 1$/m,
    );
    expect(text).toMatch(/^loanmatch_db_info\{kind="postgresql"\} 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);

    const logLines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const access = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.message === 'request' && entry.route === '/v1/auth/token');
    expect(access).toMatchObject({
      level: 'info',
      service: 'loanmatch-b',
      contract: 'B',
      method: 'POST',
      status: 200,
      requestId: expect.any(String),
      partnerId: expect.any(String),
      durationMs: expect.any(Number),
    });
    // The start banner shows the demo key once, on purpose; no log line holds it.
    expect(logLines.join('\n')).not.toContain(server.demoApiKey!.slice(11));
  });
});

describe('LOG_FORMAT=pretty', () => {
  let server: Started;
  afterAll(() => server?.stop());

  it('when set on a pipe, then access lines are the readable form', async () => {
    server = await startServer({
      mode: 'a',
      env: { DATA_DIR: tempDataDir(), DATABASE_URL: await tempDatabaseUrl(), LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' },
    });
    const A = server.urls['Variant A'];
    expect((await api(A, 'GET', '/referrals', { key: server.demoApiKey })).status).toBe(200);
    const line =
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}A GET \/api\/partner\/v1\/referrals 200 \d+\.\d ms partner=[0-9a-f-]{36} req=[0-9a-f-]{36}$/m;
    expect(await eventually(server.output, (out) => line.test(out))).toMatch(line);
    expect(server.output()).not.toMatch(/^\{"/m);
  });
});
