/**
 * Both README walk-throughs and their error cases, through Stoplight Prism's validating proxy in front of
 * the service, as a partner would put it: each listener's served `/openapi.json` is the only input, its
 * `servers` the upstream. The walk-throughs are the openapi-fetch clients of client/ (type-checked by
 * typescript-client.test.ts). Every answer must come back with no violation of the document; a bad
 * request must be one Prism also finds bad, answered by the service with its operation's documented example.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createPartner } from '@loanmatch/domain';
import type { Schema } from '@loanmatch/http';
import { createAnswerChecker } from '../support/openapi';
import { BASE_PATH_A, createPartnerAApp } from '@loanmatch/partner-a';
import { BASE_PATH_B, createPartnerBApp } from '@loanmatch/partner-b';
import { ONE_STORAGE, createTestContext, silentLogger, type TestContext } from '../support';
import type { WalkthroughA, WalkthroughB, WalkthroughOptions } from './client/results';
import { commandOf, workFolder } from './documents';

jest.setTimeout(60_000);

interface Violation {
  location: string[];
  message: string;
}
interface Seen {
  call: string;
  status: number;
  body: unknown;
  violations: Violation[];
}

async function listen(handler?: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function freePort(): Promise<number> {
  const { server, url } = await listen();
  await new Promise((resolve) => server.close(resolve));
  return Number(new URL(url).port);
}

/** `prism proxy <document> <its first server>`, ready when it answers. */
async function startPrism(documentFile: string, upstream: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      commandOf('@stoplight/prism-cli', 'prism'),
      'proxy',
      documentFile,
      upstream,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (let started = Date.now(); ; ) {
    if (/Prism is listening/.test(output)) break;
    if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error(`Prism did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop: () => child.kill('SIGKILL') };
}

/** A fetch that keeps every answer and the violations Prism found in its request and its response. */
function recordingFetch(seen: Seen[]) {
  return async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    const text = await response.clone().text();
    seen.push({
      call: `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`,
      status: response.status,
      body: text ? JSON.parse(text) : undefined,
      violations: JSON.parse(response.headers.get('sl-violations') ?? '[]') as Violation[],
    });
    return response;
  };
}

/**
 * A walk-through client of client/, loaded when it runs: its types come from the documents, generated and
 * checked by typescript-client.test.ts, so this file does not compile against them.
 */
async function walkthrough<R>(file: string, name: string): Promise<(options: WalkthroughOptions) => Promise<R>> {
  const loaded: Record<string, unknown> = await import(join(__dirname, 'client', file));
  const run = loaded[name];
  if (typeof run !== 'function') throw new TypeError(`client/${file} has no ${name}`);
  return (options) => run(options);
}

const found = (seen: Seen[], side: 'request' | 'response') =>
  seen.flatMap(({ call, violations }) =>
    violations.filter((v) => v.location[0] === side).map((v) => `${call}: ${v.location.join('.')} ${v.message}`),
  );

/** The example a document gives for `status` and `name` of one operation. */
function example(document: Schema, path: string, method: string, status: number, name: string): unknown {
  const paths = document.paths as Record<string, Record<string, Schema>>;
  const responses = paths[path][method].responses as Record<string, Schema>;
  const content = responses[String(status)].content as Record<string, { examples: Record<string, { value: unknown }> }>;
  return content['application/json'].examples[name]?.value;
}

describe("the README walk-throughs through Prism's validating proxy", () => {
  let t: TestContext;
  let apiKey: string;
  const servers: Server[] = [];
  const prisms: Array<{ stop(): void }> = [];
  const work = workFolder();
  const documents: Record<'a' | 'b', Schema> = { a: {}, b: {} };
  const proxies: Record<'a' | 'b', string> = { a: '', b: '' };

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    const created = await createPartner(t.ctx, { body: { name: 'Walkthrough', environment: 'sandbox' } });
    if (!created.ok) throw created.error;
    apiKey = created.value.apiKey;

    // Each listener learns its public address first: its document's servers and its tracking links carry it.
    const a = await listen();
    const b = await listen();
    servers.push(a.server, b.server);
    const ctx = { ...t.ctx, tracking: { ...t.ctx.tracking, publicBaseUrl: a.url } };
    a.server.on(
      'request',
      createPartnerAApp({ ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 }),
    );
    b.server.on(
      'request',
      createPartnerBApp({
        ctx,
        logger: silentLogger,
        ping: async () => true,
        jwt: { secret: randomBytes(32).toString('hex') },
        publicBaseUrl: b.url,
      }),
    );

    // As a partner does: the served document, and its first server as the upstream.
    await Promise.all(
      (['a', 'b'] as const).map(async (side) => {
        const listener = side === 'a' ? a.url : b.url;
        documents[side] = (await (await fetch(`${listener}/openapi.json`)).json()) as Schema;
        const upstream = (documents[side].servers as Array<{ url: string }>)[0].url;
        expect(upstream).toBe(`${listener}${side === 'a' ? BASE_PATH_A : BASE_PATH_B}`);
        const prism = await startPrism(work.write(`variant-${side}.json`, documents[side]), upstream);
        prisms.push(prism);
        proxies[side] = prism.url;
      }),
    );
  });

  afterAll(async () => {
    for (const prism of prisms) prism.stop();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    work.remove();
    await t?.close();
  });

  it('when Variant A is walked through and its error cases sent, then no answer violates the document and each bad request is one Prism finds too', async () => {
    const seen: Seen[] = [];
    const variantAWalkthrough = await walkthrough<WalkthroughA>('variant-a.ts', 'variantAWalkthrough');
    const result = await variantAWalkthrough({ baseUrl: proxies.a, apiKey, fetch: recordingFetch(seen) });

    expect(result.replayed).toBe('true');
    expect(result.storedIncome).toBe(8000);
    expect(result.refusals).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR', 'UNSUPPORTED_MEDIA_TYPE']);
    expect(seen).toHaveLength(12);
    expect(found(seen, 'response')).toEqual([]);
    const requestViolations = found(seen, 'request');
    expect(requestViolations.filter((v) => !/^POST \/applications: |^GET \/referrals\?cursor=/.test(v))).toEqual([]);
    expect(requestViolations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^POST \/applications: request\.body\.data\.loanAmount/),
        expect.stringMatching(/^GET \/referrals\?cursor=A+: request\.query\.cursor .*100/),
        expect.stringMatching(/^POST \/applications: request Supported content types: application\/json$/),
      ]),
    );

    // Each refusal is its operation's documented example, word for word.
    const refusals = seen.filter((s) => s.status >= 400).map((s) => s.body);
    expect(refusals).toEqual([
      example(documents.a, '/applications', 'post', 400, 'VALIDATION_ERROR: loanAmount'),
      example(documents.a, '/referrals', 'get', 400, 'VALIDATION_ERROR: cursor'),
      example(documents.a, '/applications', 'post', 415, 'UNSUPPORTED_MEDIA_TYPE'),
    ]);

    // The applicant's browser follows the tracking link, outside the partner's API (Prism's forwarder
    // would follow the 302 to the lender): checked against the document directly.
    const followed = await fetch(result.trackingUrl, { redirect: 'manual' });
    expect(followed.status).toBe(302);
    const check = createAnswerChecker(documents.a);
    expect(
      check({
        method: 'GET',
        path: new URL(result.trackingUrl).pathname,
        status: followed.status,
        headers: Object.fromEntries(followed.headers),
        body: undefined,
      }),
    ).toEqual([]);
  });

  it('when Variant B is walked through and its error cases sent, then no answer violates the document and each bad request is one Prism finds too', async () => {
    const seen: Seen[] = [];
    const variantBWalkthrough = await walkthrough<WalkthroughB>('variant-b.ts', 'variantBWalkthrough');
    const result = await variantBWalkthrough({ baseUrl: proxies.b, apiKey, fetch: recordingFetch(seen) });

    expect(result.certainties.length).toBeGreaterThan(0);
    expect(new Set(result.certainties)).toEqual(new Set(['indicative']));
    expect(result.missingFields).toEqual(['livingSituation']);
    expect(result.refusals).toEqual(['INVALID_SECURITY_TOKEN', 'VALIDATION_ERROR', 'UNSUPPORTED_MEDIA_TYPE']);
    expect(found(seen, 'response')).toEqual([]);
    const requestViolations = found(seen, 'request');
    expect(requestViolations.filter((v) => !/^POST \/applications(\/[^/]+\/match)?: /.test(v))).toEqual([]);
    expect(requestViolations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^POST \/applications: request\.body\.email .*254/),
        expect.stringMatching(
          /^POST \/applications\/[^/]+\/match: request Supported content types: application\/json$/,
        ),
      ]),
    );

    const refusals = seen.filter((s) => s.status >= 400).map((s) => s.body);
    const path = '/applications/{applicationId}';
    expect(refusals).toEqual([
      example(documents.b, path, 'patch', 403, 'INVALID_SECURITY_TOKEN'),
      example(documents.b, '/applications', 'post', 400, 'VALIDATION_ERROR: email'),
      example(documents.b, `${path}/match`, 'post', 415, 'UNSUPPORTED_MEDIA_TYPE'),
    ]);
  });
});
