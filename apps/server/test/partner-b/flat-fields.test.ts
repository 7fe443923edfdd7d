/**
 * Variant B complete on its own: its four minimal calls (token, create, check, match) reach offers; a richer create and PATCH give the
 * fields of personal steps 2-5, flat, which become the same application Variant A reads; offers say how
 * certain they are.
 */
import request from 'supertest';
import { createPartnerAApp } from '@loanmatch/partner-a';
import {
  createSandboxBureau,
  erasePersonalData,
  readApplicantDetails,
  type BureauRequest,
  type CreditBureau,
} from '@loanmatch/domain';
import {
  STORAGES,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  countRows,
  storedRow,
  type TestContext,
} from '../../../../tests/support';
import { applicationSnapshot } from '../../../../tests/support/fuzz/stored';
import { createPartnerBApp } from '@loanmatch/partner-b';
import {
  JWT_SECRET,
  accessTokenFor,
  clientB,
  exchange,
  flatApplication,
  newPartner,
  richFlatApplication,
  type ClientB,
} from './helpers';

/** Exactly the fields of the minimal create: the loan, and the applicant's name and contact details. */
const MINIMAL_CREATE = {
  formType: 'personal',
  loanAmount: 15000,
  loanPurpose: 'debt_consolidation',
  firstName: 'Jordan',
  lastName: 'Citizen',
  email: 'jordan.citizen@example.com',
  phone: '0412345678',
};

describe.each(STORAGES)('Variant B with flat fields on %s', (storage) => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerBApp>;
  let appA: ReturnType<typeof createPartnerAApp>;
  let mine: Awaited<ReturnType<typeof newPartner>>;
  let c: ClientB;
  let otherClient: ClientB;
  const bureau = { last: undefined as BureauRequest | undefined };

  beforeAll(async () => {
    const sandbox = createSandboxBureau();
    const recording: CreditBureau = {
      sandbox: true,
      requestScore: async (req) => {
        bureau.last = req;
        return sandbox.requestScore(req);
      },
    };
    t = await createTestContext(storage, { bureau: recording });
    app = createPartnerBApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), jwt: { secret: JWT_SECRET } });
    appA = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), rateLimitPerMinute: 10_000 });
    mine = await newPartner(t.ctx, { name: 'Mine', tier: 'enterprise' });
    const other = await newPartner(t.ctx, { name: 'Other', tier: 'enterprise' });
    c = clientB(app, await accessTokenFor(app, mine.apiKey));
    otherClient = clientB(app, await accessTokenFor(app, other.apiKey));
  });
  afterAll(() => t.close());

  const getA = (id: string) =>
    request(appA).get(`/api/partner/v1/applications/${id}`).set('Authorization', `Bearer ${mine.apiKey}`);
  async function created(body: Record<string, unknown> = flatApplication()) {
    const res = await c.create(body);
    expect(res.status).toBe(201);
    return res.body.data as { applicationId: string; securityToken: string };
  }

  describe('the four minimal calls', () => {
    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ['consent in the credit-check body', MINIMAL_CREATE, { consentCreditCheck: true }],
      ['consent at create', { ...MINIMAL_CREATE, consentCreditCheck: true }, {}],
    ])(
      'when a partner makes exactly the four minimal calls (%s), then match answers indicative offers with rates, terms and conditions',
      async (_label, create, checkExtra) => {
        const accessToken = (await exchange(app, mine.apiKey)).body.data.accessToken as string;
        const b = clientB(app, accessToken);
        const made = await b.create(create);
        expect(made.status).toBe(201);
        const { applicationId, securityToken } = made.body.data;
        const checked = await b.check(applicationId, { securityToken, ...checkExtra }, { score: 'excellent' });
        expect(checked.status).toBe(200);
        const matched = await b.match(applicationId, { securityToken });
        expect(matched.status).toBe(200);
        const offers = matched.body.data.acceptedOffers as Array<Record<string, any>>;
        expect(offers.length).toBeGreaterThan(0);
        for (const offer of offers) {
          expect(offer).toMatchObject({
            certainty: 'indicative',
            offerDetails: { interestRate: expect.any(Number), comparisonRate: expect.any(Number), loanAmount: 15000 },
          });
          expect(offer.assumedLoanTermMonths).toBe(offer.offerDetails.loanTermMonths);
          expect(offer.conditions.map((x: { field: string }) => x.field)).toEqual(
            expect.arrayContaining(['loanTerm', 'grossMonthlyIncome', 'livingSituation']),
          );
          expect(offer.offerDetails.comparisonRate).toBeLessThanOrEqual(48);
        }
        expect((await getA(applicationId)).body.data).toMatchObject({
          status: 'matched',
          lastStep: 5,
          steps: { '1': { loanAmount: 15000 } },
        });
      },
    );
  });

  describe('the richer create', () => {
    it("when every field of steps 2-4 comes with create, then they are Variant A's steps 2-4, the check needs only the token, and offers are pre-qualified", async () => {
      const made = await created(richFlatApplication());
      const got = (await getA(made.applicationId)).body.data;
      expect(got).toMatchObject({ status: 'in_progress', lastStep: 4 });
      expect(got.steps).toEqual({
        '1': VALID_STEPS.personal[1],
        '2': VALID_STEPS.personal[2],
        '3': { ...VALID_STEPS.personal[3], otherIncome: 0 },
        '4': VALID_STEPS.personal[4],
      });
      expect(
        (await c.check(made.applicationId, { securityToken: made.securityToken }, { score: 'excellent' })).status,
      ).toBe(200);
      expect(bureau.last!.applicant).toMatchObject({
        dateOfBirth: '1988-07-14',
        suburb: 'Newtown',
        state: 'NSW',
        postcode: '2042',
      });
      const offers = (await c.match(made.applicationId, { securityToken: made.securityToken })).body.data
        .acceptedOffers as Array<Record<string, unknown>>;
      expect(offers.length).toBeGreaterThan(0);
      for (const offer of offers)
        expect(offer).toMatchObject({
          certainty: 'pre_qualified',
          conditions: [],
          offerDetails: { loanTermMonths: 60 },
        });
      for (const offer of offers) expect(offer).not.toHaveProperty('assumedLoanTermMonths');
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an income out of range', { grossMonthlyIncome: -1 }, 'grossMonthlyIncome: must be between 0 and 1000000'],
      ['a term that is no whole number', { loanTerm: 2.5 }, 'loanTerm: must be a whole number'],
      ['an over-long employer', { employerName: 'x'.repeat(101) }, 'employerName: must be at most 100 characters'],
      [
        'an unknown state in the address components',
        { homeAddressComponents: { state: 'XX' } },
        'homeAddressComponents.state: must be one of NSW, VIC, QLD, WA, SA, TAS, ACT, NT',
      ],
      [
        'an applicant under 18',
        { dateOfBirth: `${new Date().getUTCFullYear() - 10}-01-01` },
        'dateOfBirth: applicant must be at least 18 years old',
      ],
      [
        'a consent that is a string',
        { privacyConsent: 'yes' },
        'privacyConsent: must be a JSON boolean (true or false)',
      ],
    ])('when the create carries %s, then 400 names the field and nothing is made', async (_label, change, message) => {
      const before = await countRows(t.db, 'applications', { partnerId: mine.partnerId });
      const res = await c.create(richFlatApplication(change));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', message });
      expect(await countRows(t.db, 'applications', { partnerId: mine.partnerId })).toBe(before);
    });

    it('when the create carries fields no table lists, then they are ignored', async () => {
      const made = await created(flatApplication({ favouriteColour: 'blue', loanTerm: '3' }));
      const kept = await readApplicantDetails(t.ctx, made.applicationId);
      expect(JSON.stringify(kept)).not.toContain('blue');
      expect((await getA(made.applicationId)).body.data.steps).toEqual({
        '1': { loanAmount: 15000 },
        '2': { loanPurpose: 'debt_consolidation', loanTerm: 3 },
      });
    });
  });

  describe('PATCH', () => {
    it('when fields arrive in several PATCHes, then each step is saved as Variant A saves it once complete and in order, and the answer says what is still missing', async () => {
      const made = await created();
      const patch = (fields: object) => c.patch(made.applicationId, { securityToken: made.securityToken, ...fields });
      const income = await patch({ grossMonthlyIncome: '8000', employmentType: 'full_time' });
      expect(income.status).toBe(200);
      // Step 3 is complete, but waits for step 2 (its term): Variant A's order.
      expect(income.body.data).toEqual({
        applicationId: made.applicationId,
        status: 'draft',
        lastStep: 1,
        creditCheckComplete: false,
        missingFields: ['loanTerm', 'livingSituation'],
      });
      expect(Object.keys((await getA(made.applicationId)).body.data.steps)).toEqual(['1']);
      const term = await patch({ loanTerm: 5 });
      expect(term.body.data).toMatchObject({ status: 'in_progress', lastStep: 3, missingFields: ['livingSituation'] });
      const living = await patch({ livingSituation: 'renting', monthlyRent: 1500, dependents: 0 });
      expect(living.body.data).toMatchObject({ status: 'in_progress', lastStep: 4, missingFields: [] });
      expect((await getA(made.applicationId)).body.data.steps).toEqual({
        '1': { loanAmount: 15000 },
        '2': { loanPurpose: 'debt_consolidation', loanTerm: 5 },
        '3': { employmentType: 'full_time', grossMonthlyIncome: 8000, otherIncome: 0 },
        '4': { livingSituation: 'renting', monthlyRent: 1500, dependents: 0 },
      });
      // A field of a saved step is replaced in it; the rest of the step stays.
      expect((await patch({ grossMonthlyIncome: 9000 })).status).toBe(200);
      expect((await getA(made.applicationId)).body.data.steps['3']).toEqual({
        employmentType: 'full_time',
        grossMonthlyIncome: 9000,
        otherIncome: 0,
      });
    });

    it.each(['car', 'home'] as const)(
      'when a %s application made on A is carried over, then B takes its own steps flat, saves them as A does, and it reaches offers',
      async (formType) => {
        const made = await request(appA)
          .post('/api/partner/v1/applications')
          .set('Authorization', `Bearer ${mine.apiKey}`)
          .send({ formType, data: VALID_STEPS[formType][1] });
        const id = made.body.data.applicationId;
        const issued = await request(app)
          .post(`/v1/applications/${id}/security-token`)
          .set('Authorization', c.authorization)
          .send({});
        const { securityToken } = issued.body.data;
        // A field of another loan type's table is not this one's: dropped, as any unknown field.
        const before = await applicationSnapshot(t.db, id);
        const foreign = await c.patch(id, { securityToken, creditScoreEstimate: 'good' });
        expect(foreign.status).toBe(200);
        expect(await applicationSnapshot(t.db, id)).toEqual(before);
        const steps = { ...VALID_STEPS[formType][2], ...VALID_STEPS[formType][3], ...VALID_STEPS[formType][4] };
        const applicant = {
          firstName: 'Sam',
          lastName: 'Citizen',
          email: `sam.${formType}@example.com`,
          phone: '0412345679',
        };
        const patched = await c.patch(id, { securityToken, ...steps, ...applicant, consentCreditCheck: true });
        expect(patched.status).toBe(200);
        expect(patched.body.data).toMatchObject({ status: 'in_progress', lastStep: 4, missingFields: [] });
        const read = await getA(id);
        expect(Object.keys(read.body.data.steps)).toEqual(['1', '2', '3', '4']);
        expect(read.body.data.steps['2']).toMatchObject(VALID_STEPS[formType][2]);
        expect((await c.check(id, { securityToken }, { score: 'excellent' })).status).toBe(200);
        const matched = await c.match(id, { securityToken });
        expect(matched.status).toBe(200);
        expect(matched.body.data.acceptedOffers.length + matched.body.data.nearMissOffers.length).toBeGreaterThan(0);
      },
    );

    it("when the security token is wrong, then 403 INVALID_SECURITY_TOKEN and nothing changes; another partner's or an unknown application 404; no token 400", async () => {
      const made = await created();
      const before = await applicationSnapshot(t.db, made.applicationId);
      const wrong = await c.patch(made.applicationId, {
        securityToken: `st_${'x'.repeat(43)}`,
        loanTerm: 5,
        dateOfBirth: '1980-01-01',
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({
        success: false,
        error: 'INVALID_SECURITY_TOKEN',
        message: 'securityToken: is not the security token of this application',
      });
      expect(
        (await otherClient.patch(made.applicationId, { securityToken: made.securityToken, loanTerm: 5 })).status,
      ).toBe(404);
      expect(
        (await c.patch('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d', { securityToken: made.securityToken, loanTerm: 5 }))
          .status,
      ).toBe(404);
      expect((await c.patch(made.applicationId, { loanTerm: 5 })).body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: 'securityToken: is required',
      });
      expect(await applicationSnapshot(t.db, made.applicationId)).toBe(before);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an income that is not a number', { grossMonthlyIncome: 'lots' }, 'grossMonthlyIncome: must be a number'],
      [
        'a living situation not in the table',
        { livingSituation: 'castle' },
        'livingSituation: must be one of renting, own_outright, own_mortgage, living_with_parents, boarding, other',
      ],
      ['a phone too short', { phone: '123' }, 'phone: must be between 8 and 20 characters'],
      ['an over-long home address', { homeAddress: 'x'.repeat(501) }, 'homeAddress: must be at most 500 characters'],
      ['dependents out of range', { dependents: 21 }, 'dependents: must be between 0 and 20'],
    ])('when a PATCH carries %s, then 400 names the field and nothing changes', async (_label, change, message) => {
      const made = await created();
      const before = await applicationSnapshot(t.db, made.applicationId);
      const res = await c.patch(made.applicationId, { securityToken: made.securityToken, loanTerm: 5, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', message });
      expect(await applicationSnapshot(t.db, made.applicationId)).toBe(before);
    });

    it("when a PATCH carries fields no table lists, or step 1's amount, then they are ignored: step 1 is fixed at create", async () => {
      const made = await created();
      expect(
        (
          await c.patch(made.applicationId, {
            securityToken: made.securityToken,
            loanAmount: 99000,
            favouriteColour: 'blue',
            loanTerm: 3,
          })
        ).status,
      ).toBe(200);
      expect((await getA(made.applicationId)).body.data.steps).toEqual({
        '1': { loanAmount: 15000 },
        '2': { loanPurpose: 'debt_consolidation', loanTerm: 3 },
      });
    });

    it("when step 5's fields come by PATCH before the check, then the check uses them; after it, they are refused and the next match uses new step data", async () => {
      const made = await created(flatApplication({ consentCreditCheck: undefined }));
      const patch = (fields: object) => c.patch(made.applicationId, { securityToken: made.securityToken, ...fields });
      expect(
        (
          await patch({
            dateOfBirth: '14/07/1988',
            consentCreditCheck: true,
            email: 'jordan@example.com',
            ...VALID_STEPS.personal[2],
            ...VALID_STEPS.personal[3],
            ...VALID_STEPS.personal[4],
          })
        ).status,
      ).toBe(200);
      expect(
        (await c.check(made.applicationId, { securityToken: made.securityToken }, { score: 'excellent' })).status,
      ).toBe(200);
      expect(bureau.last!.applicant).toMatchObject({
        dateOfBirth: '1988-07-14',
        email: 'jordan@example.com',
        consentCreditCheck: true,
      });
      const first = (await c.match(made.applicationId, { securityToken: made.securityToken })).body.data
        .acceptedOffers as Array<{ certainty: string }>;
      expect(first.length).toBeGreaterThan(0);
      expect(first.every((o) => o.certainty === 'pre_qualified')).toBe(true);

      const before = await applicationSnapshot(t.db, made.applicationId);
      const late = await patch({ dateOfBirth: '1970-01-01' });
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({
        error: 'CREDIT_CHECK_ALREADY_COMPLETED',
        message: expect.stringMatching(/^dateOfBirth: /),
      });
      expect(await applicationSnapshot(t.db, made.applicationId)).toBe(before);

      // Income far lower: as Variant A's step save after the check, the status and the check stay; the next match uses it.
      const lower = await patch({ grossMonthlyIncome: 1200 });
      expect(lower.body.data).toMatchObject({ status: 'matched', lastStep: 5, creditCheckComplete: true });
      const second = (await c.match(made.applicationId, { securityToken: made.securityToken })).body.data
        .acceptedOffers as unknown[];
      expect(second.length).toBeLessThan(first.length);
    });

    it("when the applicant's personal data was erased, then a PATCH is refused and nothing is stored", async () => {
      const made = await created();
      expect((await erasePersonalData(t.ctx, { applicationId: made.applicationId })).ok).toBe(true);
      const res = await c.patch(made.applicationId, { securityToken: made.securityToken, employerName: 'Acme' });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('PERSONAL_DATA_ERASED');
      expect(JSON.stringify(await storedRow(t.db, 'applications', { id: made.applicationId }))).not.toContain('Acme');
    });
  });
});
