/** Variant A's application flow: every loan type through steps 1-5, step order, and one check per application. */
import { LOAN_TYPES, STORAGES, VALID_STEPS } from '../../../tests/support';
import { applicantBody, applicationThroughStep4, variantASuite, type VariantA } from './helpers';

describe.each(STORAGES)('Variant A on %s', (storage) => {
  let { control, c } = {} as VariantA;
  variantASuite(storage, (made) => {
    ({ control, c } = made);
  });

  describe('the whole flow', () => {
    it.each(LOAN_TYPES)(
      'when a %s application goes through every step, then its status and last step follow',
      async (type) => {
        const created = await c.create({ formType: type, data: VALID_STEPS[type][1] }, `create-${type}`);
        expect(created.status).toBe(201);
        expect(created.body).toEqual({
          success: true,
          data: expect.objectContaining({ applicationId: expect.any(String) }),
        });
        const id = created.body.data.applicationId;
        expect((await c.get(id)).body.data).toMatchObject({
          applicationId: id,
          formType: type,
          status: 'draft',
          lastStep: 1,
        });

        for (const step of [2, 3, 4] as const) {
          const saved = await c.patch(id, { step, data: VALID_STEPS[type][step] });
          expect(saved.status).toBe(200);
          expect(saved.body.data).toMatchObject({ status: 'in_progress', lastStep: step });
        }
        const checked = await c.check(id, applicantBody(), `check-${type}`, 'good');
        expect(checked.status).toBe(200);
        expect(checked.body).toEqual({
          success: true,
          data: { applicationId: id, creditCheckComplete: true, degraded_mode: false, sandbox_mode: true },
        });

        const got = await c.get(id);
        expect(got.status).toBe(200);
        expect(got.body.data).toMatchObject({
          applicationId: id,
          formType: type,
          status: 'credit_checked',
          lastStep: 5,
          creditCheckComplete: true,
        });
        expect(Object.keys(got.body.data)).toEqual(
          expect.arrayContaining(['applicationId', 'formType', 'status', 'lastStep', 'createdAt', 'updatedAt']),
        );
        const text = JSON.stringify(got.body);
        for (const secret of ['Jordan', 'Citizen', 'jordan.citizen@example.com', '0412345678', '1988-07-14'])
          expect(text).not.toContain(secret);
        expect(text).not.toMatch(/"(score|band|creditScore)"/);
        expect(got.body.data.steps['5']).toBeUndefined();
      },
    );

    it('when numbers arrive as strings and unknown fields are sent, then numbers are stored, unknowns dropped and defaults applied', async () => {
      const created = await c.create({ formType: 'personal', data: { loanAmount: '12000', favouriteColour: 'blue' } });
      const id = created.body.data.applicationId;
      await c.patch(id, { step: 2, data: { loanPurpose: 'wedding', loanTerm: '3' } });
      await c.patch(id, { step: 3, data: { employmentType: 'casual', grossMonthlyIncome: '4200.50', hobby: 'chess' } });
      const got = await c.get(id);
      expect(got.body.data.steps).toEqual({
        '1': { loanAmount: 12000 },
        '2': { loanPurpose: 'wedding', loanTerm: 3 },
        '3': { employmentType: 'casual', grossMonthlyIncome: 4200.5, otherIncome: 0 },
      });
    });

    it('when a step is sent again, then it replaces the earlier one and the status stays where it was', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      await c.check(id, applicantBody(), `replace-${id}`, 'average');
      const saved = await c.patch(id, { step: 2, data: { loanPurpose: 'holiday', loanTerm: 2 } });
      expect(saved.body.data).toMatchObject({ status: 'credit_checked', lastStep: 5, creditCheckComplete: true });
      expect(saved.body.data.steps['2']).toEqual({ loanPurpose: 'holiday', loanTerm: 2 });
    });
  });

  describe('order and state', () => {
    it('when step 3 is sent before step 2, then 409 STEP_OUT_OF_ORDER and nothing is saved', async () => {
      const id = (await c.create({ formType: 'personal', data: { loanAmount: 5000 } })).body.data.applicationId;
      const res = await c.patch(id, { step: 3, data: VALID_STEPS.personal[3] });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ success: false, error: 'STEP_OUT_OF_ORDER' });
      expect((await c.get(id)).body.data).toMatchObject({
        lastStep: 1,
        status: 'draft',
        steps: { '1': { loanAmount: 5000 } },
      });
    });

    it('when the credit check comes before step 4, then 409 STEPS_INCOMPLETE and no check runs', async () => {
      const id = (await c.create({ formType: 'personal', data: { loanAmount: 5000 } })).body.data.applicationId;
      await c.patch(id, { step: 2, data: VALID_STEPS.personal[2] });
      const calls = control.state.calls;
      const res = await c.check(id, applicantBody(), `early-${id}`);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('STEPS_INCOMPLETE');
      expect(control.state.calls).toBe(calls);
    });

    it('when a second check is asked with a new key, then 409 CREDIT_CHECK_ALREADY_COMPLETED and the bureau is not called again', async () => {
      const id = await applicationThroughStep4(c, 'car');
      expect((await c.check(id, applicantBody(), `first-${id}`)).status).toBe(200);
      const calls = control.state.calls;
      const again = await c.check(id, applicantBody(), `second-${id}`);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('CREDIT_CHECK_ALREADY_COMPLETED');
      expect(control.state.calls).toBe(calls);
    });
  });
});
