/**
 * `DirectRoutes`: the busiest routes answered from a table before Express's router, in their plain form
 * only. Every other form goes to Express, and both ways give the same answer. A middleware the router
 * runs outside the gate (`walked`) shows which way a request went.
 */
import { Router, type RequestHandler } from 'express';
import request from 'supertest';
import { silentLogger } from '@loanmatch/testing';
import { HttpError, sendData, sendError } from '../src/errors';
import { DirectRoutes } from '../src/direct-routes';
import { jsonBody } from '../src/middleware';
import { createServiceApp } from '../src/service-app';

function testApp(options: { direct: boolean }) {
  const direct = new DirectRoutes();
  // What the access log and the request metric name each request by: the route template, or "unmatched".
  const labels: string[] = [];
  const metrics = { requests: () => ({ observe: (route: string, status: number) => labels.push(`${route} ${status}`) }), rateLimited: () => undefined };
  const router = Router();
  const walked: string[] = [];
  const gateRuns: string[] = [];
  const tag: RequestHandler = (req, res, next) => {
    gateRuns.push(req.method);
    res.locals.tagged = true;
    res.locals.gateSaw = { params: req.params, route: req.route?.path ?? null, baseUrl: req.baseUrl, url: req.url, path: req.path };
    if (req.get('X-Refuse') === 'yes') return next(new HttpError('UNAUTHORIZED', 'refused by the gate'));
    if (req.get('X-Refuse') === 'answer') return sendError(res, 'UNAUTHORIZED', 'answered by the gate');
    next();
  };
  // Express walks this one; a request the table takes never passes it.
  router.use((req, _res, next) => {
    walked.push(`${req.method} ${req.originalUrl}`);
    next();
  });
  const gate = [tag, jsonBody()];
  router.use(...gate);
  const echo: RequestHandler = (req, res) =>
    sendData(res, 200, { params: req.params, baseUrl: req.baseUrl, url: req.url, path: req.path, originalUrl: req.originalUrl, route: req.route?.path, tagged: res.locals.tagged, gateSaw: res.locals.gateSaw, body: req.body ?? null, query: req.query });
  direct.add(router, { baseUrl: '/v1', method: 'get', path: '/things/:thingId', gate }, echo);
  direct.add(router, { baseUrl: '/v1', method: 'post', path: '/things/:thingId/parts/:partId', gate }, echo);
  direct.add(router, { baseUrl: '/v1', method: 'post', path: '/throws', gate }, () => {
    throw new HttpError('IDEMPOTENCY_IN_PROGRESS', 'thrown');
  });
  direct.add(router, { baseUrl: '/v1', method: 'post', path: '/rejects', gate }, async () => {
    throw new HttpError('IDEMPOTENCY_IN_PROGRESS', 'rejected');
  });
  direct.add(router, { baseUrl: '/v1', method: 'post', path: '/passes', gate }, (_req, _res, next) => next());
  direct.add(router, { baseUrl: '/v1', method: 'post', path: '/fails', gate }, (_req, _res, next) => next(new HttpError('IDEMPOTENCY_IN_PROGRESS', 'passed on')));
  const app = createServiceApp({ contract: 'test', logger: silentLogger, ping: async () => true, routes: [{ path: '/v1', router }], direct: options.direct ? direct : undefined, metrics });
  return { app, walked, gateRuns, labels };
}

const plain: Array<[string, string, object?]> = [
  ['GET', '/v1/things/abc-123'],
  ['GET', '/v1/things/0a8b6f54-317d-4816-a949-d73b4507bddb?limit=5&cursor=x'],
  ['POST', '/v1/things/a.b_c~d/parts/7', { n: 1 }],
  ['POST', '/v1/throws'],
  ['POST', '/v1/rejects'],
  ['POST', '/v1/passes'],
  ['POST', '/v1/fails'],
];
const otherForms: Array<[string, string, object?]> = [
  ['GET', '/v1/things/abc-123/'],
  ['GET', '/V1/Things/abc-123'],
  ['GET', '/v1/things/a%20b'],
  ['GET', '/v1/things/a%2Fb'],
  ['GET', '/v1/things/%C3%A9'],
  ['GET', '/v1//things/abc'],
  ['HEAD', '/v1/things/abc-123'],
  ['DELETE', '/v1/things/abc-123'],
  ['POST', '/v1/things/abc-123'],
  ['POST', '/v1/things/x/parts/7/', { n: 2 }],
  ['GET', '/v1/things'],
  ['GET', '/v1/elsewhere'],
];

async function send(app: ReturnType<typeof testApp>['app'], [method, path, body]: [string, string, object?], headers: Record<string, string> = {}) {
  let req = request(app)[method.toLowerCase() as 'get'](path);
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  const res = body ? await req.send(body) : await req;
  return { status: res.status, body: res.body as unknown, text: res.text, type: res.headers['content-type'] };
}

describe('DirectRoutes', () => {
  const withTable = testApp({ direct: true });
  const expressOnly = testApp({ direct: false });
  beforeEach(() => {
    for (const t of [withTable, expressOnly]) {
      t.walked.length = 0;
      t.gateRuns.length = 0;
      t.labels.length = 0;
    }
  });

  it.each(plain)('when %s %s comes in its plain form, then the table answers it, with the answer Express gives', async (...req) => {
    const direct = await send(withTable.app, req);
    expect(withTable.walked).toEqual([]);
    expect(withTable.gateRuns).toEqual([req[0]]);
    const routed = await send(expressOnly.app, req);
    expect(expressOnly.walked).toHaveLength(1);
    expect(direct).toEqual(routed);
  });

  it.each(otherForms)('when %s %s is in another form, then Express routes it, as it would without the table', async (...req) => {
    const direct = await send(withTable.app, req);
    expect(direct).toEqual(await send(expressOnly.app, req));
    expect(withTable.walked).toHaveLength(1);
    expect(withTable.walked).toEqual(expressOnly.walked);
    expect(withTable.gateRuns).toEqual(expressOnly.gateRuns);
  });

  it('when a plain form and another form name the same route, then the handler sees the same params, base and route', async () => {
    const plainAnswer = await send(withTable.app, ['GET', '/v1/things/abc-123']);
    const upper = await send(withTable.app, ['GET', '/V1/things/abc-123/']);
    expect(withTable.walked).toEqual(['GET /V1/things/abc-123/']);
    expect(plainAnswer.body).toEqual({
      success: true,
      data: {
        params: { thingId: 'abc-123' },
        baseUrl: '/v1',
        url: '/things/abc-123',
        path: '/things/abc-123',
        originalUrl: '/v1/things/abc-123',
        route: '/things/:thingId',
        tagged: true,
        gateSaw: { params: {}, route: null, baseUrl: '/v1', url: '/things/abc-123', path: '/things/abc-123' },
        body: null,
        query: {},
      },
    });
    expect(upper.body).toMatchObject({ data: { params: { thingId: 'abc-123' }, route: '/things/:thingId' } });
  });

  it('when the gate refuses, then the error middleware answers and no handler runs', async () => {
    const refused = await send(withTable.app, ['POST', '/v1/things/a/parts/b', { n: 1 }], { 'X-Refuse': 'yes' });
    expect(refused).toMatchObject({ status: 401, body: { success: false, error: 'UNAUTHORIZED', message: 'refused by the gate' } });
    expect(refused).toEqual(await send(expressOnly.app, ['POST', '/v1/things/a/parts/b', { n: 1 }], { 'X-Refuse': 'yes' }));
  });

  it('when a body is not JSON, then the gate refuses it as Express would', async () => {
    const bad = async (app: typeof withTable.app) => {
      const res = await request(app).post('/v1/things/a/parts/b').set('Content-Type', 'application/json').send('{"n":');
      return { status: res.status, body: res.body as unknown };
    };
    const direct = await bad(withTable.app);
    expect(direct).toMatchObject({ status: 400, body: { error: 'INVALID_JSON' } });
    expect(direct).toEqual(await bad(expressOnly.app));
    expect(withTable.walked).toEqual([]);
  });

  it('when errors are thrown, rejected or passed on, or the last handler calls next, then the answers are 409, 409, 409 and 404', async () => {
    const answers = await Promise.all(['/v1/throws', '/v1/rejects', '/v1/fails', '/v1/passes'].map((p) => send(withTable.app, ['POST', p])));
    expect(answers.map((a) => [a.status, (a.body as { message: string }).message])).toEqual([
      [409, 'thrown'],
      [409, 'rejected'],
      [409, 'passed on'],
      [404, expect.any(String)],
    ]);
    expect(withTable.walked).toEqual([]);
  });

  it('when requests succeed, are refused by the gate, fail or fall through, then the log and metrics name them as Express does', async () => {
    const cases: Array<[[string, string, object?], Record<string, string>]> = [
      [['GET', '/v1/things/abc'], {}],
      [['POST', '/v1/things/a/parts/b', { n: 1 }], { 'X-Refuse': 'answer' }],
      [['POST', '/v1/things/a/parts/b', { n: 1 }], { 'X-Refuse': 'yes' }],
      [['POST', '/v1/throws'], {}],
      [['POST', '/v1/rejects'], {}],
      [['POST', '/v1/passes'], {}],
    ];
    for (const [req, headers] of cases) {
      await send(withTable.app, req, headers);
      await send(expressOnly.app, req, headers);
    }
    const bad = (app: typeof withTable.app) => request(app).post('/v1/things/a/parts/b').set('Content-Type', 'application/json').send('{"n":');
    await bad(withTable.app);
    await bad(expressOnly.app);
    expect(withTable.walked).toEqual([]);
    expect(withTable.labels).toEqual(expressOnly.labels);
    expect(withTable.labels).toEqual([
      '/v1/things/:thingId 200',
      'unmatched 401',
      'unmatched 401',
      '/throws 409',
      '/rejects 409',
      '/passes 404',
      'unmatched 400',
    ]);
  });

  it('when a path segment is not plain, then the route cannot be added', () => {
    expect(() => new DirectRoutes().add(Router(), { baseUrl: '/v1', method: 'get', path: '/things/*rest' }, () => undefined)).toThrow(/not a plain one/);
  });
});
