/** Variant B's create: a flat application, its security token, its validation, and replays of it. */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { readApplicantDetails } from '@loanmatch/domain';
import { STORAGES, silentLogger, countRows, storedRow } from '../../../../tests/support';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { accessTokenFor, clientB, flatApplication, variantBSuite, type VariantB } from './helpers';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(STORAGES)('Variant B on %s', (storage) => {
  let { t, appA, mine, other, c } = {} as VariantB;
  const { countApplications, viaA, created } = variantBSuite(storage, (made) => {
    ({ t, appA, mine, other, c } = made);
  });

  describe('create', () => {
    it('when a flat application is created, then 201 with the application id and a security token kept only as its digest', async () => {
      const res = await c.create(flatApplication());
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        data: { applicationId: expect.any(String), securityToken: expect.stringMatching(/^st_[A-Za-z0-9_-]{43}$/) },
      });
      expect(res.headers['cache-control']).toBe('no-store');
      const { applicationId, securityToken } = res.body.data;
      const row = await storedRow(t.db, 'applications', { id: applicationId });
      expect(row).toMatchObject({
        partnerId: mine.partnerId,
        formType: 'personal',
        status: 'draft',
        lastStep: 1,
        securityTokenHash: sha256(securityToken),
      });
      expect(JSON.stringify(row)).not.toContain(securityToken);
    });

    it('when Variant A reads an application made through B, then it is the same application: step 1, no step 5, no names', async () => {
      const { applicationId } = await created(c, { loanAmount: '12000' });
      const got = await viaA().get(applicationId);
      expect(got.status).toBe(200);
      expect(got.body.data).toMatchObject({
        applicationId,
        formType: 'personal',
        status: 'draft',
        lastStep: 1,
        steps: { '1': { loanAmount: 12000 } },
        creditCheckComplete: false,
      });
      expect(Object.keys(got.body.data.steps)).toEqual(['1']);
      for (const personal of [
        'Jordan',
        'Citizen',
        'jordan.citizen@example.com',
        '0412345678',
        'debt_consolidation',
        'securityToken',
      ])
        expect(got.text).not.toContain(personal);
      expect((await viaA(other.apiKey).get(applicationId)).status).toBe(404);
      // The names, e-mail, phone and consent wait in the applicant row for the check; the loan purpose, known
      // of a step 2 that is not complete (no term), waits beside them.
      const intake = await readApplicantDetails(t.ctx, applicationId);
      expect(intake.state === 'kept' && intake.details).toEqual({
        firstName: 'Jordan',
        lastName: 'Citizen',
        email: 'jordan.citizen@example.com',
        mobileNumber: '0412345678',
        consentCreditCheck: true,
        knownSteps: { 2: { loanPurpose: 'debt_consolidation' } },
      });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ["formType: 'car'", { formType: 'car' }, 'formType: must be one of personal'],
      ['formType missing', { formType: undefined }, 'formType: is required'],
      ['loanAmount: 999', { loanAmount: 999 }, 'loanAmount: must be between 1000 and 100000'],
      ['loanAmount: 100001', { loanAmount: 100001 }, 'loanAmount: must be between 1000 and 100000'],
      ["loanAmount: 'lots'", { loanAmount: 'lots' }, 'loanAmount: must be a number'],
      [
        "loanPurpose: 'yacht'",
        { loanPurpose: 'yacht' },
        'loanPurpose: must be one of debt_consolidation, home_improvement, car_purchase, medical_expenses, holiday, wedding, education, business, other',
      ],
      ['loanPurpose missing', { loanPurpose: undefined }, 'loanPurpose: is required'],
      ["firstName: ''", { firstName: '' }, 'firstName: must not be empty'],
      ["lastName: 'x'.repeat(101)", { lastName: 'x'.repeat(101) }, 'lastName: must be at most 100 characters'],
      ["email: 'not-an-address'", { email: 'not-an-address' }, 'email: must be a valid e-mail address'],
      ["phone: '1234567'", { phone: '1234567' }, 'phone: must be between 8 and 20 characters'],
      ['phone missing', { phone: undefined }, 'phone: is required'],
      [
        "consentCreditCheck: 'true'",
        { consentCreditCheck: 'true' },
        'consentCreditCheck: must be a JSON boolean (true or false)',
      ],
      [
        'consentCreditCheck: 1',
        { consentCreditCheck: 1 },
        'consentCreditCheck: must be a JSON boolean (true or false)',
      ],
    ])(
      'when the body has %s, then 400 VALIDATION_ERROR "%s" and nothing is made',
      async (_label, overrides, message) => {
        const before = await countApplications();
        const res = await c.create(flatApplication(overrides));
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
        expect(res.body.details[0]).toMatchObject({ message });
        expect(await countApplications()).toBe(before);
      },
    );

    it('when the body is not an object, then 400 names the body', async () => {
      const res = await c.create([1, 2]);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('body: must be a JSON object');
    });

    it('when a create is retried with the same Idempotency-Key, then the first answer, security token included, is replayed; the stored answer holds it sealed', async () => {
      const key = `create-${Date.now()}`;
      const first = await c.create(flatApplication(), key);
      const again = await c.create(flatApplication(), key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const stored = await storedRow(t.db, 'idempotency_keys', { partnerId: mine.partnerId, key });
      expect(stored!.responseBody).toContain(first.body.data.applicationId);
      expect(stored!.responseBody).not.toContain(first.body.data.securityToken);
      expect(await countRows(t.db, 'applications', { id: first.body.data.applicationId })).toBe(1);

      const changed = await c.create(flatApplication({ loanAmount: 20000 }), key);
      expect(changed.status).toBe(422);
      expect(changed.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
      // The same key on Variant A's create is another request, never a replay across contracts.
      const acrossA = await request(appA)
        .post('/api/partner/v1/applications')
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .set('Idempotency-Key', key)
        .send({ formType: 'personal', data: { loanAmount: 15000 } });
      expect(acrossA.status).toBe(422);
    });

    it('when the secret that sealed a stored answer is gone, then the replay is refused as unresolved rather than answered without the token', async () => {
      const key = `sealed-${Date.now()}`;
      const first = await c.create(flatApplication(), key);
      const elsewhere = createPartnerBApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: async () => true,
        jwt: { secret: 'a-completely-different-secret-0123456789abcdef' },
      });
      const replay = await clientB(elsewhere, await accessTokenFor(elsewhere, mine.apiKey)).create(
        flatApplication(),
        key,
      );
      expect(replay.status).toBe(409);
      expect(replay.body.error).toBe('IDEMPOTENCY_KEY_UNRESOLVED');
      expect(replay.body.message).toContain(first.body.data.applicationId);
    });
  });
});
