/**
 * The envelopes: a value whose JSON text the domain remembered (`withJsonText`) is sent as that text, any
 * other value serialised; either way, and for errors, byte for byte and header for header what Express's
 * `res.json` makes of the same envelope.
 */
import { Router } from 'express';
import request from 'supertest';
import { withJsonText } from '@loanmatch/domain';
import { silentLogger } from '@loanmatch/testing';
import { sendData, sendError } from '../src/errors';
import { createServiceApp } from '../src/service-app';

const value = () => ({ id: 'a1', amount: 12_500.5, note: 'quote " and \u00e9', list: [1, null, { deep: true }], nested: { empty: {} } });

function testApp() {
  const router = Router();
  router.get('/plain', (_req, res) => sendData(res, 200, value()));
  // What Express itself makes of the same envelopes: the reference.
  router.get('/express', (_req, res) => res.status(200).json({ success: true, data: value() }));
  router.get('/error', (_req, res) => sendError(res, 'VALIDATION_ERROR', 'bad "step" \u00e9', [{ field: 'step', rule: 'enum', message: 'step: must be 2' }]));
  router.get('/express-error', (_req, res) =>
    res.status(400).json({ success: false, error: 'VALIDATION_ERROR', message: 'bad "step" \u00e9', details: [{ field: 'step', rule: 'enum', message: 'step: must be 2' }] }),
  );
  router.get('/remembered', (_req, res) => {
    const v = value();
    sendData(res, 201, withJsonText(v, JSON.stringify(v)));
  });
  // A remembered text that is not the value's: the text is what is sent (the value is not serialised again).
  router.get('/text-wins', (_req, res) => sendData(res, 200, withJsonText({ stale: true }, '{"fresh":true}')));
  router.get('/typed', (_req, res) => {
    res.type('application/problem+json');
    sendData(res, 200, withJsonText({ a: 1 }, '{"a":1}'));
  });
  return createServiceApp({ contract: 'test', logger: silentLogger, ping: async () => true, routes: [{ path: '/v1', router }] });
}

describe('sendData', () => {
  const app = testApp();

  it('when a value carries its JSON text, then the answer is that text in the envelope, byte for byte what res.json makes, with the same headers', async () => {
    const plain = await request(app).get('/v1/plain');
    const remembered = await request(app).get('/v1/remembered');
    expect(remembered.status).toBe(201);
    expect(remembered.text).toBe(plain.text);
    expect(remembered.text).toBe(JSON.stringify({ success: true, data: value() }));
    expect(remembered.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(remembered.headers['content-type']).toBe(plain.headers['content-type']);
    expect(remembered.headers['content-length']).toBe(plain.headers['content-length']);
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

  it('when a value carries a text, then that text is sent, not the value serialised again', async () => {
    const res = await request(app).get('/v1/text-wins');
    expect(res.text).toBe('{"success":true,"data":{"fresh":true}}');
  });

  it('when the route set its own content type, then it is kept, as res.json keeps it', async () => {
    const res = await request(app).get('/v1/typed');
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });
});
