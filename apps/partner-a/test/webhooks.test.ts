import request from 'supertest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { MAX_WEBHOOKS_PER_PARTNER, webhookBody } from '@loanmatch/domain';
import {
  ONE_STORAGE,
  STORAGES,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  startWebhookReceiver,
  storedRow,
  storedRows,
  type TestContext,
  type WebhookReceiver,
} from '../../../tests/support';
import { createDispatcher } from '@loanmatch/http';
import { createPartnerAApp } from '../src/app';
import { BASE, newPartnerKey } from './helpers';

const SECRET_FORMAT = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe.each(STORAGES)('webhooks through Variant A on %s', (storage) => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let receiver: WebhookReceiver;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await createTestContext(storage);
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    receiver = await startWebhookReceiver();
    key = (await newPartnerKey(t.ctx, 'Hooked')).apiKey;
    otherKey = (await newPartnerKey(t.ctx, 'Other')).apiKey;
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const as = (k: string) => ({
    register: (body: unknown) =>
      request(app)
        .post(`${BASE}/webhooks`)
        .set('Authorization', `Bearer ${k}`)
        .send(body as object),
    list: () => request(app).get(`${BASE}/webhooks`).set('Authorization', `Bearer ${k}`),
    remove: (id: string) => request(app).delete(`${BASE}/webhooks/${id}`).set('Authorization', `Bearer ${k}`),
    rotate: (id: string) =>
      request(app).post(`${BASE}/webhooks/${id}/rotate-secret`).set('Authorization', `Bearer ${k}`),
    test: (id: string) => request(app).post(`${BASE}/webhooks/${id}/test`).set('Authorization', `Bearer ${k}`),
    deliveries: (id: string, q = '') =>
      request(app).get(`${BASE}/webhooks/${id}/deliveries${q}`).set('Authorization', `Bearer ${k}`),
  });

  it('when a partner registers an endpoint, then 201 with its id and a whsec_ secret shown once, and GET /webhooks lists it without the secret', async () => {
    const me = as(key);
    const res = await me.register({ url: `${receiver.origin}/a`, unknownField: 1 });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.data).toMatchObject({
      webhookId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: `${receiver.origin}/a`,
      // Without `events`, every type there is.
      events: ['application.status_changed', 'referral.outcome_changed'],
      status: 'active',
      disabledReason: null,
      secret: expect.stringMatching(SECRET_FORMAT),
    });
    const listed = await me.list();
    expect(listed.status).toBe(200);
    const mine = listed.body.data.webhooks.find((w: { webhookId: string }) => w.webhookId === res.body.data.webhookId);
    expect(mine).toMatchObject({ url: `${receiver.origin}/a`, status: 'active' });
    expect(listed.text).not.toContain(res.body.data.secret);
    expect(listed.text).not.toMatch(/secret"/i);
    // The database holds it sealed, never in clear.
    const row = await storedRow(t.db, 'webhooks', { id: res.body.data.webhookId });
    expect(JSON.stringify(row)).not.toContain(res.body.data.secret.slice(6));
    expect((await as(otherKey).list()).body.data.webhooks.map((w: { webhookId: string }) => w.webhookId)).not.toContain(
      res.body.data.webhookId,
    );
  });

  it.each([
    [{ url: 'not a url' }, 'url: must be an absolute http or https URL'],
    [{ url: 'ftp://127.0.0.1/x' }, 'url: must be an absolute http or https URL'],
    [
      { url: 'http://10.0.0.8/hook' },
      'url: must resolve to public or loopback addresses only (not private or link-local)',
    ],
    [
      { url: 'http://169.254.169.254/latest/meta-data' },
      'url: must resolve to public or loopback addresses only (not private or link-local)',
    ],
    [{ url: 'http://user:secret@127.0.0.1/hook' }, 'url: must not contain a user name or password'],
    [
      { url: 'http://127.0.0.1/x', events: ['application.created'] },
      'events[0]: must be one of application.status_changed, referral.outcome_changed',
    ],
    [
      { url: 'http://127.0.0.1/x', events: ['application.status_changed', 'webhook.test'] },
      'events[1]: must be one of application.status_changed, referral.outcome_changed',
    ],
    [{ url: 'http://127.0.0.1/x', events: [] }, 'events: must list at least 1 item'],
    [{ url: 'http://127.0.0.1/x', events: 'application.status_changed' }, 'events: must be an array'],
    [{ url: 42 }, 'url: must be a string'],
    [{}, 'url: is required'],
  ])('when the body is %j, then 400 VALIDATION_ERROR naming the field', async (body, message) => {
    const res = await as(key).register(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
    expect(res.body.details[0]).toMatchObject({ field: message.split(':')[0] });
  });

  it('when the body is not JSON or there is no key, then 400 INVALID_JSON and 401', async () => {
    const bad = await request(app)
      .post(`${BASE}/webhooks`)
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send('{');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_JSON');
    expect((await request(app).get(`${BASE}/webhooks`)).status).toBe(401);
  });

  it('when another partner names my webhook, or the id is unknown or malformed, then 404 on every operation and nothing changes', async () => {
    const id = (await as(key).register({ url: `${receiver.origin}/mine` })).body.data.webhookId;
    const stranger = as(otherKey);
    for (const res of [
      await stranger.remove(id),
      await stranger.rotate(id),
      await stranger.test(id),
      await stranger.deliveries(id),
      await as(key).test('nope'),
      await as(key).remove('00000000-0000-4000-8000-000000000000'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    expect((await as(key).list()).body.data.webhooks.map((w: { webhookId: string }) => w.webhookId)).toContain(id);
  });

  it('when a webhook is deleted, then it leaves the list and later answers 404', async () => {
    const me = as(key);
    const id = (await me.register({ url: `${receiver.origin}/deleted` })).body.data.webhookId;
    const res = await me.remove(id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ webhookId: id, deleted: true });
    expect((await me.list()).body.data.webhooks.map((w: { webhookId: string }) => w.webhookId)).not.toContain(id);
    expect((await me.remove(id)).status).toBe(404);
    expect((await me.test(id)).status).toBe(404);
  });

  it(`when a partner already has ${MAX_WEBHOOKS_PER_PARTNER} webhooks, then 409 WEBHOOK_LIMIT_REACHED`, async () => {
    const crowded = as((await newPartnerKey(t.ctx, 'Crowded')).apiKey);
    for (let i = 0; i < MAX_WEBHOOKS_PER_PARTNER; i++)
      expect((await crowded.register({ url: `${receiver.origin}/n${i}` })).status).toBe(201);
    const res = await crowded.register({ url: `${receiver.origin}/one-too-many` });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('WEBHOOK_LIMIT_REACHED');
  });

  it('when the partner rotates the secret and asks for a test, then a webhook.test event arrives signed by both secrets and the deliveries list shows it', async () => {
    const me = as(key);
    const registered = (await me.register({ url: `${receiver.origin}/tested` })).body.data;
    const rotated = await me.rotate(registered.webhookId);
    expect(rotated.status).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect(rotated.body.data).toMatchObject({
      webhookId: registered.webhookId,
      secret: expect.stringMatching(SECRET_FORMAT),
      previousSecretExpiresAt: expect.any(String),
    });
    const hours = (Date.parse(rotated.body.data.previousSecretExpiresAt) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const queued = await me.test(registered.webhookId);
    expect(queued.status).toBe(200);
    expect(queued.body.data).toMatchObject({
      webhookId: registered.webhookId,
      eventId: expect.stringMatching(/^evt_/),
      type: 'webhook.test',
    });

    const dispatcher = createDispatcher({ ctx: t.ctx });
    await dispatcher.runOnce();
    await dispatcher.stop();
    const [got] = await receiver.waitFor(1, { filter: (r) => r.path === '/tested' });
    expect(got.headers['webhook-id']).toBe(queued.body.data.eventId);
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [rotated.body.data.secret, registered.secret]) {
      expect(new StandardWebhook(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({
        type: 'webhook.test',
        data: { webhookId: registered.webhookId },
      });
    }

    const log = await me.deliveries(registered.webhookId);
    expect(log.status).toBe(200);
    expect(log.body.data).toMatchObject({ webhookId: registered.webhookId, pending: 0 });
    expect(log.body.data.deliveries).toEqual([
      {
        eventId: queued.body.data.eventId,
        eventType: 'webhook.test',
        attempt: 1,
        attemptedAt: expect.any(String),
        status: 'succeeded',
        responseStatus: 204,
        durationMs: expect.any(Number),
        error: null,
        nextRetryAt: null,
      },
    ]);
    expect((await me.deliveries(registered.webhookId, '?limit=0')).status).toBe(400);
    expect((await me.deliveries(registered.webhookId, '?limit=1')).body.data.deliveries).toHaveLength(1);
    expect(
      (await me.list()).body.data.webhooks.find((w: { webhookId: string }) => w.webhookId === registered.webhookId),
    ).toMatchObject({
      previousSecretExpiresAt: rotated.body.data.previousSecretExpiresAt,
      lastSuccessAt: expect.any(String),
      failingSince: null,
    });
  });

  it('when an application is created with an endpoint registered, then an event is queued for it in the same transaction', async () => {
    const partner = await newPartnerKey(t.ctx, 'Queued');
    const hook = (await as(partner.apiKey).register({ url: `${receiver.origin}/queued` })).body.data;
    const created = await request(app)
      .post(`${BASE}/applications`)
      .set('Authorization', `Bearer ${partner.apiKey}`)
      .send({ formType: 'car', data: VALID_STEPS.car[1] });
    expect(created.status).toBe(201);
    const deliveries = await storedRows(t.db, 'webhook_deliveries', { webhookId: hook.webhookId });
    expect(deliveries).toHaveLength(1);
    const event = (await storedRow(t.db, 'webhook_events', { id: deliveries[0].eventId }))!;
    expect(JSON.parse(webhookBody(event))).toMatchObject({
      type: 'application.status_changed',
      data: { applicationId: created.body.data.applicationId, status: 'draft', previousStatus: null, lastStep: 1 },
    });
  });
});

describe('webhook registration on a live server', () => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let key: string;

  beforeAll(async () => {
    // A resolver the test controls: no name leaves the machine, and nothing is sent at registration.
    const table: Record<string, string[]> = {
      'hooks.partner.example': ['93.184.215.14'],
      'intranet.partner.example': ['10.20.30.40'],
      localhost: ['127.0.0.1'],
    };
    t = await createTestContext(ONE_STORAGE, {
      env: 'live',
      lookup: async (host) => {
        if (!table[host]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        return table[host].map((address) => ({ address, family: 4 as const }));
      },
    });
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 1000 });
    key = (await newPartnerKey(t.ctx)).apiKey;
  });
  afterAll(() => t.close());

  const register = (url: string) =>
    request(app).post(`${BASE}/webhooks`).set('Authorization', `Bearer ${key}`).send({ url });

  it('when the URL is https on a public address, then it is accepted', async () => {
    const res = await register('https://hooks.partner.example/loanmatch');
    expect(res.status).toBe(201);
    expect(res.body.data.url).toBe('https://hooks.partner.example/loanmatch');
  });

  it.each([
    ['http://hooks.partner.example/loanmatch', 'url: must use https'],
    ['http://127.0.0.1:4000/hook', 'url: must use https'],
    ['https://127.0.0.1:4000/hook', 'url: must resolve to public addresses only (not private, loopback or link-local)'],
    ['https://localhost/hook', 'url: must resolve to public addresses only (not private, loopback or link-local)'],
    [
      'https://intranet.partner.example/hook',
      'url: must resolve to public addresses only (not private, loopback or link-local)',
    ],
    [
      'https://[::ffff:10.0.0.1]/hook',
      'url: must resolve to public addresses only (not private, loopback or link-local)',
    ],
    ['https://[fe80::1]/hook', 'url: must resolve to public addresses only (not private, loopback or link-local)'],
    ['https://nowhere.partner.example/hook', 'url: the host name does not resolve'],
  ])('when the URL is %s, then 400 %s', async (url, message) => {
    const res = await register(url);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', message, details: [{ field: 'url', message }] });
  });
});
