/**
 * README's Variant A walk-through and its error cases, written as a partner writes them: with
 * openapi-fetch over the types openapi-typescript generates from the served document. The test compiles
 * this file strictly against freshly generated types (no cast, no `any`, no `@ts-ignore`) and runs it
 * through Prism's validating proxy.
 */
import createClient from 'openapi-fetch';
import type { paths } from 'loanmatch-generated/variant-a';
import type { WalkthroughA, WalkthroughOptions } from './results';

export async function variantAWalkthrough(options: WalkthroughOptions): Promise<WalkthroughA> {
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    headers: { Authorization: `Bearer ${options.apiKey}` },
  });

  // Create a personal loan application (step 1).
  const created = await api.POST('/applications', {
    params: { header: { 'Idempotency-Key': `create-${Date.now()}` } },
    body: { formType: 'personal', data: { loanAmount: 15000 } },
  });
  if (!created.data) throw new Error(`create answered ${created.response.status}`);
  const applicationId = created.data.data.applicationId;
  const byId = { path: { applicationId } };

  // Steps 2, 3 and 4, in order. Numbers may be numeric strings.
  const saves = [
    await api.PATCH('/applications/{applicationId}', {
      params: byId,
      body: { step: 2, data: { loanPurpose: 'debt_consolidation', loanTerm: 5, creditScoreEstimate: 'good' } },
    }),
    await api.PATCH('/applications/{applicationId}', {
      params: byId,
      body: { step: 3, data: { employmentType: 'full_time', employmentYears: 4, grossMonthlyIncome: '8000' } },
    }),
    await api.PATCH('/applications/{applicationId}', {
      params: byId,
      body: { step: 4, data: { livingSituation: 'renting', monthlyRent: 1800, dependents: 1 } },
    }),
  ];
  for (const saved of saves) if (!saved.data) throw new Error(`a step save answered ${saved.response.status}`);

  // Step 5 and the soft credit check, then the same request again: answered from the first one.
  const runCheck = () =>
    api.POST('/applications/{applicationId}/credit-check', {
      params: { ...byId, header: { 'Idempotency-Key': `check-${applicationId}`, 'X-Sandbox-Score': 'good' } },
      body: {
        data: {
          firstName: 'Jordan',
          lastName: 'Citizen',
          email: 'jordan@example.com',
          mobileNumber: '0412345678',
          dateOfBirth: '14/07/1988',
          consentCreditCheck: true,
        },
      },
    });
  const checked = await runCheck();
  if (!checked.data?.data.creditCheckComplete) throw new Error(`credit check answered ${checked.response.status}`);
  const replay = await runCheck();

  // Read it back: steps typed by the application's loan type.
  const read = await api.GET('/applications/{applicationId}', { params: byId });
  if (!read.data) throw new Error(`GET answered ${read.response.status}`);
  const application = read.data.data;
  const storedIncome = application.formType === 'personal' ? application.steps['3']?.grossMonthlyIncome : undefined;

  // Match: accepted offers with tracking links.
  const matched = await api.POST('/applications/{applicationId}/match', { params: byId });
  const offer = matched.data?.data.acceptedOffers[0];
  if (!offer) throw new Error(`match answered ${matched.response.status} without an offer`);

  const referrals = await api.GET('/referrals', { params: { query: { limit: 10 } } });
  if (!referrals.data) throw new Error(`referrals answered ${referrals.response.status}`);

  // The error cases: a bad field, an over-long cursor, a body that is not sent as JSON.
  const refusals: string[] = [];
  const badField = await api.POST('/applications', { body: { formType: 'personal', data: { loanAmount: 999 } } });
  const longCursor = await api.GET('/referrals', { params: { query: { cursor: 'A'.repeat(101) } } });
  const notJson = await api.POST('/applications', {
    body: { formType: 'personal', data: { loanAmount: 15000 } },
    headers: { 'Content-Type': 'text/plain' },
    bodySerializer: () => 'formType=personal&loanAmount=15000',
  });
  for (const refused of [badField, longCursor, notJson]) refusals.push(refused.error?.error ?? 'none');

  return {
    applicationId,
    replayed: replay.response.headers.get('Idempotency-Replayed'),
    storedIncome,
    trackingUrl: offer.trackingUrl,
    referralsBefore: referrals.data.data.referrals.length,
    refusals,
  };
}
