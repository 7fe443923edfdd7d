/**
 * Crafted bodies at the edge of a partner call's bounds must not stall the process: bursts of four sent
 * at once, every 50 ms, while `/healthz` is sampled. The bodies are made from the bounds themselves, so
 * looser bounds make heavier bodies, and this test fails (with the bounds of old, 1 MB and no element
 * count, `/healthz` p99 was about 500 ms).
 *
 * `/healthz` is sampled in alternating quiet and attacked windows over the same connections, so the
 * machine's other load weighs on both alike. The requirement is a p99 under 50 ms; on a machine loaded
 * so much that the quiet p99 is itself above 25 ms, the attacked p99 may exceed the quiet one by 25 ms.
 */
import { Agent, request as httpRequest } from 'node:http';
import { BODY_BOUNDS } from '@loanmatch/http';
import { startServer, tempDataDir, tempDatabaseUrl, type Started } from './process';

jest.setTimeout(120_000);

const WINDOW_MS = 2500;
const ROUNDS = 2;
/** Bodies sent at once, in each burst; a burst starts every BURST_EVERY_MS (or when the last one is answered). */
const ATTACKERS = 4;
const BURST_EVERY_MS = 50;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

const { bytes, depth, elements } = BODY_BOUNDS.partner;
/** `text` padded with spaces (which the checks still read) to one byte under the limit. */
const padTo = (text: string, size = bytes - 1) => text + ' '.repeat(Math.max(0, size - Buffer.byteLength(text)));
const emptyObjects = (n: number) => `[${Array.from({ length: n }, () => '{}').join(',')}]`;

/** Each crafted body and the answer it must get. */
const CRAFTED: Array<{ what: string; body: string; status: number }> = [
  { what: 'the most elements allowed, padded to the limit', body: padTo(emptyObjects(elements)), status: 400 },
  { what: 'empty objects up to the byte limit', body: emptyObjects(Math.floor((bytes - 2) / 3)), status: 400 },
  {
    what: 'nesting up to the byte limit',
    body: `${'{"a":'.repeat(Math.floor((bytes - 1) / 6))}1${'}'.repeat(Math.floor((bytes - 1) / 6))}`,
    status: 400,
  },
  {
    what: 'a string of escapes up to the limit',
    body: `{"formType":"personal","data":{"loanAmount":1},"x":"${'\\u00e9'.repeat(Math.floor((bytes - 80) / 6))}"}`,
    status: 400,
  },
  {
    what: 'nesting at the depth allowed, padded',
    body: padTo(`${'['.repeat(depth)}${']'.repeat(depth)}`),
    status: 400,
  },
  { what: 'one byte over the limit', body: padTo('{}', bytes + 1), status: 413 },
];

function send(
  agent: Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const p99 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.99)];

describe('crafted bodies at the bounds of a partner call', () => {
  let server: Started;

  beforeAll(async () => {
    // The rate limit would refuse the bodies before they are read; this test wants every one read.
    server = await startServer({
      mode: 'a',
      env: { DATA_DIR: tempDataDir(), DATABASE_URL: await tempDatabaseUrl(), RATE_LIMIT_A_PER_MINUTE: '100000000' },
    });
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('when four crafted near-limit bodies are sent at once, burst after burst, then /healthz keeps a p99 under 50 ms and every body is refused as it should be', async () => {
    const base = server.urls['Variant A'];
    const healthz = new URL('/healthz', base);
    const create = new URL(`${base}/applications`);
    const headers = { Authorization: `Bearer ${server.demoApiKey}`, 'Content-Type': 'application/json' };
    const probe = new Agent({ keepAlive: true, maxSockets: 1 });
    const attack = new Agent({ keepAlive: true, maxSockets: ATTACKERS });
    for (const { body, status } of CRAFTED)
      expect((await send(attack, create, 'POST', headers, body)).status).toBe(status);

    const sample = async (until: number, into: number[]) => {
      while (performance.now() < until) {
        const answer = await send(probe, healthz, 'GET', {});
        expect(answer.status).toBe(200);
        into.push(answer.ms);
      }
    };
    const quiet: number[] = [];
    const attacked: number[] = [];
    const answers = new Map<string, number>();
    let wrong = '';
    for (let round = 0; round < ROUNDS; round++) {
      await sample(performance.now() + WINDOW_MS, quiet);
      const until = performance.now() + WINDOW_MS;
      const bursts = async () => {
        for (let burst = 0; performance.now() < until; burst++) {
          const next = performance.now() + BURST_EVERY_MS;
          await Promise.all(
            Array.from({ length: ATTACKERS }, async (_, a) => {
              const { what, body, status } = CRAFTED[(burst * ATTACKERS + a) % CRAFTED.length];
              const answer = await send(attack, create, 'POST', headers, body);
              answers.set(what, (answers.get(what) ?? 0) + 1);
              if (answer.status !== status) wrong ||= `${what}: ${answer.status}, expected ${status}`;
            }),
          );
          await sleep(next - performance.now());
        }
      };
      await Promise.all([sample(until, attacked), bursts()]);
    }
    probe.destroy();
    attack.destroy();

    const [quietP99, attackedP99] = [p99(quiet), p99(attacked)];
    const sent = [...answers.values()].reduce((a, b) => a + b, 0);
    console.log(
      `/healthz p99: ${quietP99.toFixed(1)} ms quiet (${quiet.length} samples), ${attackedP99.toFixed(1)} ms under ` +
        `bursts of ${ATTACKERS} crafted bodies (${attacked.length} samples, ${sent} bodies)`,
    );
    expect(wrong).toBe('');
    for (const { what } of CRAFTED) expect([what, (answers.get(what) ?? 0) >= 10]).toEqual([what, true]);
    expect(attackedP99).toBeLessThan(Math.max(50, quietP99 + 25));
  });
});
