/** Variant A's credit check in the sandbox: the X-Sandbox-Score header, degraded mode and the stored score. */
import { STORAGES } from '../../../tests/support';
import { applicantBody, applicationThroughStep4, variantASuite, type VariantA } from './helpers';

describe.each(STORAGES)('Variant A on %s', (storage) => {
  let { t, control, c } = {} as VariantA;
  variantASuite(storage, (made) => {
    ({ t, control, c } = made);
  });

  describe('sandbox scores', () => {
    it.each(['excellent', 'very_good', 'good', 'average', 'below_average', 'poor', '0', '1200', '650'])(
      'when X-Sandbox-Score is %s, then the check completes without degraded mode',
      async (score) => {
        const id = await applicationThroughStep4(c, 'personal');
        const res = await c.check(id, applicantBody(), `score-${id}`, score);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({
          applicationId: id,
          creditCheckComplete: true,
          degraded_mode: false,
          sandbox_mode: true,
        });
      },
    );

    it('when X-Sandbox-Score is unavailable, then the check completes in degraded mode', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      const res = await c.check(id, applicantBody(), `down-${id}`, 'unavailable');
      expect(res.body.data).toMatchObject({ creditCheckComplete: true, degraded_mode: true });
    });

    it.each(['1201', '-1', '12.5', 'great', 'EXCELLENT', ''])(
      'when X-Sandbox-Score is "%s", then 400 VALIDATION_ERROR and no check runs',
      async (score) => {
        const id = await applicationThroughStep4(c, 'personal');
        const calls = control.state.calls;
        const res = await c.check(id, applicantBody(), `bad-${id}`, score);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          error: 'VALIDATION_ERROR',
          message: expect.stringMatching(/^X-Sandbox-Score: must be one of excellent, .*, unavailable, or a whole/),
        });
        // The violation says what the message says, as every other validation error does.
        expect(res.body.details).toEqual([{ field: 'X-Sandbox-Score', rule: 'enum', message: res.body.message }]);
        expect(control.state.calls).toBe(calls);
      },
    );

    it('when the stored score is read, then it is on the 0-1200 scale and stable for the same applicant', async () => {
      const first = await applicationThroughStep4(c, 'personal');
      const second = await applicationThroughStep4(c, 'personal');
      await c.check(first, applicantBody(), `stable-${first}`);
      await c.check(second, applicantBody(), `stable-${second}`);
      const rows = await t.db.query<{ applicationId: string; scoreSealed: string | null }>(
        `SELECT application_id AS "applicationId", score_sealed AS "scoreSealed" FROM credit_checks
          WHERE application_id = ANY($1::uuid[])`,
        [[first, second]],
      );
      expect(rows).toHaveLength(2);
      // Sealed at rest, bound to its application: opened here with the data key itself.
      const [a, b] = rows.map((r) => Number(t.ctx.personalData.open(r.scoreSealed!, `${r.applicationId}:score`)));
      expect(a).toBe(b);
      expect(a).toBeGreaterThanOrEqual(0);
      expect(a).toBeLessThanOrEqual(1200);
    });
  });
});
