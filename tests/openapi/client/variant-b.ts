/**
 * README's Variant B walk-through and its error cases, written with openapi-fetch over the types
 * openapi-typescript generates from the served document; compiled strictly and run through Prism by the
 * test, as variant-a.ts is.
 */
import createClient from 'openapi-fetch';
import type { paths } from 'loanmatch-generated/variant-b';
import type { WalkthroughB, WalkthroughOptions } from './results';

export async function variantBWalkthrough(options: WalkthroughOptions): Promise<WalkthroughB> {
  const { baseUrl, fetch } = options;

  // 1. Exchange the API key for an access token.
  const exchange = createClient<paths>({ baseUrl, fetch });
  const token = await exchange.POST('/auth/token', {
    headers: { 'X-API-Key': options.apiKey },
    body: { grantType: 'api_key' },
  });
  if (!token.data) throw new Error(`token exchange answered ${token.response.status}`);
  const api = createClient<paths>({
    baseUrl,
    fetch,
    headers: { Authorization: `Bearer ${token.data.data.accessToken}` },
  });

  // 2. Create with the spec's flat fields: the applicationId and the securityToken, shown once.
  const spec: paths['/applications']['post']['requestBody']['content']['application/json'] = {
    formType: 'personal',
    loanAmount: 15000,
    loanPurpose: 'debt_consolidation',
    firstName: 'Jordan',
    lastName: 'Citizen',
    email: 'jordan@example.com',
    phone: '0412345678',
  };
  const created = await api.POST('/applications', { body: spec });
  if (!created.data) throw new Error(`create answered ${created.response.status}`);
  const { applicationId, securityToken } = created.data.data;
  const byId = { path: { applicationId } };

  // 3. The credit check, with the consent; 4. match: indicative offers with their conditions.
  const checked = await api.POST('/applications/{applicationId}/credit-check', {
    params: { ...byId, header: { 'X-Sandbox-Score': 'good' } },
    body: { securityToken, consentCreditCheck: true },
  });
  if (!checked.data?.data.creditCheckComplete) throw new Error(`credit check answered ${checked.response.status}`);
  const matched = await api.POST('/applications/{applicationId}/match', { params: byId, body: { securityToken } });
  if (!matched.data) throw new Error(`match answered ${matched.response.status}`);
  const certainties = matched.data.data.acceptedOffers.map((offer) => offer.certainty);

  // A complete create (every field known: pre-qualified offers), then fields added by PATCH.
  const complete = await api.POST('/applications', {
    params: { header: { 'Idempotency-Key': `b-create-${Date.now()}` } },
    body: {
      ...spec,
      consentCreditCheck: true,
      dateOfBirth: '1988-07-14',
      loanTerm: 5,
      employmentType: 'full_time',
      employmentYears: 4,
      grossMonthlyIncome: 8000,
      livingSituation: 'renting',
      monthlyRent: 1800,
    },
  });
  if (!complete.data) throw new Error(`complete create answered ${complete.response.status}`);
  const patched = await api.PATCH('/applications/{applicationId}', {
    params: byId,
    body: { securityToken, loanTerm: 5, employmentType: 'full_time', grossMonthlyIncome: 8000 },
  });
  if (!patched.data) throw new Error(`PATCH answered ${patched.response.status}`);

  // The error cases: a wrong securityToken, an over-long e-mail, a body not sent as JSON.
  const refusals: string[] = [];
  const wrongToken = await api.PATCH('/applications/{applicationId}', {
    params: byId,
    body: { securityToken: 'st_wrong', loanTerm: 5 },
  });
  const longEmail = await api.POST('/applications', {
    body: { ...spec, email: `${'j'.repeat(243)}@example.com` },
  });
  const notJson = await api.POST('/applications/{applicationId}/match', {
    params: byId,
    body: { securityToken },
    headers: { 'Content-Type': 'text/plain' },
    bodySerializer: (body) => `securityToken=${body.securityToken}`,
  });
  for (const refused of [wrongToken, longEmail, notJson]) refusals.push(refused.error?.error ?? 'none');

  return { applicationId, certainties, missingFields: patched.data.data.missingFields, refusals };
}
