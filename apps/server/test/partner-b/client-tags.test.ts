/** Variant B's flat `clientTags` on create: the rules of Variant A's, carried onto referrals and outcome events. */
import {
  ONE_STORAGE,
  createTestContext,
  silentLogger,
  countRows,
  storedRow,
  type TestContext,
} from '../../../../tests/support';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { JWT_SECRET, accessTokenFor, clientB, flatApplication, newPartner } from './helpers';

describe(`clientTags through Variant B on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let b: ReturnType<typeof clientB>;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    const app = createPartnerBApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      jwt: { secret: JWT_SECRET },
    });
    b = clientB(app, await accessTokenFor(app, (await newPartner(t.ctx)).apiKey));
  });
  afterAll(() => t.close());

  it('when the flat create carries clientTags, then they are stored with the application and the answer is unchanged', async () => {
    const res = await b.create({ ...flatApplication(), clientTags: { campaign: 'b-flat', partnerRef: 'P-42' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(['applicationId', 'securityToken']);
    const stored = (await storedRow(t.db, 'applications', { id: res.body.data.applicationId }))!;
    expect(stored.clientTags).toEqual({ campaign: 'b-flat', partnerRef: 'P-42' });
  });

  it('when clientTags break a bound, then 400 naming clientTags and nothing is made', async () => {
    const before = await countRows(t.db, 'applications');
    const res = await b.create({
      ...flatApplication(),
      clientTags: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: 'clientTags', rule: 'maxProperties', message: 'clientTags: must hold at most 5 tags' },
    ]);
    expect(await countRows(t.db, 'applications')).toBe(before);
  });
});
