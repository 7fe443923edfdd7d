/**
 * The envelopes: a value or an error is answered byte for byte and header for header as Express's
 * `res.json` answers the same envelope.
 */
import { Router } from 'express';
import request from 'supertest';
import { sendData, sendError } from '../src/errors';
import { appServing } from './test-app';

const value = () => ({
  id: 'a1',
  amount: 12_500.5,
  note: 'quote " and \u00e9',
  list: [1, null, { deep: true }],
  nested: { empty: {} },
});

function testApp() {
  const router = Router();
  router.get('/plain', (_req, res) => sendData(res, 200, value()));
  // What Express itself makes of the same envelopes: the reference.
  router.get('/express', (_req, res) => res.status(200).json({ success: true, data: value() }));
  router.get('/error', (_req, res) =>
    sendError(res, 'VALIDATION_ERROR', 'bad "step" \u00e9', [
      { field: 'step', rule: 'enum', message: 'step: must be 2' },
    ]),
  );
  router.get('/express-error', (_req, res) =>
    res.status(400).json({
      success: false,
      error: 'VALIDATION_ERROR',
      message: 'bad "step" \u00e9',
      details: [{ field: 'step', rule: 'enum', message: 'step: must be 2' }],
    }),
  );
  router.get('/created', (_req, res) => sendData(res, 201, value()));
  router.get('/typed', (_req, res) => {
    res.type('application/problem+json');
    sendData(res, 200, { a: 1 });
  });
  return appServing(router);
}

describe('sendData', () => {
  const app = testApp();

  it('when a value is sent, then the answer is the envelope with the given status, as JSON in UTF-8', async () => {
    const created = await request(app).get('/v1/created');
    expect(created.status).toBe(201);
    expect(created.text).toBe(JSON.stringify({ success: true, data: value() }));
    expect(created.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(created.headers['content-length']).toBe(String(Buffer.byteLength(created.text)));
  });

  it('when a value or an error is sent, then status, content type, length and bytes are what res.json makes of it', async () => {
    for (const [ours, express] of [
      ['/v1/plain', '/v1/express'],
      ['/v1/error', '/v1/express-error'],
    ]) {
      const a = await request(app).get(ours);
      const b = await request(app).get(express);
      expect(a.status).toBe(b.status);
      expect(a.text).toBe(b.text);
      for (const header of ['content-type', 'content-length']) expect(a.headers[header]).toBe(b.headers[header]);
    }
  });

  it('when the request is HEAD, then the same headers as res.json sends, and no body', async () => {
    const a = await request(app).head('/v1/plain');
    const b = await request(app).head('/v1/express');
    expect(a.status).toBe(200);
    for (const header of ['content-type', 'content-length']) expect(a.headers[header]).toBe(b.headers[header]);
    expect(a.text).toBeUndefined();
    expect(b.text).toBeUndefined();
  });

  it('when the route set its own content type, then it is kept, as res.json keeps it', async () => {
    const res = await request(app).get('/v1/typed');
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });
});
