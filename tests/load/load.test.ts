/**
 * A mixed load on the real service: two server processes (each with Variant A, B and the admin API) on
 * one PostgreSQL database of this test's own and one Redis key prefix, loaded for LOAD_SECONDS (20 by
 * default; `LOAD_SECONDS=300 pnpm test:load` for a longer run) by virtual users running
 * whole flows of both contracts and all three loan types, with replays and concurrent duplicates,
 * beside a free-tier partner held at a real hourly limit. Then: no 5xx, no request without an answer,
 * no answer the contract does not allow, and the database holds exactly what was acknowledged.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { REDIS_URL, createPgDatabase, openTestRedis } from '../support';
import { api, clusterSecrets, startServer, tempDataDir, type Started } from '../e2e/process';
import { Ledger } from './ledger';
import { Recorder } from './recorder';
import { limitedPartner } from './limited-partner';
import { VirtualUser } from './virtual-user';
import type { LoadPartner, Server, World } from './world';
import { verifyDatabase } from './verify';

/** Long enough for every kind of flow, replay and race to happen many times, and the free tier to be refused. */
const DEFAULT_LOAD_SECONDS = 20;
const LOAD_SECONDS = loadSeconds(process.env.LOAD_SECONDS);
const VIRTUAL_USERS = 24;
const SERVER_PROCESSES = 2;
/** The free tier's hourly limit during the load: low enough that its partner is refused within seconds even on a slow machine. */
const FREE_TIER_PER_HOUR = 10;

jest.setTimeout((LOAD_SECONDS + 240) * 1000);

function loadSeconds(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_LOAD_SECONDS;
  const n = Number(raw);
  if (!(n > 0 && n <= 3600))
    throw new Error(`LOAD_SECONDS must be a number of seconds between 1 and 3600 (got "${raw}")`);
  return n;
}

describe(`${LOAD_SECONDS} s of mixed load on two processes over PostgreSQL and Redis`, () => {
  const runId = randomBytes(4).toString('hex');
  const secrets = clusterSecrets();
  const adminToken = secrets.ADMIN_TOKEN;
  let database: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  const dataDirs: string[] = [];
  const servers: Started[] = [];
  let redis: Awaited<ReturnType<typeof openTestRedis>> | undefined;

  beforeAll(async () => {
    database = await createPgDatabase();
    redis = await openTestRedis();
    const env = {
      ...secrets,
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: redis.prefix,
      // Variant A's per-key limit out of the way; the real limit under load is the free tier's below.
      RATE_LIMIT_A_PER_MINUTE: '100000000',
    };
    const started = await Promise.allSettled(
      Array.from({ length: SERVER_PROCESSES }, () => {
        const dataDir = tempDataDir();
        dataDirs.push(dataDir);
        return startServer({ env: { ...env, DATA_DIR: dataDir } });
      }),
    );
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await redis?.close();
    await database?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('when virtual users run whole flows of A and B with replays and duplicates, then no 5xx, every request is answered as the contract allows, and the database holds exactly what was acknowledged', async () => {
    const admin = servers[0].urls['Admin API'];
    const adminCall = async (method: string, path: string, body?: unknown) => {
      const res = await api(admin, method, path, { key: adminToken, body });
      if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${res.text}`);
      return res.body.data;
    };
    const partnerOf = async (name: string, tier: string, keys: number): Promise<LoadPartner> => {
      const made = await adminCall('POST', '/partners', { name, tier });
      const apiKeys = [made.apiKey];
      for (let i = 1; i < keys; i++) apiKeys.push((await adminCall('POST', `/partners/${made.partnerId}/keys`)).apiKey);
      return { partnerId: made.partnerId, apiKeys };
    };
    const partners = [
      await partnerOf('Load Enterprise', 'enterprise', 2),
      await partnerOf('Load Standard', 'standard', 2),
    ];
    const limited = await partnerOf('Load Free', 'free', 1);
    for (const tier of ['enterprise', 'standard'])
      await adminCall('PUT', `/tiers/${tier}`, { requestsPerHour: 10_000_000 });
    await adminCall('PUT', '/tiers/free', { requestsPerHour: FREE_TIER_PER_HOUR });
    // No Variant B request has been made yet: each process reads these limits on its first one.

    const rec = new Recorder();
    const ledger = new Ledger();
    const targets: Server[] = servers.map((s) => ({ a: s.urls['Variant A'], b: s.urls['Variant B'] }));
    const started = Date.now();
    const world: World = { servers: targets, partners, rec, ledger, runId, deadline: started + LOAD_SECONDS * 1000 };
    await Promise.all([
      ...Array.from({ length: VIRTUAL_USERS }, (_, n) => new VirtualUser(world, n).run()),
      limitedPartner(world, limited, 100),
    ]);
    const seconds = (Date.now() - started) / 1000;

    const verified = await verifyDatabase(database!.url, ledger);
    const apps = [...ledger.apps.values()];
    const kinds = new Map<string, number>();
    for (const app of apps)
      kinds.set(`${app.contract} ${app.formType}`, (kinds.get(`${app.contract} ${app.formType}`) ?? 0) + 1);
    process.stdout.write(
      [
        '',
        `Load: ${VIRTUAL_USERS} virtual users + 1 free-tier partner, ${SERVER_PROCESSES} processes, ${LOAD_SECONDS} s`,
        rec.summary(seconds),
        `Acknowledged: ${apps.length} applications (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}), ` +
          `${apps.filter((a) => a.check).length} credit checks, ${apps.reduce((n, a) => n + a.matches, 0)} matches, ${apps.reduce((n, a) => n + a.referrals.size, 0)} referrals`,
        `Database: ${Object.entries(verified.counts)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}; ${verified.problems.length} disagreements`,
        `Exercised: ${[...ledger.exercised].map(([k, n]) => `${k} ×${n}`).join('; ')}`,
        '',
      ].join('\n'),
    );
    const serverErrors = [...rec.byStatus()].filter(([status]) => status >= 500);
    if (serverErrors.length || verified.problems.length || rec.anomalies.length) {
      process.stdout.write(
        servers.map((s, i) => `--- server ${i} output (last 4000 characters)\n${s.output().slice(-4000)}`).join('\n'),
      );
    }

    expect(rec.unknowns).toEqual([]);
    expect(serverErrors).toEqual([]);
    expect(rec.anomalies.slice(0, 30)).toEqual([]);
    expect(verified.problems.slice(0, 50)).toEqual([]);

    // The load did what it says: every loan type on A, B flows, links followed, duplicates raced, the limit hit.
    for (const kind of ['A personal', 'A car', 'A home', 'B personal'])
      expect([kind, (kinds.get(kind) ?? 0) > 0]).toEqual([kind, true]);
    expect(apps.some((a) => a.referrals.size > 0)).toBe(true);
    for (const what of [
      'A create: replay',
      'A create: concurrent duplicates',
      'B create: replay',
      'check: replay',
      'check: concurrent duplicates, one key',
      'check: concurrent checks, two keys',
      'tracking link: clicked twice at once',
    ]) {
      expect([what, (ledger.exercised.get(what) ?? 0) > 0]).toEqual([what, true]);
    }
    expect(
      rec.countOf('B POST /auth/token (free tier)', 429) + rec.countOf('B POST /applications (free tier)', 429),
    ).toBeGreaterThan(0);
    expect(apps.filter((a) => a.partnerId === limited.partnerId).length).toBeLessThanOrEqual(FREE_TIER_PER_HOUR);
  });
});
