/**
 * `lead.created` through the dispatcher: to the offer's lender's endpoints of the partner's environment
 * only, the lead read when it is sent, a disclosure recorded on a 2xx alone, and nothing sent once the
 * applicant's data was erased or the lender's keys were revoked.
 */
import { randomUUID } from 'node:crypto';
import {
  createPartner,
  erasePersonalData,
  followTrackingLink,
  getApplicationDisclosures,
  issueLenderKey,
  matchApplication,
  registerLenderWebhook,
  registerWebhook,
  revokeKey,
  runCreditCheck,
  type DomainContext,
} from '@loanmatch/domain';
import {
  ONE_STORAGE,
  createTestContext,
  personalThroughStep4,
  startWebhookReceiver,
  validApplicant,
  type TestContext,
  type WebhookReceiver,
} from '../../../../tests/support';
import { createDispatcher } from '../../src';

jest.setTimeout(30_000);

describe('lead.created deliveries', () => {
  let t: TestContext;
  let ctx: DomainContext;
  let receiver: WebhookReceiver;
  let partnerId: string;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    ctx = t.ctx;
    receiver = await startWebhookReceiver();
    const partner = await createPartner(ctx, { body: { name: 'Lead Partner' } });
    if (!partner.ok) throw partner.error;
    partnerId = partner.value.partnerId;
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  afterEach(() => {
    receiver.received.length = 0;
    receiver.reply(() => ({ status: 204 }));
  });

  const dispatcher = () =>
    createDispatcher({ ctx, pollMs: 60_000, retry: { retryDelaysMs: [100], disableAfterMs: 1e9, random: () => 0.5 } });

  /** An application matched; its first offer's lender and a function that follows the offer. */
  async function matched() {
    const applicationId = await personalThroughStep4(ctx, partnerId);
    const body = { data: validApplicant() };
    await runCreditCheck(ctx, { partnerId, applicationId, body, idempotencyKey: randomUUID(), sandboxScore: '800' });
    const answer = await matchApplication(ctx, { partnerId, applicationId });
    if (!answer.ok) throw answer.error;
    const [offer] = answer.value.acceptedOffers;
    const follow = () => followTrackingLink(ctx, { token: new URL(offer.trackingUrl).pathname.slice(3) });
    return { applicationId, reference: offer.offerId, lenderId: offer.lender.id, follow };
  }
  /** A lender key of the environment, and the endpoint the lender registers with it. */
  async function endpoint(lenderId: string, path: string, environment: 'sandbox' | 'live' = 'sandbox') {
    const key = await issueLenderKey(ctx, { lenderId, body: { environment } });
    if (!key.ok) throw key.error;
    const hook = await registerLenderWebhook(ctx, {
      lender: { lenderId, environment },
      body: { url: `${receiver.origin}${path}` },
    });
    if (!hook.ok) throw hook.error;
    return { ...hook.value, keyId: key.value.keyId };
  }
  const disclosures = async (applicationId: string) => {
    const answer = await getApplicationDisclosures(ctx, { applicationId });
    if (!answer.ok) throw answer.error;
    return answer.value.disclosures;
  };

  it('when a referral is made, then only its lender’s endpoint of that environment gets the lead, and a 2xx alone records it', async () => {
    const m = await matched();
    await endpoint(m.lenderId, '/mine');
    await endpoint(m.lenderId, '/live', 'live');
    await endpoint(m.lenderId === 'harbour-bank' ? 'greenfield-bank' : 'harbour-bank', '/other');
    const partnerHook = await registerWebhook(ctx, { partnerId, body: { url: `${receiver.origin}/partner` } });
    expect(partnerHook.ok).toBe(true);
    await m.follow();
    receiver.reply((_, r) => ({ status: r.path === '/mine' ? 500 : 204 }));
    await dispatcher().runOnce();
    expect(await disclosures(m.applicationId)).toEqual([]);
    receiver.reply(() => ({ status: 204 }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await dispatcher().runOnce();
    const leads = receiver.received.filter((r) => JSON.parse(r.body).type === 'lead.created');
    expect(leads.map((r) => r.path)).toEqual(['/mine', '/mine']);
    const lead = JSON.parse(leads[1].body).data;
    expect(lead).toMatchObject({ reference: m.reference, applicant: { firstName: 'Jordan' } });
    expect(leads[1].body).not.toMatch(/"(score|band|scoreBand)"|sandbox/i);
    expect(receiver.received.some((r) => r.path === '/partner' && r.body.includes('Jordan'))).toBe(false);
    expect(await disclosures(m.applicationId)).toEqual([
      { lenderId: m.lenderId, reference: m.reference, channel: 'push', at: expect.any(String) },
    ]);
    // The outbox keeps the reference only.
    const [event] = await t.db.query<{ data: unknown }>(
      `SELECT data FROM webhook_events WHERE type = 'lead.created' AND data ->> 'reference' = $1`,
      [m.reference],
    );
    expect(event.data).toEqual({ reference: m.reference });
  });

  it('when an earlier lead’s delivery is retried, then a later lead waits for it: an endpoint gets leads in referral order', async () => {
    const first = await matched();
    const second = await matched();
    expect(second.lenderId).toBe(first.lenderId);
    const hook = await endpoint(first.lenderId, '/ordered');
    await first.follow();
    await second.follow();
    const referenceOf = (body: string) => JSON.parse(body).data.reference;
    receiver.reply((_, r) => ({ status: referenceOf(r.body) === first.reference ? 500 : 204 }));
    // A retry far off, brought forward below: however slow the run, the first lead is retried once.
    const retry = { retryDelaysMs: [60_000], disableAfterMs: 1e9, random: () => 0.5 };
    await createDispatcher({ ctx, pollMs: 60_000, retry }).runOnce();
    const ordered = () => receiver.received.filter((r) => r.path === '/ordered').map((r) => referenceOf(r.body));
    expect(ordered()).toEqual([first.reference]);
    receiver.reply(() => ({ status: 204 }));
    await t.db.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 second' WHERE webhook_id = $1 AND state = 'pending'`,
      [hook.webhookId],
    );
    await createDispatcher({ ctx, pollMs: 60_000, retry }).runOnce();
    // The later lead is claimed once the earlier one is acknowledged.
    await receiver.waitFor(3, { filter: (r) => r.path === '/ordered' });
    expect(ordered()).toEqual([first.reference, first.reference, second.reference]);
  });

  it('when the applicant’s data is erased before the lead is sent, then nothing is sent or recorded', async () => {
    const m = await matched();
    await endpoint(m.lenderId, '/erased');
    await m.follow();
    expect((await erasePersonalData(ctx, { applicationId: m.applicationId })).ok).toBe(true);
    await dispatcher().runOnce();
    expect(receiver.received.filter((r) => r.path === '/erased')).toEqual([]);
    expect(await disclosures(m.applicationId)).toEqual([]);
  });

  it('when every key of the lender in that environment is revoked, then its endpoint is sent no lead and nothing is recorded', async () => {
    const m = await matched();
    const { keyId } = await endpoint(m.lenderId, '/revoked');
    const keys = await t.db.query<{ id: string }>(
      `SELECT id FROM lender_keys WHERE lender_id = $1 AND environment = 'sandbox' AND revoked_at IS NULL`,
      [m.lenderId],
    );
    expect(keys.map((k) => k.id)).toContain(keyId);
    for (const key of keys) expect((await revokeKey(ctx, { keyId: key.id })).ok).toBe(true);
    await m.follow();
    await dispatcher().runOnce();
    expect(receiver.received.filter((r) => r.path === '/revoked')).toEqual([]);
    expect(await disclosures(m.applicationId)).toEqual([]);
  });
});
