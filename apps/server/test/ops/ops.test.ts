import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ONE_STORAGE,
  createTestContext,
  defaultCatalogueDocument,
  countRows,
  storedRow,
  type TestContext,
} from '../../../../tests/support';
import { TOKEN, adminEnv, type AdminApi, runOpsCapturing, serveAdminApi } from './admin-api';

describe('pnpm ops against a running admin API', () => {
  let t: TestContext;
  let api: AdminApi;
  let url: string;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    api = await serveAdminApi(t);
    url = api.url;
  });
  afterAll(async () => {
    await api.close();
    await t.close();
  });

  const ops = (args: string[], env: Record<string, string> = adminEnv(url)) => runOpsCapturing(args, env);

  it('when a partner is created with --json, then the key is printed once and the partner is listed without it', async () => {
    const created = await ops(['partner', 'create', '--name', 'Acme', '--tier', 'standard', '--json']);
    expect(created.code).toBe(0);
    const data = JSON.parse(created.out);
    expect(data).toMatchObject({
      name: 'Acme',
      tier: 'standard',
      environment: 'sandbox',
      apiKey: expect.stringMatching(/^lm_sandbox_/),
    });
    const listed = await ops(['partner', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(data.partnerId);
    expect(listed.out).not.toContain(data.apiKey);
  });

  it('when a key is issued and revoked, then both commands succeed', async () => {
    const data = JSON.parse((await ops(['partner', 'create', '--name', 'Keys', '--json'])).out);
    const issued = await ops(['key', 'issue', data.partnerId]);
    expect(issued.code).toBe(0);
    expect(issued.out).toMatch(/lm_sandbox_/);
    const revoked = await ops(['key', 'revoke', data.keyId]);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain(`Revoked key ${data.keyId}`);
  });

  it('when the API refuses, then the error code is shown and the exit code is 1', async () => {
    const res = await ops(['partner', 'create', '--name', 'Bad', '--tier', 'gold']);
    expect(res.code).toBe(1);
    expect(res.err).toContain('VALIDATION_ERROR: tier: must be one of free, standard, enterprise');
  });

  it('when the token is wrong or the server unreachable, then a clear message and exit code 1', async () => {
    expect((await ops(['partner', 'list'], { ADMIN_URL: url, ADMIN_TOKEN: 'wrong-token' })).err).toContain(
      'UNAUTHORIZED',
    );
    const down = await ops(['partner', 'list'], { ADMIN_URL: 'http://127.0.0.1:9/admin/v1', ADMIN_TOKEN: TOKEN });
    expect(down.code).toBe(1);
    expect(down.err).toContain('cannot reach the admin API');
    const tokenless = await ops(['partner', 'list'], { ADMIN_URL: url, DATA_DIR: '/nonexistent-loanmatch-data' });
    expect(tokenless.code).toBe(1);
    expect(tokenless.err).toBe(
      'ops: no admin token: set ADMIN_TOKEN, or run where /nonexistent-loanmatch-data/admin-token exists\n',
    );
  });

  it.each<[string, (doc: Record<string, any>) => string]>([
    [
      'a car product without a vehicle LVR',
      (doc) => {
        const car = doc.products.find((p: Record<string, any>) => p.loanType === 'car');
        delete car.car.maxLvrPercent;
        return `product ${car.id}: car.maxLvrPercent: is required: a car loan states its largest amount as a share of what the vehicle calls for`;
      },
    ],
    [
      'an LMI table with a gap',
      (doc) => {
        doc.lmiTables.standard.rows[1].lvrAbovePercent = 86;
        return 'LMI table standard: rows.1.lvrAbovePercent: (86) must equal rows.0.lvrUpToPercent (85): LVRs between them would have no premium';
      },
    ],
    [
      'a home product lending above its LMI threshold without a table',
      (doc) => {
        const home = doc.products.find((p: Record<string, any>) => p.id === 'wattle-home');
        delete home.home.lmi;
        return 'product wattle-home: home.lmi: is required: an occupancy lends above lmiAboveLvrPercent (80%), so its premium needs a table';
      },
    ],
  ])(
    'when `catalogue load` is given %s, then it is refused naming the product (or table) and the rule, and the catalogue in force stays',
    async (_label, breakIt) => {
      const before = JSON.parse((await ops(['catalogue', 'show', '--json'])).out);
      const doc = { ...(defaultCatalogueDocument() as Record<string, any>), effectiveFrom: '2099-01-01' };
      const expected = breakIt(doc);
      const dir = mkdtempSync(path.join(tmpdir(), 'ops-catalogue-'));
      const file = path.join(dir, 'catalogue.json');
      writeFileSync(file, JSON.stringify(doc));
      const res = await ops(['catalogue', 'load', file]);
      rmSync(dir, { recursive: true, force: true });
      expect(res.code).toBe(1);
      expect(res.err).toContain('VALIDATION_ERROR');
      expect(res.err).toContain(expected);
      expect(JSON.parse((await ops(['catalogue', 'show', '--json'])).out)).toEqual(before);
    },
  );

  it('when tiers are listed and one is set, then the limits are shown and the new one stored; a bad tier or number fails', async () => {
    const listed = await ops(['tier', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toBe(
      [
        'free       100 requests per hour',
        'standard   1000 requests per hour',
        'enterprise 10000 requests per hour',
        '',
      ].join('\n'),
    );
    const set = await ops(['tier', 'set', 'free', '--per-hour', '250']);
    expect(set.code).toBe(0);
    expect(set.out).toBe('Tier free now allows 250 requests per hour.\n');
    expect(JSON.parse((await ops(['tier', 'list', '--json'])).out).tiers[0]).toMatchObject({
      tier: 'free',
      requestsPerHour: 250,
    });
    expect(await storedRow(t.db, 'tiers', { name: 'free' })).toMatchObject({ requestsPerHour: 250 });

    const unknown = await ops(['tier', 'set', 'gold', '--per-hour', '5']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('NOT_FOUND: Tier not found');
    const zero = await ops(['tier', 'set', 'free', '--per-hour', '0']);
    expect(zero.code).not.toBe(0);
    expect(zero.err).toContain('must be a whole number of at least 1');
    expect(await storedRow(t.db, 'tiers', { name: 'free' })).toMatchObject({ requestsPerHour: 250 });
  });
  it('when a lender key is issued with --json, then the key is printed once, stored as a digest, and listed without it', async () => {
    const issued = await ops(['lender', 'key', 'issue', 'harbour-bank', '--json']);
    expect(issued.code).toBe(0);
    const data = JSON.parse(issued.out);
    expect(data).toMatchObject({
      lenderId: 'harbour-bank',
      environment: 'sandbox',
      apiKey: expect.stringMatching(/^lm_lender_sandbox_/),
    });
    expect(await countRows(t.db, 'lender_keys', { keyHash: data.apiKey })).toBe(0);
    const listed = await ops(['lender', 'list']);
    expect(listed.out).toContain(`key ${data.keyId}`);
    expect(listed.out).not.toContain(data.apiKey);
    const revoked = await ops(['key', 'revoke', data.keyId]);
    expect(revoked.out).toContain(`Revoked key ${data.keyId}`);
    const unknown = await ops(['lender', 'key', 'issue', 'no-such-lender']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('NOT_FOUND: Lender not found in the catalogue');
  });
});
