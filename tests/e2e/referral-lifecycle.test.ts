/**
 * A referral's whole life on a started server (`pnpm start`, embedded database), through the SDK as
 * partners and lenders use it: a tagged application is created, checked, matched and followed; the
 * lender, with a key issued by `pnpm ops`, reports it started, approved and funded; the partner sees the
 * funded loan and its commission in its referrals, in its report as JSON and as CSV on both contracts,
 * and in a signed `referral.outcome_changed` webhook; operators see it in the funnel.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { LoanMatchApiError, LoanMatchLenderClient } from '@loanmatch/client';
import { VALID_STEPS } from '../support';
import { applicant, partnerA, partnerB } from './clients';
import { api, run, serverWithReceiver } from './process';

jest.setTimeout(120_000);

const TAGS = { campaign: 'summer-2026', channel: 'email' };

describe('a referral from create to a funded loan in the partner’s report, on pnpm start', () => {
  const started = serverWithReceiver();

  it('when the lender reports the loan funded, then the partner’s referrals, report and CSV show it, with the commission, and the webhook announced it', async () => {
    const { server, receiver, dataDir } = started;
    const A = server.urls['Variant A'];
    const ADMIN = server.urls['Admin API'];
    const { client: a } = partnerA(A, server.demoApiKey!);
    const { secret } = await a.webhooks.register({
      url: `${receiver.origin}/outcomes`,
      events: ['referral.outcome_changed'],
    });

    // The partner: a tagged application, through the check and the match; the applicant follows the first offer.
    const { applicationId } = await a.createApplication({
      formType: 'personal',
      data: { loanAmount: 20000 },
      clientTags: TAGS,
    });
    for (const step of [2, 3, 4] as const) await a.saveStep(applicationId, step, VALID_STEPS.personal[step] as never);
    await a.runCreditCheck(applicationId, applicant(), { sandboxScore: 'excellent' });
    const [offer] = (await a.match(applicationId)).acceptedOffers;
    // The listener's port was chosen at start (PORT_A=0): the link's origin is the configured public one.
    const followed = await fetch(offer.trackingUrl.replace(/^http:\/\/[^/]+/, new URL(A).origin), {
      redirect: 'manual',
    });
    expect(followed.status).toBe(302);
    const reference = new URL(followed.headers.get('location')!).searchParams.get('lm_ref')!;
    expect(reference).toBe(offer.offerId);

    // The lender: a key from `pnpm ops lender key issue`, then its events, in the SDK.
    const issued = await run(['apps/server/src/ops/main.ts', 'lender', 'key', 'issue', offer.lender.id, '--json'], {
      ADMIN_URL: ADMIN,
      DATA_DIR: dataDir,
    });
    expect(issued.err).toBe('');
    const { apiKey: lenderKey } = JSON.parse(issued.out);
    const lender = new LoanMatchLenderClient({
      baseUrl: `${new URL(A).origin}/api/lender/v1`,
      apiKey: lenderKey,
      retries: 0,
    });
    // Minutes before now, within the clocks' 5-minute tolerance of the referral just made.
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    await lender.reportOutcome({ reference, eventId: 'e2e-1', type: 'application_started', occurredAt: at(4) });
    const fundedEvent = {
      reference,
      eventId: 'e2e-3',
      type: 'funded' as const,
      occurredAt: at(2),
      fundedAmount: 20000,
      fundedAt: at(2),
    };
    const funded = await lender.reportOutcome(fundedEvent);
    expect(funded.status).toBe('funded');
    // The approval arrives last, out of order: kept, and the outcome stays funded.
    expect(
      (await lender.reportOutcome({ reference, eventId: 'e2e-2', type: 'approved', occurredAt: at(3) })).status,
    ).toBe('funded');
    expect(await lender.reportOutcome(fundedEvent)).toEqual(funded); // a retry: the first answer
    const refused = await lender
      .reportOutcome({ reference, eventId: 'e2e-4', type: 'declined', declineReason: 'policy', occurredAt: at(1) })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(LoanMatchApiError);
    expect((refused as LoanMatchApiError).code).toBe('OUTCOME_TRANSITION_INVALID');

    // The partner's referrals: tags, outcome, commission.
    const { referrals } = await a.listReferrals();
    const mine = referrals.find((r) => r.offerId === offer.offerId)!;
    expect(mine).toMatchObject({
      clientTags: TAGS,
      outcome: { status: 'funded', fundedAmount: 20000, updatedAt: fundedEvent.occurredAt },
      commission: { currency: 'AUD' },
    });
    const commission = mine.commission!.amount;
    expect(commission).toBeGreaterThan(0);

    // The report, JSON and CSV, on Variant A and on Variant B with the same key.
    const expected = {
      group: 'summer-2026',
      referrals: 1,
      started: 1,
      approved: 1,
      declined: 0,
      funded: 1,
      fundedAmount: 20000,
      commission,
      duplicates: 0,
    };
    expect((await a.reports.referrals({ groupBy: 'tag:campaign' })).rows).toEqual([expected]);
    const csv = await a.reports.referralsCsv({ groupBy: 'tag:campaign' });
    expect(csv).toBe(
      `group,referrals,started,approved,declined,funded,fundedAmount,commission,duplicates\r\nsummer-2026,1,1,1,0,1,20000.00,${commission.toFixed(2)},0\r\n`,
    );
    const { client: b } = partnerB(server.urls['Variant B'], server.demoApiKey!);
    expect((await b.reports.referrals({ groupBy: 'tag:campaign' })).rows).toEqual([expected]);
    expect(await b.reports.referralsCsv({ groupBy: 'tag:campaign' })).toBe(csv);
    expect((await b.listReferrals()).referrals.map((r) => r.offerId)).toContain(offer.offerId);

    // The webhook: signed, in order, without personal data.
    const received = await receiver.waitFor(2, { timeoutMs: 15_000 });
    const bodies = received.map((r) => JSON.parse(r.body));
    expect(bodies.map((e) => [e.data.previousStatus, e.data.status])).toEqual([
      [null, 'application_started'],
      ['application_started', 'funded'],
    ]);
    expect(bodies[1].data).toEqual({
      referralId: mine.referralId,
      applicationId,
      lenderId: offer.lender.id,
      status: 'funded',
      previousStatus: 'application_started',
      clientTags: TAGS,
    });
    for (const r of received) {
      expect(() =>
        new StandardWebhook(secret.slice('whsec_'.length)).verify(r.body, r.headers as Record<string, string>),
      ).not.toThrow();
      expect(r.body).not.toMatch(/Jordan|Citizen|example\.com|0412345678/);
    }

    // The operators' funnel.
    const funnel = await api(ADMIN, 'GET', '/reports/funnel', { key: server.adminToken });
    expect(funnel.body.data).toMatchObject({ referrals: 1, funded: 1, fundedAmount: 20000, commission });
  });

  it('when a partner key is sent to the lender route, or a lender key to a partner route, then 401', async () => {
    const { server } = started;
    const A = server.urls['Variant A'];
    const origin = new URL(A).origin;
    const partnerKeyOnLender = await api(origin, 'POST', '/api/lender/v1/outcomes', {
      key: server.demoApiKey,
      body: {
        reference: '00000000-0000-4000-8000-000000000000',
        eventId: 'x',
        type: 'approved',
        occurredAt: new Date().toISOString(),
      },
    });
    expect(partnerKeyOnLender.status).toBe(401);
    const issued = await api(server.urls['Admin API'], 'POST', '/lenders/harbour-bank/keys', {
      key: server.adminToken,
      body: {},
    });
    expect((await api(A, 'GET', '/referrals', { key: issued.body.data.apiKey })).status).toBe(401);
  });
});
