/**
 * Regression tests for what the fuzzers (apps/*\/test/fuzz.test.ts) found at the HTTP layer: each case
 * answered 500 or left the envelope before its fix. One listener shell with a JSON route and a route
 * with an id, no database.
 */
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Router } from 'express';
import { sendFuzzRequest, type FuzzRequest } from '../../../tests/support/fuzz/request';
import { BODY_BOUNDS, MAX_BODY_DEPTH, jsonBody } from '../src/body-limits';
import { sendData } from '../src/errors';
import { appServing } from './test-app';

function testApp() {
  const router = Router();
  // A route with the catalogue's bounds, so that bodies far past a partner's limit still reach the checks.
  router.post('/large', jsonBody(BODY_BOUNDS.catalogue), (req, res) =>
    sendData(res, 200, { keys: Object.keys(req.body ?? {}) }),
  );
  router.use(jsonBody(BODY_BOUNDS.partner));
  router.post('/things', (req, res) => sendData(res, 200, { keys: Object.keys(req.body ?? {}) }));
  router.get('/things/:id', (req, res) => sendData(res, 200, { id: req.params.id }));
  return appServing(router);
}

const app = testApp();
const post = (data: string | Buffer, headers: Record<string, string> = {}, path = '/v1/things') =>
  sendFuzzRequest(app, {
    method: 'POST',
    path,
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

  const declared = (data: string | Buffer, charset: string) =>
    sendFuzzRequest(app, {
      method: 'POST',
      path: '/v1/things',
      headers: {},
      body: { raw: { data, contentType: `application/json; charset=${charset}` } },
    });

  it.each([
    ['a small object', '{"name":"x"}'],
    ['6,000 levels of nesting', `${'['.repeat(6000)}${']'.repeat(6000)}`],
    ['5,000 items', `[${Array(5000).fill('1').join(',')}]`],
  ])('when a body declared UTF-16LE holds %s, then 400 INVALID_JSON before it is parsed', async (_case, text) => {
    const res = await declared(Buffer.from(text, 'utf16le'), 'utf-16le');
    expect(res.status).toBe(400);
    expect(envelope(res)).toMatchObject({ error: 'INVALID_JSON', message: 'The request body must be UTF-8 JSON' });
  });

  it.each(['utf-8', 'UTF-8'])('when a UTF-8 body says charset=%s, then it passes', async (charset) => {
    expect((await declared('{"name":"x"}', charset)).status).toBe(200);
  });
});

describe('deep nesting', () => {
  const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it(`when a body nests ${MAX_BODY_DEPTH} levels, then it passes; one more is 400 VALIDATION_ERROR`, async () => {
    expect((await post(objects(MAX_BODY_DEPTH))).status).toBe(200);
    const refused = await post(objects(MAX_BODY_DEPTH + 1));
    expect(refused.status).toBe(400);
    expect(envelope(refused)).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: `body: must nest at most ${MAX_BODY_DEPTH} levels deep`,
      details: [{ field: 'body', rule: 'depth', message: `body: must nest at most ${MAX_BODY_DEPTH} levels deep` }],
    });
  });

  it('when nesting is written inside a string, then it is text, not structure, and passes', async () => {
    const text = JSON.stringify({ a: `${'['.repeat(100)}\\"{${'{'.repeat(100)}` });
    expect((await post(text)).status).toBe(200);
  });

  it.each([
    ['10,000 levels of objects', `{"x":${objects(10_000)}}`],
    ['100,000 levels of arrays', `{"x":${arrays(100_000)}}`],
    ['10,000 levels of __proto__', `{"x":${'{"__proto__":'.repeat(10_000)}1${'}'.repeat(10_000)}}`],
  ])('when a body holds %s, then 400 VALIDATION_ERROR and no stack overflow', async (_case, text) => {
    const res = await post(text, {}, '/v1/large');
    expect(res.status).toBe(400);
    expect(envelope(res)).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: expect.stringContaining('levels deep'),
    });
  });
});

describe('bounds of a body', () => {
  const { bytes, elements } = BODY_BOUNDS.partner;
  const emptyObjects = (n: number) => `[${Array.from({ length: n }, () => '{}').join(',')}]`;
  /** A body of exactly `size` bytes: one string field padded out. */
  const padded = (size: number) => `{"pad":"${'x'.repeat(size - '{"pad":""}'.length)}"}`;

  it(`when a partner body holds ${elements} fields and array items, then it passes; one more is 400 VALIDATION_ERROR`, async () => {
    expect((await post(emptyObjects(elements))).status).toBe(200);
    const refused = await post(emptyObjects(elements + 1));
    expect(refused.status).toBe(400);
    expect(envelope(refused)).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: `body: must hold at most ${elements} fields and array items in all`,
    });
  });

  it('when members of objects are counted, then each key and value pair is one element, empty containers none', async () => {
    const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":{"v":[]}`).join(',')}}`;
    expect((await post(members(elements / 2))).status).toBe(200); // n members, n inner members: 2n
    expect((await post(members(elements / 2 + 1))).status).toBe(400);
  });

  it(`when a partner body is ${bytes} bytes, then it is read; one byte more is 413 PAYLOAD_TOO_LARGE in the envelope`, async () => {
    expect((await post(padded(bytes))).status).toBe(200);
    const refused = await post(padded(bytes + 1));
    expect(refused.status).toBe(413);
    expect(envelope(refused)).toEqual({
      success: false,
      error: 'PAYLOAD_TOO_LARGE',
      message: 'The request body is larger than 32 KB',
    });
  });

  it('when a body is compressed, then the limit applies to what it inflates to', async () => {
    const res = await post(gzipSync(padded(bytes + 1)), { 'Content-Encoding': 'gzip' });
    expect(res.status).toBe(413);
  });

  it('when a body past the limit is not even JSON, then 413, not 400: the size is checked before parsing', async () => {
    const res = await post(`{"pad":"${'x'.repeat(bytes)}`); // never closed
    expect(res.status).toBe(413);
    expect(envelope(res).error).toBe('PAYLOAD_TOO_LARGE');
  });

  it('when a body without Content-Length (chunked) passes the limit, then 413 as well', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/v1/things',
            headers: { 'Content-Type': 'application/json' },
          },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        for (let sent = 0; sent <= bytes; sent += 4096) req.write(`["${'x'.repeat(4090)}",`);
        req.end('"unfinished');
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
    } finally {
      server.close();
    }
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

  it('when Content-Encoding is one the service does not decode, then 415 UNSUPPORTED_MEDIA_TYPE naming those it does', async () => {
    const res = await post('{"name":"plain"}', { 'Content-Encoding': 'compress' });
    expect(res.status).toBe(415);
    expect(envelope(res)).toMatchObject({
      error: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Content-Encoding must be gzip, deflate, br or identity',
    });
  });

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
