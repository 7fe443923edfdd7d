/** Variant A's refusals and envelope: other partners' applications, bad keys, bad bodies, request ids, health. */
import request from 'supertest';
import { revokeKey } from '@loanmatch/domain';
import { STORAGES, VALID_STEPS } from '../../../tests/support';
import { BASE, applicantBody, newPartnerKey, variantASuite, type VariantA } from './helpers';

describe.each(STORAGES)('Variant A on %s', (storage) => {
  let { t, app, c, other } = {} as VariantA;
  variantASuite(storage, (made) => {
    ({ t, app, c, other } = made);
  });

  describe('ownership and errors', () => {
    it('when another partner, an unknown id or a malformed id is asked for, then the same 404 NOT_FOUND', async () => {
      const id = (await c.create({ formType: 'personal', data: { loanAmount: 5000 } })).body.data.applicationId;
      const answers = [
        await other.get(id),
        await c.get('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d'),
        await c.get('not-a-uuid'),
        await other.patch(id, { step: 2, data: VALID_STEPS.personal[2] }),
        await other.check(id, applicantBody(), `foreign-${id}`),
      ];
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, error: 'NOT_FOUND', message: 'Application not found' });
      }
      expect((await c.get(id)).body.data.lastStep).toBe(1);
    });

    it('when there is no key, a malformed key, a revoked key or a live key, then 401 UNAUTHORIZED', async () => {
      const revoked = await newPartnerKey(t.ctx, 'Revoked');
      await revokeKey(t.ctx, { keyId: revoked.keyId });
      const live = `lm_live_${'A'.repeat(43)}`;
      const tries = [
        request(app).get(`${BASE}/applications/x`),
        request(app).get(`${BASE}/applications/x`).set('Authorization', 'Basic abc'),
        request(app).get(`${BASE}/applications/x`).set('Authorization', 'Bearer lm_sandbox_short'),
        request(app).get(`${BASE}/applications/x`).set('Authorization', `Bearer ${revoked.apiKey}`),
        request(app).get(`${BASE}/applications/x`).set('Authorization', `Bearer ${live}`),
      ];
      for (const res of await Promise.all(tries)) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ success: false, error: 'UNAUTHORIZED' });
        expect(res.headers['x-request-id']).toBeTruthy();
        expect(res.text).not.toContain(revoked.apiKey);
      }
    });

    it('when the body is not JSON, not sent as JSON, too large, or the route unknown, then the envelope and a request id', async () => {
      const auth = {
        Authorization: `Bearer ${(await newPartnerKey(t.ctx)).apiKey}`,
        'Content-Type': 'application/json',
      };
      const bad = await request(app).post(`${BASE}/applications`).set(auth).send('{"formType":');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('INVALID_JSON');
      const big = await request(app)
        .post(`${BASE}/applications`)
        .set(auth)
        .send(JSON.stringify({ formType: 'personal', data: { pad: 'x'.repeat(1_100_000) } }));
      expect(big.status).toBe(413);
      expect(big.body.error).toBe('PAYLOAD_TOO_LARGE');
      const text = await request(app)
        .post(`${BASE}/applications`)
        .set({ Authorization: auth.Authorization, 'Content-Type': 'text/plain' })
        .send('formType=personal');
      expect(text.status).toBe(415);
      expect(text.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
      const unknown = await request(app).get('/nowhere');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('NOT_FOUND');
      for (const res of [bad, big, text, unknown]) expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('when a caller sends its own X-Request-Id, then it is echoed; a malformed one is replaced', async () => {
      expect(
        (await request(app).get('/healthz').set('X-Request-Id', 'partner-trace-123')).headers['x-request-id'],
      ).toBe('partner-trace-123');
      const weird = await request(app).get('/healthz').set('X-Request-Id', 'bad id\twith tab');
      expect(weird.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('when health and readiness are asked, then 200', async () => {
      expect((await request(app).get('/healthz')).status).toBe(200);
      expect((await request(app).get('/readyz')).status).toBe(200);
    });
  });
});
