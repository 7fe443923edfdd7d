/** Variant B's edge: unknown routes and bad JSON in the shared envelope, request ids, health and readiness. */
import request from 'supertest';
import { STORAGES } from '../../../../tests/support';
import { BASE, accessTokenFor, variantBSuite, type VariantB } from './helpers';

describe.each(STORAGES)('Variant B on %s', (storage) => {
  let { app, mine } = {} as VariantB;
  variantBSuite(storage, (made) => {
    ({ app, mine } = made);
  });

  describe('the edge', () => {
    it('when the route is unknown, the body is not JSON, or health is asked, then the shared envelope and a request id', async () => {
      const token = await accessTokenFor(app, mine.apiKey);
      const unknown = await request(app).get(`${BASE}/applications/x`).set('Authorization', `Bearer ${token}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ success: false, error: 'NOT_FOUND', message: 'No such route' });
      const bad = await request(app)
        .post(`${BASE}/applications`)
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/json')
        .send('{');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('INVALID_JSON');
      expect(bad.headers['x-request-id']).toBeTruthy();
      const echoed = await request(app).get('/healthz').set('X-Request-Id', 'support-ticket-42');
      expect(echoed.status).toBe(200);
      expect(echoed.headers['x-request-id']).toBe('support-ticket-42');
      expect((await request(app).get('/readyz')).status).toBe(200);
    });
  });
});
