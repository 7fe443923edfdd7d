/**
 * `pnpm start` runs the build's output (`dist/`), not the sources the other suites run: the compiled
 * server is taken through a whole application on the embedded database.
 */
import { VALID_STEPS } from '../support';
import { applicant, createRequest, partnerA } from './clients';
import { spawn } from 'node:child_process';
import { ROOT, run, startServer, tempDataDir, type Started } from './process';

jest.setTimeout(120_000);

describe('the compiled service (pnpm start)', () => {
  let server: Started | undefined;

  beforeAll(async () => {
    const built = await run([require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {});
    if (built.code !== 0) throw new Error(`pnpm build failed: ${built.err}`);
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('when started, then it takes an application through the credit check, matches it, forwards a click, and stops on SIGTERM', async () => {
    server = await startServer({ compiled: true, env: { DATA_DIR: tempDataDir() } });
    const { client, last } = partnerA(server.urls['Variant A'], server.demoApiKey!);
    const { applicationId: id } = await client.createApplication(createRequest('personal'), {
      idempotencyKey: 'compiled-create',
    });
    expect(last().status).toBe(201);
    for (const step of [2, 3, 4] as const) await client.saveStep(id, step, { ...VALID_STEPS.personal[step] });
    await client.runCreditCheck(id, applicant(), { idempotencyKey: 'compiled-check', sandboxScore: 'very_good' });
    expect(last().status).toBe(200);

    const matched = await client.match(id);
    expect(last().status).toBe(200);
    expect(matched.acceptedOffers.length).toBeGreaterThan(0);
    const offer = matched.acceptedOffers[0];
    expect(offer.offerDetails.monthlyRepayment).toBeGreaterThan(0);

    // The link names PUBLIC_BASE_URL, by default port A's number, which is 0 here (any free port): its path is asked of A's listener.
    const click = await fetch(new URL(new URL(offer.trackingUrl).pathname, server.urls['Variant A']), {
      redirect: 'manual',
    });
    expect(click.status).toBe(302);
    expect(new URL(click.headers.get('location')!).searchParams.get('lm_ref')).toBe(offer.offerId);
    expect(await client.getApplication(id)).toMatchObject({ status: 'referred' });

    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('when pnpm start itself is sent SIGTERM, then the server it started drains and exits, freeing its port', async () => {
    // A user's shell: without the node_modules/.bin folders pnpm puts first for the tests (their `node` is a
    // wrapper script, which would itself be the process signalled here).
    const PATH = (process.env.PATH ?? '')
      .split(':')
      .filter((dir) => !dir.includes('node_modules'))
      .join(':');
    const child = spawn('pnpm', ['start'], {
      cwd: ROOT,
      env: {
        PATH,
        HOME: process.env.HOME,
        COREPACK_INTEGRITY_KEYS: '0',
        PORT_A: '0',
        PORT_B: '0',
        PORT_ADMIN: '0',
        DATA_DIR: tempDataDir(),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so that a failed test can end the server with it
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    // 'close': pnpm has exited and every process holding its output, the server too, has closed it.
    const closed = new Promise((resolve) => child.once('close', resolve));
    try {
      const deadline = Date.now() + 90_000;
      while (!/is running[\s\S]*\n\n/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const a = /^ {2}Variant A\s+(http\S+)/m.exec(out)?.[1];
      if (!a) throw new Error(`pnpm start did not start:\n${out}`);
      const health = new URL('/healthz', a);
      expect((await fetch(health)).status).toBe(200);

      child.kill('SIGTERM'); // pnpm's own process, as `kill <pid of pnpm>` sends it
      await closed;
      expect(out).toContain('"message":"draining"');
      // The server itself is gone: its port refuses connections.
      const refused = async () =>
        fetch(health).then(
          () => false,
          () => true,
        );
      const stopBy = Date.now() + 10_000;
      while (!(await refused()) && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 100));
      expect(await refused()).toBe(true);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Nothing of the group is left.
      }
    }
  });
});
