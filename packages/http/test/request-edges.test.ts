/**
 * Regression tests for what the fuzzers (apps/*\/test/fuzz.test.ts) found at the HTTP layer: each case
 * answered 500 or left the envelope before its fix. One listener shell with a JSON route and a route
 * with an id, no database.
 */
import { gzipSync } from 'node:zlib';
import { Router } from 'express';
import { sendFuzzRequest, silentLogger, type FuzzRequest } from '@loanmatch/testing';
import { sendData } from '../src/errors';
import { MAX_BODY_DEPTH, jsonBody } from '../src/middleware';
import { createServiceApp } from '../src/service-app';

function testApp() {
  const router = Router();
  router.use(jsonBody());
  router.post('/things', (req, res) => sendData(res, 200, { keys: Object.keys(req.body ?? {}) }));
  router.get('/things/:id', (req, res) => sendData(res, 200, { id: req.params.id }));
  return createServiceApp({
    contract: 'test',
    logger: silentLogger,
    ping: async () => true,
    routes: [{ path: '/v1', router }],
  });
}

const app = testApp();
const post = (data: string | Buffer, headers: Record<string, string> = {}) =>
  sendFuzzRequest(app, {
    method: 'POST',
    path: '/v1/things',
    headers,
    body: { raw: { data, contentType: 'application/json', contentEncoding: headers['Content-Encoding'] } },
  });
const envelope = (res: { text: string }) =>
  JSON.parse(res.text) as { success: boolean; error?: string; message?: string };

describe('bodies the database could not store', () => {
  it.each([
    ['U+0000 in a value', '{"name":"a\\u0000b"}'],
    ['U+0000 in a key', '{"na\\u0000me":"a"}'],
    ['a lone high surrogate', '{"name":"\\ud800"}'],
    ['a lone low surrogate, nested', '{"data":{"list":["x\\udc00y"]}}'],
  ])('when a body holds %s, then 400 INVALID_JSON before any route runs', async (_case, text) => {
    const res = await post(text);
    expect(res.status).toBe(400);
    expect(envelope(res)).toMatchObject({
      success: false,
      error: 'INVALID_JSON',
      message: expect.stringContaining('\\u0000 or unpaired surrogates'),
    });
  });

  it('when text holds a surrogate pair or other unicode, then it passes', async () => {
    const res = await post(JSON.stringify({ name: 'Zoë 😀 \u202e\ufeff', '😀': 1 }));
    expect(res.status).toBe(200);
  });

  it.each([
    ['0xff', [0xff]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['a surrogate written in UTF-8 (CESU-8)', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
  ])(
    'when the bytes are not UTF-8 (%s), then 400 INVALID_JSON rather than text silently changed to U+FFFD',
    async (_case, bytes) => {
      const res = await post(Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]));
      expect(res.status).toBe(400);
      expect(envelope(res)).toMatchObject({ error: 'INVALID_JSON', message: 'The request body must be UTF-8 JSON' });
    },
  );
});

describe('deep nesting', () => {
  const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it(`when a body nests ${MAX_BODY_DEPTH} levels, then it passes; one more is 400 INVALID_JSON`, async () => {
    expect((await post(objects(MAX_BODY_DEPTH))).status).toBe(200);
    const refused = await post(objects(MAX_BODY_DEPTH + 1));
    expect(refused.status).toBe(400);
    expect(envelope(refused)).toMatchObject({
      error: 'INVALID_JSON',
      message: `The request body is nested deeper than ${MAX_BODY_DEPTH} levels`,
    });
  });

  it.each([
    ['10,000 levels of objects', `{"x":${objects(10_000)}}`],
    ['100,000 levels of arrays', `{"x":${arrays(100_000)}}`],
    ['10,000 levels of __proto__', `{"x":${'{"__proto__":'.repeat(10_000)}1${'}'.repeat(10_000)}}`],
  ])('when a body holds %s, then 400 INVALID_JSON and no stack overflow', async (_case, text) => {
    const res = await post(text);
    expect(res.status).toBe(400);
    expect(envelope(res).error).toBe('INVALID_JSON');
  });
});

describe('bodies that cannot be read', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'when Content-Encoding is %s but the body does not inflate, then 400 INVALID_JSON',
    async (encoding) => {
      const res = await post('{"name":"plain"}', { 'Content-Encoding': encoding });
      expect(res.status).toBe(400);
      expect(envelope(res)).toMatchObject({ error: 'INVALID_JSON', message: 'The request body could not be read' });
    },
  );

  it('when the body is gzip as it says, then it is read', async () => {
    const res = await post(gzipSync('{"name":"zipped"}'), { 'Content-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(envelope(res)).toMatchObject({ success: true, data: { keys: ['name'] } });
  });
});

describe('paths and methods no route answers', () => {
  const send = (req: Omit<FuzzRequest, 'headers'>) => sendFuzzRequest(app, { ...req, headers: {} });

  it.each(['%E0%A4%A', '%ff', '%', 'a%2'])(
    'when a path segment is not percent-encoded UTF-8 (%s), then 404 NOT_FOUND in the envelope',
    async (id) => {
      const res = await send({ method: 'GET', path: `/v1/things/${id}` });
      expect(res.status).toBe(404);
      expect(envelope(res)).toMatchObject({ success: false, error: 'NOT_FOUND' });
    },
  );

  it('when a path holds an encoded NUL, then 404 NOT_FOUND before any route runs', async () => {
    const res = await send({ method: 'GET', path: '/v1/things/free%00' });
    expect(res.status).toBe(404);
    expect(envelope(res)).toMatchObject({ error: 'NOT_FOUND' });
    expect((await send({ method: 'GET', path: '/v1/things/100%2500' })).status).toBe(200); // an encoded "%00" is no NUL
  });

  it('when OPTIONS is sent to a known path, then 404 in the envelope, not Express’s text/plain list of methods', async () => {
    const res = await send({ method: 'OPTIONS', path: '/v1/things' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(envelope(res)).toMatchObject({ error: 'NOT_FOUND' });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });
});

describe('conditional requests', () => {
  it('when a GET sends If-None-Match, then the answer is the whole envelope, with no ETag and no bodyless 304', async () => {
    const first = await sendFuzzRequest(app, { method: 'GET', path: '/v1/things/one', headers: {} });
    expect(first.headers.etag).toBeUndefined();
    for (const tag of ['*', 'W/"anything"']) {
      const res = await sendFuzzRequest(app, {
        method: 'GET',
        path: '/v1/things/one',
        headers: { 'If-None-Match': tag },
      });
      expect(res.status).toBe(200);
      expect(envelope(res)).toEqual({ success: true, data: { id: 'one' } });
    }
  });
});

describe('bodies on requests that name none', () => {
  it('when a GET carries a JSON body, then it is still parsed and checked like any other', async () => {
    const res = await sendFuzzRequest(app, {
      method: 'GET',
      path: '/v1/things/one',
      headers: {},
      body: { raw: { data: '{"a":"x\\u0000"}', contentType: 'application/json' } },
    });
    expect(res.status).toBe(400);
    expect(envelope(res).error).toBe('INVALID_JSON');
  });

  it('when a POST sends Content-Length: 0 with no type, then the route sees no body', async () => {
    const res = await sendFuzzRequest(app, { method: 'POST', path: '/v1/things', headers: { 'Content-Length': '0' } });
    expect(res.status).toBe(200);
    expect(envelope(res)).toEqual({ success: true, data: { keys: [] } });
  });
});
