/**
 * The success envelope: a value whose JSON text the domain remembered (`withJsonText`) is sent as that
 * text, byte for byte what `res.json` makes of the same value; any other value through `res.json`.
 */
import { Router } from 'express';
import request from 'supertest';
import { withJsonText } from '@loanmatch/domain';
import { silentLogger } from '@loanmatch/testing';
import { sendData } from '../src/errors';
import { createServiceApp } from '../src/service-app';

const value = () => ({ id: 'a1', amount: 12_500.5, note: 'quote " and \u00e9', list: [1, null, { deep: true }], nested: { empty: {} } });

function testApp() {
  const router = Router();
  router.get('/plain', (_req, res) => sendData(res, 200, value()));
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

  it('when a value carries a text, then that text is sent, not the value serialised again', async () => {
    const res = await request(app).get('/v1/text-wins');
    expect(res.text).toBe('{"success":true,"data":{"fresh":true}}');
  });

  it('when the route set its own content type, then it is kept, as res.json keeps it', async () => {
    const res = await request(app).get('/v1/typed');
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });
});
