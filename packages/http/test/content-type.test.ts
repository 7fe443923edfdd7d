/**
 * Request bodies are JSON: one declared as anything else is refused with 415 before it is read, in the
 * envelope, and the route never runs. One listener shell with a JSON route, no database.
 */
import { Router } from 'express';
import { sendFuzzRequest } from '../../../tests/support/fuzz/request';
import { BODY_BOUNDS, jsonBody } from '../src/body-limits';
import { sendData } from '../src/errors';
import { appServing } from './test-app';

let routeRuns = 0;
function testApp() {
  const router = Router();
  router.use(jsonBody(BODY_BOUNDS.partner));
  router.post('/things', (req, res) => {
    routeRuns++;
    sendData(res, 200, { keys: Object.keys(req.body ?? {}) });
  });
  return appServing(router);
}

const app = testApp();
const post = (data: string, contentType: string | undefined) =>
  sendFuzzRequest(app, { method: 'POST', path: '/v1/things', headers: {}, body: { raw: { data, contentType } } });
const envelope = (res: { text: string }) =>
  JSON.parse(res.text) as { success: boolean; error?: string; message?: string };

describe('the media type of request bodies', () => {
  beforeEach(() => {
    routeRuns = 0;
  });

  it.each([
    ['text/plain', '{"name":"a"}'],
    ['application/x-www-form-urlencoded', 'name=a'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/merge-patch+json', '{"name":"a"}'],
    ['application/xml', '<name>a</name>'],
    [undefined, '{"name":"a"}'],
  ])(
    'when a body is sent as %s, then 415 UNSUPPORTED_MEDIA_TYPE in the envelope and the route does not run',
    async (contentType, data) => {
      const res = await post(data, contentType);
      expect(res.status).toBe(415);
      expect(envelope(res)).toEqual({
        success: false,
        error: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'The request body must be JSON, sent with Content-Type: application/json',
      });
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(routeRuns).toBe(0);
    },
  );

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
    'when a body is sent as %s, then it is read',
    async (contentType) => {
      const res = await post('{"name":"a"}', contentType);
      expect(res.status).toBe(200);
      expect(envelope(res)).toMatchObject({ success: true, data: { keys: ['name'] } });
      expect(routeRuns).toBe(1);
    },
  );

  it('when a request has no body, then its Content-Type does not matter', async () => {
    const res = await post('', 'text/plain');
    expect(res.status).toBe(200);
    expect(routeRuns).toBe(1);
  });

  it('when a JSON body is malformed, then it is still 400 INVALID_JSON, not 415', async () => {
    const res = await post('{"name":', 'application/json');
    expect(res.status).toBe(400);
    expect(envelope(res).error).toBe('INVALID_JSON');
  });
});
