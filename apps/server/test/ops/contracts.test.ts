/** `pnpm ops contract …`: schedules, brownouts and usage through the admin API. */
import { createPartner } from '@loanmatch/domain';
import { createContractUsage } from '@loanmatch/http';
import { ONE_STORAGE, createTestContext, type TestContext } from '../../../../tests/support';
import { adminEnv, runOpsCapturing, serveAdminApi, type AdminApi } from './admin-api';

const GUIDE = 'https://partners.example.com/migrating-to-variant-b';

describe(`pnpm ops contract on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let api: AdminApi;
  let partnerId: string;
  const ops = (args: string[]) => runOpsCapturing(['contract', ...args], adminEnv(api.url));

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    api = await serveAdminApi(t);
    const created = await createPartner(t.ctx, { body: { name: 'Legacy Loans' } });
    if (!created.ok) throw created.error;
    partnerId = created.value.partnerId;
  });
  afterAll(async () => {
    await api.close();
    await t.close();
  });

  it('when schedules are set, listed and cleared, then each is printed; a bad one fails naming the field', async () => {
    const set = await ops(['set', 'A', '--deprecated-at', '2026-12-01T00:00:00Z', '--link', GUIDE]);
    expect(set.out).toBe(
      `Variant A, every partner: deprecated 2026-12-01T00:00:00.000Z, sunset -, guide ${GUIDE}; in force on every process within seconds.\n`,
    );
    await ops(['set', 'A', '--partner', partnerId, '--sunset-at', '2027-06-30T00:00:00Z']);
    expect((await ops(['list'])).out).toBe(
      [
        'Variant A',
        `    every partner: deprecated 2026-12-01T00:00:00.000Z, sunset -, guide ${GUIDE}`,
        `    partner ${partnerId}: deprecated -, sunset 2027-06-30T00:00:00.000Z, guide -`,
        'Variant B',
        '    every partner: nothing scheduled',
        '',
      ].join('\n'),
    );
    const bad = await ops(['set', 'B', '--sunset-at', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('VALIDATION_ERROR: sunsetAt: must be a date and time with its offset (RFC 3339)');
    expect((await ops(['clear', 'A', '--partner', partnerId])).out).toBe(
      `Variant A: schedule cleared for partner ${partnerId}.\n`,
    );
    expect((await ops(['clear', 'A'])).out).toBe('Variant A: schedule cleared for every partner.\n');
  });

  it('when clearing would leave a partner no contract, then clear fails unless --force', async () => {
    await ops(['set', 'A', '--sunset-at', '2027-06-30T00:00:00Z']);
    await ops(['set', 'A', '--partner', partnerId, '--deprecated-at', '2026-12-01T00:00:00Z']);
    await ops(['set', 'B', '--partner', partnerId, '--sunset-at', '2027-06-30T00:00:00Z']);
    const refused = await ops(['clear', 'A', '--partner', partnerId]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('NO_CONTRACT_LEFT');
    expect((await ops(['clear', 'A', '--partner', partnerId, '--force'])).out).toBe(
      `Variant A: schedule cleared for partner ${partnerId}.\n`,
    );
    await ops(['clear', 'B', '--partner', partnerId]);
    await ops(['clear', 'A']);
  });

  it('when a brownout is added, listed and cancelled, then each is printed', async () => {
    const added = await ops([
      'brownout',
      'add',
      'B',
      '--from',
      '2099-01-01T00:00:00Z',
      '--to',
      '2099-01-01T00:30:00Z',
      '--json',
    ]);
    const { brownoutId } = JSON.parse(added.out);
    const line = `${brownoutId}  Variant B  2099-01-01T00:00:00.000Z to 2099-01-01T00:30:00.000Z  every partner`;
    expect((await ops(['brownout', 'list', 'B'])).out).toBe(`${line}\n`);
    expect((await ops(['brownout', 'cancel', 'B', brownoutId])).out).toBe(`Cancelled ${line}.\n`);
    expect((await ops(['brownout', 'list', 'B'])).out).toBe('No brownout scheduled.\n');
  });

  it('when requests were counted, then usage prints them per partner and contract', async () => {
    const usage = createContractUsage(t.db);
    const at = Date.parse('2026-11-20T10:00:00Z');
    usage.record(partnerId, 'A', at);
    usage.record(partnerId, 'A', at + 1000);
    await usage.close();
    expect((await ops(['usage', '--from', '2026-11-20', '--to', '2026-11-20'])).out).toBe(
      [
        'Requests from 2026-11-20 to 2026-11-20:',
        `    Legacy Loans (${partnerId})  Variant A  2  last 2026-11-20T10:00:01.000Z`,
        '',
      ].join('\n'),
    );
  });
});
