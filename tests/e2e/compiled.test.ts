/**
 * `pnpm start` runs the build's output (`dist/`), not the sources the other suites run. The
 * build compiles each file on its own and then turns each module's exports into plain values
 * (tools/build/src/build.ts, `FLAT_EXPORTS`): checked here on the modules the request paths use, and the
 * compiled server is taken through a whole application on the embedded database.
 */
import { spawnSync } from 'node:child_process';
import { VALID_STEPS } from '@loanmatch/testing';
import { applicant, createRequest, partnerA } from './clients';
import { ROOT, run, startServer, tempDataDir, type Started } from './process';

jest.setTimeout(120_000);

/** Modules of the request paths, and the packages' entries that re-export them (`export *`). */
const MODULES = [
  'packages/domain/src/index',
  'packages/domain/src/offers',
  'packages/domain/src/matching/index',
  'packages/domain/src/matching/match',
  'packages/domain/src/matching/finance',
  'packages/db/src/index',
  'packages/db/src/sql',
  'packages/http/src/index',
  'packages/config/src/index',
];

/** What a compiled module exports, read in a process of its own: each name, and whether it is read through a getter. */
function compiledExports(): Record<string, { names: string[]; getters: string[] }> {
  const script = `
    const out = {};
    for (const m of ${JSON.stringify(MODULES)}) {
      const e = require('./dist/' + m + '.js');
      const names = Object.keys(e);
      out[m] = { names, getters: Object.getOwnPropertyNames(e).filter((k) => Object.getOwnPropertyDescriptor(e, k).get) };
    }
    process.stdout.write(JSON.stringify(out));`;
  const res = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  if (res.status !== 0) throw new Error(`reading dist/ failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as Record<string, { names: string[]; getters: string[] }>;
}

describe('the compiled service (pnpm start)', () => {
  let server: Started | undefined;

  beforeAll(async () => {
    const built = await run(['tools/build/src/build.ts'], {});
    if (built.code !== 0) throw new Error(`pnpm build failed: ${built.err}`);
  });

  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('when built, then each module exports the names its source exports, as plain values, not getters', () => {
    const compiled = compiledExports();
    for (const m of MODULES) {
      const source = Object.keys(require(`${ROOT}/${m}`) as object).sort();
      expect({ module: m, names: [...compiled[m].names].sort() }).toEqual({ module: m, names: source });
      expect({ module: m, getters: compiled[m].getters }).toEqual({ module: m, getters: [] });
    }
  });

  it('when started, then it takes an application through the credit check, matches it, forwards a click, and stops on SIGTERM', async () => {
    server = await startServer({ compiled: true, env: { DATA_DIR: tempDataDir() } });
    const { client, last } = partnerA(server.urls['Variant A'], server.demoApiKey!);
    const { applicationId: id } = await client.createApplication(createRequest('personal'), { idempotencyKey: 'compiled-create' });
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
    const click = await fetch(new URL(new URL(offer.trackingUrl).pathname, server.urls['Variant A']), { redirect: 'manual' });
    expect(click.status).toBe(302);
    expect(new URL(click.headers.get('location')!).searchParams.get('lm_ref')).toBe(offer.offerId);
    expect(await client.getApplication(id)).toMatchObject({ status: 'referred' });

    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
