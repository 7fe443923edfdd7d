/** `pnpm ops application disclosures` and `pnpm ops lead show`, over the admin API. */
import { randomUUID } from 'node:crypto';
import {
  createPartner,
  followTrackingLink,
  getLead,
  matchApplication,
  runCreditCheck,
  showLead,
} from '@loanmatch/domain';
import {
  ONE_STORAGE,
  createTestContext,
  personalThroughStep4,
  validApplicant,
  type TestContext,
} from '../../../../tests/support';
import { adminEnv, runOpsCapturing, serveAdminApi, type AdminApi } from './admin-api';

describe('pnpm ops application disclosures and lead show', () => {
  let t: TestContext;
  let api: AdminApi;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    api = await serveAdminApi(t);
    env = adminEnv(api.url);
  });
  afterAll(async () => {
    await api.close();
    await t.close();
  });

  /** A referral of a fresh application: its id, reference and lender. */
  async function referral() {
    const partner = await createPartner(t.ctx, { body: { name: 'Ops Leads' } });
    if (!partner.ok) throw partner.error;
    const { partnerId } = partner.value;
    const applicationId = await personalThroughStep4(t.ctx, partnerId);
    const body = { data: validApplicant() };
    await runCreditCheck(t.ctx, { partnerId, applicationId, body, idempotencyKey: randomUUID(), sandboxScore: '800' });
    const matched = await matchApplication(t.ctx, { partnerId, applicationId });
    if (!matched.ok) throw matched.error;
    const [offer] = matched.value.acceptedOffers;
    await followTrackingLink(t.ctx, { token: new URL(offer.trackingUrl).pathname.slice(3) });
    return { applicationId, reference: offer.offerId, lenderId: offer.lender.id };
  }

  it('when a lender read a lead, then disclosures lists it and lead show prints the lead without recording it', async () => {
    const r = await referral();
    const none = await runOpsCapturing(['application', 'disclosures', r.applicationId], env);
    expect(none).toMatchObject({ code: 0, out: 'No lead of this application has been shown to a lender.\n' });

    const pulled = await getLead(t.ctx, {
      lender: { lenderId: r.lenderId, environment: 'sandbox' },
      reference: r.reference,
    });
    if (!pulled.ok) throw pulled.error;
    const listed = await runOpsCapturing(['application', 'disclosures', r.applicationId, '--json'], env);
    expect(JSON.parse(listed.out)).toEqual({
      disclosures: [{ lenderId: r.lenderId, reference: r.reference, channel: 'pull', at: expect.any(String) }],
    });

    const shown = await runOpsCapturing(['lead', 'show', r.reference], env);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out)).toEqual(pulled.value);
    const after = await runOpsCapturing(['application', 'disclosures', r.applicationId, '--json'], env);
    expect(JSON.parse(after.out).disclosures).toHaveLength(1);
  });

  it('when the application or the lead is unknown, then the command fails with NOT_FOUND', async () => {
    const unknown = randomUUID();
    expect(await runOpsCapturing(['application', 'disclosures', unknown], env)).toMatchObject({
      code: 1,
      err: 'ops: NOT_FOUND: Application not found\n',
    });
    expect(await runOpsCapturing(['lead', 'show', unknown], env)).toMatchObject({
      code: 1,
      err: 'ops: NOT_FOUND: Lead not found\n',
    });
    expect((await showLead(t.ctx, { reference: 'nope' })).ok).toBe(false);
  });
});
