/**
 * The headers every answer carries (docs/adr/0154), on a listener shell with a JSON route, a page with
 * its own policy, and the answers no route gives (404, a refused body, Node's parser refusals).
 */
import { connect } from 'node:net';
import { Router } from 'express';
import request from 'supertest';
import { BODY_BOUNDS, jsonBody } from '../src/body-limits';
import { sendData } from '../src/errors';
import { listen } from '../src/service-app';
import { appServing } from './test-app';

function testApp() {
  const router = Router();
  router.use(jsonBody(BODY_BOUNDS.partner));
  router.post('/keys', (_req, res) => sendData(res, 201, { apiKey: 'lm_sandbox_shown_once' }));
  router.get('/page', (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'none'; script-src 'self'");
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send('<!doctype html><title>page</title>');
  });
  return appServing(router);
}

const app = testApp();

function expectApiHeaders(headers: Record<string, string | undefined>): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-powered-by']).toBeUndefined();
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['strict-transport-security']).toBe('max-age=31536000');
}

describe('security headers', () => {
  it('when an answer holds a key, then it is nosniff, no-store, unframeable, and names no framework', async () => {
    const res = await request(app).post('/v1/keys').send({});
    expect(res.status).toBe(201);
    expectApiHeaders(res.headers);
  });

  it.each([
    ['no route', () => request(app).get('/nowhere'), 404],
    ['a refused body', () => request(app).post('/v1/keys').set('Content-Type', 'application/json').send('{"a":'), 400],
    ['the health check', () => request(app).get('/healthz'), 200],
  ])('when the answer is %s, then it carries them too', async (_what, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectApiHeaders(res.headers);
  });

  it('when a page sets its own policy and caching, then those stand and the rest are kept', async () => {
    const res = await request(app).get('/v1/page');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; script-src 'self'");
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('when Node’s parser refuses a request, then its answer is nosniff and no-store as well', async () => {
    const listener = await listen('test', app, 0, '127.0.0.1');
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(listener.url).port), '127.0.0.1');
        let answer = '';
        socket.on('data', (d) => (answer += d));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n');
      });
      expect(text).toMatch(/^HTTP\/1\.1 400/);
      expect(text).toContain('X-Content-Type-Options: nosniff\r\n');
      expect(text).toContain('Cache-Control: no-store\r\n');
    } finally {
      listener.server.close();
    }
  });
});
