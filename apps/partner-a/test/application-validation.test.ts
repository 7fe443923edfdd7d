/** Variant A's validation of application steps and the credit check's applicant: fields, limits and consent. */
import request from 'supertest';
import { STORAGES, VALID_STEPS, validApplicant } from '../../../tests/support';
import { BASE, applicantBody, applicationThroughStep4, variantASuite, type VariantA } from './helpers';

describe.each(STORAGES)('Variant A on %s', (storage) => {
  let { control, app, c } = {} as VariantA;
  const { countApplications } = variantASuite(storage, (made) => {
    ({ control, app, c } = made);
  });

  describe('validation', () => {
    it('when the loan amount is out of bounds, then 400 names the field and the rule', async () => {
      const res = await c.create({ formType: 'personal', data: { loanAmount: 999 } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: 'VALIDATION_ERROR',
        message: 'loanAmount: must be between 1000 and 100000',
      });
      expect(res.body.details).toEqual([
        expect.objectContaining({ field: 'loanAmount', message: 'loanAmount: must be between 1000 and 100000' }),
      ]);
    });

    it('when an e-mail address is over 254 characters or a body is not sent as JSON, then 400 naming the field and the limit, or 415, and nothing changes', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      const email = `${'j'.repeat(243)}@example.com`;
      const long = await c.check(id, applicantBody({ email }), 'check-long-email', 'good');
      expect(long.status).toBe(400);
      expect(long.body).toMatchObject({ error: 'VALIDATION_ERROR', message: 'email: must be at most 254 characters' });
      expect(long.text).not.toContain(email);

      const before = await countApplications();
      const text = await request(app)
        .post(`${BASE}/applications`)
        .set({ Authorization: c.auth.Authorization, 'Content-Type': 'text/plain' })
        .send(JSON.stringify({ formType: 'personal', data: { loanAmount: 5000 } }));
      expect(text.status).toBe(415);
      expect(text.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(await countApplications()).toBe(before);
      const read = await c.get(id);
      expect(read.body.data).toMatchObject({ status: 'in_progress', creditCheckComplete: false });
    });

    it('when several fields are wrong, then every violation is listed and nothing is saved', async () => {
      const before = await countApplications();
      const res = await c.create({ formType: 'car', data: { carLoanPurpose: 'used', hasFoundCar: 'yes' } });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(['estimatedCarPrice', 'vehicleYear', 'usedCarSaleType']),
      );
      expect(await countApplications()).toBe(before);
    });

    it('when a nested address field is too long, then the message names it by path', async () => {
      const id = (await c.create({ formType: 'personal', data: { loanAmount: 5000 } })).body.data.applicationId;
      await c.patch(id, { step: 2, data: VALID_STEPS.personal[2] });
      await c.patch(id, { step: 3, data: VALID_STEPS.personal[3] });
      const res = await c.patch(id, {
        step: 4,
        data: { livingSituation: 'renting', homeAddressComponents: { postcode: '12345678901' } },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^homeAddressComponents\.postcode: /);
    });

    it.each([
      ['missing', {}],
      ['false', { consentCreditCheck: false }],
      ['the string "true"', { consentCreditCheck: 'true' }],
      ['the number 1', { creditCheckConsent: 1 }],
    ])(
      'when credit check consent is %s, then 400 VALIDATION_ERROR, no check runs, nothing changes and the key is released',
      async (_label, consent) => {
        const id = await applicationThroughStep4(c, 'home');
        const calls = control.state.calls;
        const { consentCreditCheck: _drop, ...withoutConsent } = validApplicant();
        const refused = await c.check(id, { data: { ...withoutConsent, ...consent } }, `consent-${id}`);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toBe('VALIDATION_ERROR');
        expect(control.state.calls).toBe(calls);
        expect((await c.get(id)).body.data).toMatchObject({
          status: 'in_progress',
          lastStep: 4,
          creditCheckComplete: false,
        });
        const fixed = await c.check(id, applicantBody(), `consent-${id}`);
        expect(fixed.status).toBe(200);
        expect(fixed.headers['idempotency-replayed']).toBeUndefined();
      },
    );

    it.each(['privacyConsent', 'creditCheckConsent'])(
      'when consent is given through the alias %s, then the check runs',
      async (alias) => {
        const id = await applicationThroughStep4(c, 'personal');
        const { consentCreditCheck: _drop, ...rest } = validApplicant();
        expect((await c.check(id, { data: { ...rest, [alias]: true } }, `alias-${id}`)).status).toBe(200);
      },
    );

    it('when step 5 is invalid, then the message names the field without echoing the value', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      const res = await c.check(id, applicantBody({ email: 'not-an-email-secret' }), `email-${id}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^email: /);
      expect(JSON.stringify(res.body)).not.toContain('not-an-email-secret');
    });
  });
});
