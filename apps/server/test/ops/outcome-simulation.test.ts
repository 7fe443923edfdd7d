import { createPartner, followTrackingLink, matchApplication, runCreditCheck } from '@loanmatch/domain';
import {
  ONE_STORAGE,
  createTestContext,
  personalThroughStep4,
  validApplicant,
  storedRow,
  storedRows,
  type TestContext,
} from '../../../../tests/support';
import { adminEnv, runOpsCapturing, type AdminApi, serveAdminApi } from './admin-api';

describe('pnpm ops outcome simulate (sandbox)', () => {
  let t: TestContext;
  let api: AdminApi;

  let applicants = 0;
  /**
   * A sandbox (or live) partner's application taken to a referral through the domain; answers its lm_ref.
   * Each of another applicant, so that no referral is a duplicate of an earlier one (lead ownership).
   */
  async function referral(environment: 'sandbox' | 'live' = 'sandbox'): Promise<string> {
    const n = ++applicants;
    const partner = await createPartner(t.ctx, { body: { name: `Sim ${environment}`, environment } });
    if (!partner.ok) throw partner.error;
    const { partnerId } = partner.value;
    const applicationId = await personalThroughStep4(t.ctx, partnerId);
    await runCreditCheck(t.ctx, {
      partnerId,
      applicationId,
      body: { data: validApplicant({ email: `sim${n}@example.com`, mobileNumber: `04${String(n).padStart(8, '0')}` }) },
      idempotencyKey: `k-${applicationId}`,
      sandboxScore: 'excellent',
    });
    const matched = await matchApplication(t.ctx, { partnerId, applicationId });
    if (!matched.ok) throw matched.error;
    const token = new URL(matched.value.acceptedOffers[0].trackingUrl).pathname.split('/').pop()!;
    const followed = await followTrackingLink(t.ctx, { token });
    if (!followed.ok) throw followed.error;
    return new URL(followed.value.location).searchParams.get('lm_ref')!;
  }

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    api = await serveAdminApi(t);
  });
  afterAll(async () => {
    await api.close();
    await t.close();
  });

  const ops = (args: string[]) => runOpsCapturing(args, adminEnv(api.url));
  /** The referral with its lender's events. */
  const stored = async (reference: string): Promise<{ [field: string]: any; outcomes: any[] }> => {
    const row = await storedRow(t.db, 'referrals', { offerId: reference });
    return { ...row, outcomes: await storedRows(t.db, 'referral_outcomes', { referralId: row.id }) };
  };

  it('when a referral is simulated through funded, then its lender’s events are recorded one per stage and it earns its commission', async () => {
    const reference = await referral();
    const res = await ops(['outcome', 'simulate', reference, '--through', 'funded', '--amount', '12000.50']);
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    const row = await stored(reference);
    expect(res.out).toBe(
      ['    application_started', '    approved', '    funded', `Referral ${row.id} is now funded.`, ''].join('\n'),
    );
    expect(row.outcomes.map((o) => [o.type, o.keyId, o.lenderId])).toEqual(
      ['application_started', 'approved', 'funded'].map((type) => [type, null, row.lenderId]),
    );
    expect(row).toMatchObject({ outcomeStatus: 'funded', fundedAmountCents: 1_200_050, fundingStands: true });
    expect(Number(row.commissionCents)).toBeGreaterThan(0);

    // Again: the lifecycle refuses a start after the funding, and nothing more is stored.
    const again = await ops(['outcome', 'simulate', reference, '--through', 'funded']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('OUTCOME_TRANSITION_INVALID');
    expect((await stored(reference)).outcomes).toHaveLength(3);
  });

  it('when a referral is simulated through cancelled, then the funding is clawed back; through declined, the reason is kept', async () => {
    const cancelled = await referral();
    const json = JSON.parse((await ops(['outcome', 'simulate', cancelled, '--through', 'cancelled', '--json'])).out);
    expect(json).toMatchObject({ status: 'cancelled', events: [{}, {}, {}, { status: 'cancelled' }] });
    expect(await stored(cancelled)).toMatchObject({ commissionCents: 0, fundingStands: false });

    const declined = await referral();
    await ops(['outcome', 'simulate', declined, '--through', 'declined', '--reason', 'employment']);
    const row = await stored(declined);
    expect(row.outcomeStatus).toBe('declined');
    expect(row.outcomes.find((o) => o.type === 'declined')?.declineReason).toBe('employment');
  });

  it("when the referral is a live partner's, unknown, or the stage is not one, then it is refused and nothing is stored", async () => {
    const live = await referral('live');
    const refused = await ops(['outcome', 'simulate', live, '--through', 'approved']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('NOT_FOUND: reference: names no referral of a sandbox partner');
    expect((await stored(live)).outcomes).toHaveLength(0);
    expect(
      (await ops(['outcome', 'simulate', '00000000-0000-4000-8000-000000000000', '--through', 'approved'])).err,
    ).toContain('NOT_FOUND');
    const bad = await ops(['outcome', 'simulate', live, '--through', 'paid']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(
      '--through must be one of application_started, approved, declined, funded, withdrawn, cancelled',
    );
    const reason = await ops(['outcome', 'simulate', await referral(), '--through', 'declined', '--reason', 'mood']);
    expect(reason.err).toContain('VALIDATION_ERROR: declineReason: must be one of');
    // A bad last stage is refused before any stage is sent: nothing recorded, and the referral can be simulated.
    const fresh = await referral();
    for (const amount of ['12.345', 'abc']) {
      const amountRefused = await ops(['outcome', 'simulate', fresh, '--through', 'funded', '--amount', amount]);
      expect(amountRefused.code).toBe(1);
      expect(amountRefused.err).toContain('VALIDATION_ERROR: fundedAmount:');
      expect((await stored(fresh)).outcomes).toHaveLength(0);
    }
    expect((await ops(['outcome', 'simulate', fresh, '--through', 'funded', '--amount', '15000'])).code).toBe(0);
  });
});
