/**
 * Variant B as partners are told to call it, on a started process: a new partner's four calls (token, flat
 * create, credit check with the securityToken, match with the securityToken) reach offers with rates and
 * terms, with no call of Variant A; then PATCH gives the rest and the offers become pre-qualified.
 */
import { api, startServer, tempDataDir, tempDatabaseUrl, type Started } from './process';

jest.setTimeout(120_000);

describe("Variant B, the spec's four calls, on pnpm start", () => {
  let server: Started;
  let B: string;
  let demoKey: string;

  beforeAll(async () => {
    server = await startServer({ env: { DATA_DIR: tempDataDir(), DATABASE_URL: await tempDatabaseUrl() } });
    B = server.urls['Variant B'];
    demoKey = server.demoApiKey!;
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  /** The four calls, nothing else: answers each call's answer and the application's id and token. */
  async function specFlow() {
    const token = await api(B, 'POST', '/auth/token', {
      headers: { 'X-API-Key': demoKey },
      body: { grantType: 'api_key' },
    });
    expect(token.status).toBe(200);
    const accessToken = token.body.data.accessToken as string;
    const created = await api(B, 'POST', '/applications', {
      key: accessToken,
      body: {
        formType: 'personal',
        loanAmount: 15000,
        loanPurpose: 'debt_consolidation',
        firstName: 'Jordan',
        lastName: 'Citizen',
        email: 'jordan@example.com',
        phone: '0412345678',
      },
    });
    expect(created.status).toBe(201);
    const { applicationId, securityToken } = created.body.data as { applicationId: string; securityToken: string };
    // Consent, which Variant B's documented create does not carry, comes with the check.
    const checked = await api(B, 'POST', `/applications/${applicationId}/credit-check`, {
      key: accessToken,
      headers: { 'X-Sandbox-Score': 'good' },
      body: { securityToken, consentCreditCheck: true },
    });
    const matched = await api(B, 'POST', `/applications/${applicationId}/match`, {
      key: accessToken,
      body: { securityToken },
    });
    return { accessToken, applicationId, securityToken, checked, matched };
  }

  it("when a new partner makes exactly the spec's four calls, then match answers accepted offers with rates and terms", async () => {
    const { applicationId, checked, matched } = await specFlow();
    expect(checked.status).toBe(200);
    expect(checked.body.data).toEqual({
      applicationId,
      creditCheckComplete: true,
      degraded_mode: false,
      sandbox_mode: true,
    });
    expect(matched.status).toBe(200);
    const offers = matched.body.data.acceptedOffers as Array<Record<string, any>>;
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) {
      expect(offer.offerDetails).toMatchObject({
        interestRate: expect.any(Number),
        comparisonRate: expect.any(Number),
        loanAmount: 15000,
        loanTermMonths: expect.any(Number),
        monthlyRepayment: expect.any(Number),
      });
      expect(offer).toMatchObject({
        certainty: 'indicative',
        assumedLoanTermMonths: offer.offerDetails.loanTermMonths,
        trackingUrl: expect.stringContaining('/r/'),
      });
      expect(offer.conditions.length).toBeGreaterThan(0);
    }
  });

  it('when the partner then gives the rest by PATCH, then the next match answers pre-qualified offers first, without a term assumed', async () => {
    const { accessToken, applicationId, securityToken } = await specFlow();
    const patched = await api(B, 'PATCH', `/applications/${applicationId}`, {
      key: accessToken,
      body: {
        securityToken,
        loanTerm: 5,
        employmentType: 'full_time',
        employmentYears: 4,
        grossMonthlyIncome: 8000,
        livingSituation: 'renting',
        monthlyRent: 1800,
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      applicationId,
      status: 'matched',
      lastStep: 5,
      creditCheckComplete: true,
      missingFields: [],
    });
    const wrong = await api(B, 'PATCH', `/applications/${applicationId}`, {
      key: accessToken,
      body: { securityToken: 'st_wrong', loanTerm: 2 },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('INVALID_SECURITY_TOKEN');
    const matched = await api(B, 'POST', `/applications/${applicationId}/match`, {
      key: accessToken,
      body: { securityToken },
    });
    const offers = matched.body.data.acceptedOffers as Array<Record<string, any>>;
    expect(offers.length).toBeGreaterThan(0);
    expect(offers[0]).toMatchObject({
      certainty: 'pre_qualified',
      conditions: [],
      offerDetails: { loanTermMonths: 60 },
    });
    for (const offer of offers) expect(offer).not.toHaveProperty('assumedLoanTermMonths');
  });
});
