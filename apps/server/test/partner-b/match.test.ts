/** Variant B's match: offers for a checked application whose security token is sent, and refusals. */
import request from 'supertest';
import { STORAGES, countRows } from '../../../../tests/support';
import { BASE, variantBSuite, type ClientB, type VariantB } from './helpers';

describe.each(STORAGES)('Variant B on %s', (storage) => {
  let { t, app, c, otherClient } = {} as VariantB;
  const { viaA, throughStep4 } = variantBSuite(storage, (made) => {
    ({ t, app, c, otherClient } = made);
  });

  describe('match', () => {
    const match = (id: string, body: object, client: ClientB = c) =>
      request(app).post(`${BASE}/applications/${id}/match`).set('Authorization', client.authorization).send(body);

    it('when the check has run and the security token is sent, then offers with tracking links, the same as Variant A', async () => {
      const made = await throughStep4();
      expect(
        (
          await c.check(
            made.applicationId,
            { securityToken: made.securityToken, dateOfBirth: '14/07/1988' },
            { score: 'excellent' },
          )
        ).status,
      ).toBe(200);
      const res = await match(made.applicationId, { securityToken: made.securityToken });
      expect(res.status).toBe(200);
      expect(res.body.data.acceptedOffers.length).toBeGreaterThan(0);
      expect(res.body.data.acceptedOffers[0]).toMatchObject({
        offerId: expect.any(String),
        offerDetails: { interestRate: expect.any(Number), comparisonRate: expect.any(Number) },
        trackingUrl: expect.stringContaining('/r/'),
      });
      expect((await viaA().get(made.applicationId)).body.data.status).toBe('matched');
    });

    it('when the token is wrong or missing, or the application is another partner’s, then 403, 400 or 404 and no match run', async () => {
      const made = await throughStep4();
      await c.check(
        made.applicationId,
        { securityToken: made.securityToken, dateOfBirth: '14/07/1988' },
        { score: 'excellent' },
      );
      const wrong = await match(made.applicationId, { securityToken: `st_${'x'.repeat(43)}` });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error).toBe('INVALID_SECURITY_TOKEN');
      expect((await match(made.applicationId, {})).status).toBe(400);
      expect((await match(made.applicationId, { securityToken: made.securityToken }, otherClient)).status).toBe(404);
      expect(await countRows(t.db, 'match_runs', { applicationId: made.applicationId })).toBe(0);
    });

    it('when the check has not run, then 409 CREDIT_CHECK_REQUIRED', async () => {
      const made = await throughStep4();
      const res = await match(made.applicationId, { securityToken: made.securityToken });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('CREDIT_CHECK_REQUIRED');
    });
  });
});
