/**
 * A lead on a started server (`pnpm start`), as lenders receive it: a Variant B application is created,
 * checked, matched and followed; the offer's lender, which registered an endpoint with the SDK, receives a
 * signed `lead.created`, verifies it, and pulls the same lead; operators see both disclosures, through the
 * admin API and `pnpm ops`, and the lead as the lender sees it.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { LoanMatchLenderClient } from '@loanmatch/client';
import { flatApplication } from '../support';
import { partnerB } from './clients';
import { api, run, serverWithReceiver } from './process';

jest.setTimeout(120_000);

describe('a lead from create on Variant B to the lender, pushed and pulled, on pnpm start', () => {
  const started = serverWithReceiver();

  it('when the applicant follows an offer, then its lender receives a signed lead.created and pulls the same lead', async () => {
    const { server, receiver, dataDir } = started;
    const A = server.urls['Variant A'];
    const ADMIN = server.urls['Admin API'];
    const { client: b } = partnerB(server.urls['Variant B'], server.demoApiKey!);
    const { applicationId, securityToken } = await b.createApplication(flatApplication() as never);
    await b.runCreditCheck(applicationId, securityToken, {}, { sandboxScore: 'excellent' });
    const [offer] = (await b.match(applicationId, securityToken)).acceptedOffers;

    // The offer's lender: a key, and an endpoint for its leads, before the applicant follows the link.
    const issued = await api(ADMIN, 'POST', `/lenders/${offer.lender.id}/keys`, { key: server.adminToken });
    const lender = new LoanMatchLenderClient({
      baseUrl: `${new URL(A).origin}/api/lender/v1`,
      apiKey: issued.body.data.apiKey,
      retries: 0,
    });
    const { secret, events } = await lender.webhooks.register({ url: `${receiver.origin}/leads` });
    expect(events).toEqual(['lead.created']);
    expect((await lender.webhooks.list()).webhooks).toHaveLength(1);

    const followed = await fetch(offer.trackingUrl.replace(/^http:\/\/[^/]+/, new URL(A).origin), {
      redirect: 'manual',
    });
    const reference = new URL(followed.headers.get('location')!).searchParams.get('lm_ref')!;

    // Pushed: signed by the Standard Webhooks scheme, verified by the package and by the SDK's helper.
    const [delivered] = await receiver.waitFor(1, { timeoutMs: 15_000 });
    const headers = delivered.headers as Record<string, string>;
    expect(() => new StandardWebhook(secret.slice('whsec_'.length)).verify(delivered.body, headers)).not.toThrow();
    const event = LoanMatchLenderClient.verifyWebhook(secret, delivered.body, headers);
    expect(event.type).toBe('lead.created');
    const pushed = JSON.parse(delivered.body).data;
    expect(pushed).toMatchObject({
      reference,
      product: { id: offer.product.id },
      application: { applicationId, formType: 'personal', steps: { 1: { loanAmount: 15000 } } },
      applicant: {
        firstName: 'Jordan',
        lastName: 'Citizen',
        email: 'jordan.citizen@example.com',
        mobileNumber: '0412345678',
      },
      consent: { consentMarketing: false },
    });
    expect(delivered.body).not.toMatch(/"(score|band|scoreBand)"|sandbox|excellent/i);

    // Pulled: the same lead; listed.
    expect(await lender.lead(reference)).toEqual(pushed);
    expect((await lender.leads({ since: new Date(Date.now() - 60_000).toISOString() })).leads).toEqual([
      expect.objectContaining({ reference }),
    ]);

    // Operators: both disclosures, through the API and `pnpm ops`; the lead as the lender sees it.
    const disclosures = async () =>
      (await api(ADMIN, 'GET', `/applications/${applicationId}/disclosures`, { key: server.adminToken })).body.data
        .disclosures;
    for (let i = 0; i < 50 && (await disclosures()).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await disclosures()).map((d: { channel: string }) => d.channel).sort()).toEqual(['pull', 'push']);
    const env = { ADMIN_URL: ADMIN, DATA_DIR: dataDir };
    const listed = await run(['apps/server/src/ops/main.ts', 'application', 'disclosures', applicationId], env);
    expect(listed.out).toContain(`${offer.lender.id}  ${reference}  push`);
    expect(listed.out).toContain(`${offer.lender.id}  ${reference}  pull`);
    const shown = await run(['apps/server/src/ops/main.ts', 'lead', 'show', reference, '--json'], env);
    expect(JSON.parse(shown.out)).toEqual(pushed);
    expect(await disclosures()).toHaveLength(2);
  });
});
