/** The operators' contract lifecycle routes: schedules, brownouts, refusals of bad input, and the usage report. */
import request from 'supertest';
import { createPartner } from '@loanmatch/domain';
import { createContractUsage } from '@loanmatch/http';
import { ONE_STORAGE, countRows, createTestContext, silentLogger, type TestContext } from '../../../../tests/support';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';
const auth = { Authorization: `Bearer ${TOKEN}` };
const GUIDE = 'https://partners.example.com/migrating-to-variant-b';
const LATER = '2027-03-01T00:00:00Z';

describe(`contract lifecycle admin API on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let app: ReturnType<typeof createAdminApp>;
  let partnerId: string;
  let partnerName: string;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    app = createAdminApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), adminToken: TOKEN });
    const created = await createPartner(t.ctx, { body: { name: 'Legacy Loans' } });
    if (!created.ok) throw created.error;
    ({ partnerId, name: partnerName } = created.value);
  });
  afterAll(() => t.close());

  const put = (path: string, body: unknown) =>
    request(app)
      .put(`/admin/v1${path}`)
      .set(auth)
      .send(body as object);

  it('when every partner and one partner get a schedule, then the list shows both and DELETE clears each', async () => {
    const every = await put('/contracts/A/lifecycle', {
      deprecatedAt: '2026-12-01T00:00:00+10:00',
      sunsetAt: '2027-06-30T00:00:00Z',
      link: GUIDE,
    });
    expect(every.status).toBe(200);
    expect(every.body.data).toEqual({
      contract: 'A',
      partnerId: null,
      deprecatedAt: '2026-11-30T14:00:00.000Z',
      sunsetAt: '2027-06-30T00:00:00.000Z',
      link: GUIDE,
      updatedAt: expect.any(String),
    });
    const own = await put(`/partners/${partnerId}/contracts/A/lifecycle`, { deprecatedAt: '2026-11-01T00:00:00Z' });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ partnerId, sunsetAt: null, link: null });

    const list = await request(app).get('/admin/v1/contracts').set(auth);
    expect(list.status).toBe(200);
    expect(list.body.data.contracts).toEqual([
      { contract: 'A', lifecycle: every.body.data, overrides: [own.body.data] },
      { contract: 'B', lifecycle: null, overrides: [] },
    ]);

    const cleared = await request(app).delete(`/admin/v1/partners/${partnerId}/contracts/A/lifecycle`).set(auth);
    expect(cleared.body.data).toEqual({ contract: 'A', partnerId, cleared: true });
    expect((await request(app).delete('/admin/v1/contracts/A/lifecycle').set(auth)).status).toBe(200);
    expect(await countRows(t.db, 'contract_lifecycles')).toBe(0);
  });

  it.each([
    [{ deprecatedAt: '2027-01-02T00:00:00Z', sunsetAt: '2027-01-01T00:00:00Z' }, 'sunsetAt'],
    [{ deprecatedAt: 'next week' }, 'deprecatedAt'],
    [{ sunsetAt: '2027-02-30T00:00:00Z' }, 'sunsetAt'],
    [{ sunsetAt: '2027-02-30T00:00:00.000Z' }, 'sunsetAt'],
    [{ link: 'ftp://partners.example.com/guide' }, 'link'],
    [{ link: '/migrating-to-variant-b' }, 'link'],
    [{ force: 'yes' }, 'force'],
    [{ retiredAt: '2027-01-01T00:00:00Z' }, 'retiredAt'],
  ])('when the schedule is %j, then 400 naming %s and nothing is stored', async (body, field) => {
    const res = await put('/contracts/A/lifecycle', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field })] });
    expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    expect(await countRows(t.db, 'contract_lifecycles')).toBe(0);
  });

  it('when the link is http, then it is taken in the sandbox and refused live', async () => {
    expect((await put('/contracts/B/lifecycle', { link: 'http://localhost:8080/guide' })).status).toBe(200);
    const live = createAdminApp({
      ctx: { ...t.ctx, env: 'live' },
      logger: silentLogger,
      ping: () => t.db.ping(),
      adminToken: TOKEN,
    });
    const refused = await request(live)
      .put('/admin/v1/contracts/B/lifecycle')
      .set(auth)
      .send({ link: 'http://localhost:8080/guide' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('link: must be an absolute https URL');
    await request(app).delete('/admin/v1/contracts/B/lifecycle').set(auth);
  });

  it('when the contract or the partner is unknown, then 400 naming it', async () => {
    const contract = await put('/contracts/C/lifecycle', {});
    expect(contract.body).toMatchObject({ error: 'VALIDATION_ERROR', message: 'contract: must be A or B' });
    for (const unknown of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await put(`/partners/${unknown}/contracts/A/lifecycle`, {});
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('partnerId: must be the id of a partner');
    }
    const brownout = await request(app).post('/admin/v1/contracts/A/brownouts').set(auth).send({
      from: '2027-01-01T00:00:00Z',
      to: '2027-01-01T01:00:00Z',
      partnerId: '00000000-0000-4000-8000-000000000000',
    });
    expect(brownout.body.message).toBe('partnerId: must be the id of a partner');
    expect(await countRows(t.db, 'contract_lifecycles')).toBe(0);
    expect(await countRows(t.db, 'contract_brownouts')).toBe(0);
  });

  it('when both contracts would be sunset for a partner, then 409 NO_CONTRACT_LEFT unless force: true', async () => {
    const sunset = { sunsetAt: '2027-06-30T00:00:00Z' };
    expect((await put(`/partners/${partnerId}/contracts/A/lifecycle`, sunset)).status).toBe(200);
    const refused = await put(`/partners/${partnerId}/contracts/B/lifecycle`, sunset);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('NO_CONTRACT_LEFT');
    // For every partner too: this partner would follow the every-partner row of B.
    expect((await put('/contracts/B/lifecycle', sunset)).body.error).toBe('NO_CONTRACT_LEFT');
    expect(await countRows(t.db, 'contract_lifecycles')).toBe(1);
    const forced = await put(`/partners/${partnerId}/contracts/B/lifecycle`, { ...sunset, force: true });
    expect(forced.status).toBe(200);
    for (const c of ['A', 'B'])
      await request(app).delete(`/admin/v1/partners/${partnerId}/contracts/${c}/lifecycle`).set(auth);
  });

  it('when clearing a partner’s own schedule would leave it both contracts sunset, then 409 unless ?force=true', async () => {
    const own = `/admin/v1/partners/${partnerId}/contracts/A/lifecycle`;
    expect((await put('/contracts/A/lifecycle', { sunsetAt: '2027-06-30T00:00:00Z' })).status).toBe(200);
    expect((await put(`/partners/${partnerId}/contracts/A/lifecycle`, { deprecatedAt: LATER })).status).toBe(200);
    expect((await put(`/partners/${partnerId}/contracts/B/lifecycle`, { sunsetAt: LATER })).status).toBe(200);
    const refused = await request(app).delete(own).set(auth);
    expect([refused.status, refused.body.error]).toEqual([409, 'NO_CONTRACT_LEFT']);
    expect(await countRows(t.db, 'contract_lifecycles')).toBe(3);
    expect((await request(app).delete(`${own}?force=true`).set(auth)).status).toBe(200);
    expect(await countRows(t.db, 'contract_lifecycles')).toBe(2);
    for (const path of [`/partners/${partnerId}/contracts/B/lifecycle`, '/contracts/A/lifecycle'])
      expect((await request(app).delete(`/admin/v1${path}`).set(auth)).status).toBe(200);
  });

  it('when brownouts are scheduled, listed and cancelled, then bad windows are 400 naming the field', async () => {
    const post = (body: unknown) =>
      request(app)
        .post('/admin/v1/contracts/A/brownouts')
        .set(auth)
        .send(body as object);
    const from = new Date(Date.now() + 3_600_000);
    const to = new Date(from.getTime() + 15 * 60_000);
    const made = await post({ from: from.toISOString(), to: to.toISOString(), partnerId });
    expect(made.status).toBe(201);
    expect(made.body.data).toEqual({
      brownoutId: expect.any(String),
      contract: 'A',
      partnerId,
      from: from.toISOString(),
      to: to.toISOString(),
    });
    const bad: Array<[unknown, string]> = [
      [{ from: to.toISOString(), to: from.toISOString() }, 'to: must be after from'],
      [{ from: from.toISOString(), to: from.toISOString() }, 'to: must be after from'],
      [
        { from: from.toISOString(), to: new Date(from.getTime() + 24 * 3_600_000 + 1000).toISOString() },
        'to: must be at most 24 hours after from',
      ],
      [{ to: to.toISOString() }, 'from: is required'],
    ];
    for (const [body, message] of bad) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    // Exactly 24 hours is the longest window taken.
    const day = await post({ from: from.toISOString(), to: new Date(from.getTime() + 24 * 3_600_000).toISOString() });
    expect(day.status).toBe(201);
    const longest = `/admin/v1/contracts/A/brownouts/${day.body.data.brownoutId}`;
    expect((await request(app).delete(longest).set(auth)).status).toBe(200);
    const list = await request(app).get('/admin/v1/contracts/A/brownouts').set(auth);
    expect(list.body.data.brownouts).toEqual([made.body.data]);
    expect((await request(app).get('/admin/v1/contracts/B/brownouts').set(auth)).body.data.brownouts).toEqual([]);
    const id = made.body.data.brownoutId;
    expect((await request(app).delete(`/admin/v1/contracts/B/brownouts/${id}`).set(auth)).status).toBe(404);
    expect((await request(app).delete(`/admin/v1/contracts/A/brownouts/${id}`).set(auth)).status).toBe(200);
    expect(await countRows(t.db, 'contract_brownouts')).toBe(0);
  });

  it('when requests were counted by two processes, then the usage report adds them up, as JSON and as CSV', async () => {
    const first = createContractUsage(t.db, { flushMs: 60_000 });
    const second = createContractUsage(t.db, { flushMs: 60_000 });
    const yesterday = Date.now() - 24 * 3_600_000;
    const now = Date.now();
    first.record(partnerId, 'A', yesterday);
    first.record(partnerId, 'A', now - 1000);
    second.record(partnerId, 'A', now);
    second.record(partnerId, 'B', now);
    await Promise.all([first.close(), second.close()]);
    second.record(partnerId, 'B', now);
    await second.flush();

    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const range = `from=${day(yesterday)}&to=${day(now)}`;
    const json = await request(app).get(`/admin/v1/reports/contract-usage?${range}`).set(auth);
    expect(json.status).toBe(200);
    expect(json.body.data.rows).toEqual([
      { partnerId, partnerName, contract: 'A', requests: 3, lastSeenAt: new Date(now).toISOString() },
      { partnerId, partnerName, contract: 'B', requests: 2, lastSeenAt: new Date(now).toISOString() },
    ]);
    const today = await request(app)
      .get(`/admin/v1/reports/contract-usage?from=${day(now)}`)
      .set(auth);
    expect(today.body.data.rows[0].requests).toBe(2);

    const csv = await request(app).get(`/admin/v1/reports/contract-usage?${range}`).set(auth).set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe(
      'partnerId,partnerName,contract,requests,lastSeenAt\r\n' +
        `${partnerId},${partnerName},A,3,${new Date(now).toISOString()}\r\n` +
        `${partnerId},${partnerName},B,2,${new Date(now).toISOString()}\r\n`,
    );
    const bad = await request(app).get('/admin/v1/reports/contract-usage?from=yesterday').set(auth);
    expect(bad.status).toBe(400);
  });
});
