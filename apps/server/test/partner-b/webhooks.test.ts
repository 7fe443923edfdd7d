import request from 'supertest';
import { createPartnerAApp } from '@loanmatch/partner-a';
import {
  STORAGES,
  createTestContext,
  silentLogger,
  countRows,
  storedRow,
  type TestContext,
} from '../../../../tests/support';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { BASE, JWT_SECRET, accessTokenFor, clientB, flatApplication, newPartner } from './helpers';
import { webhookBody } from '@loanmatch/domain';

describe.each(STORAGES)('webhooks through Variant B on %s', (storage) => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerBApp>;
  let appA: ReturnType<typeof createPartnerAApp>;

  beforeAll(async () => {
    t = await createTestContext(storage);
    app = createPartnerBApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, jwt: { secret: JWT_SECRET } });
    appA = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 1000 });
  });
  afterAll(() => t.close());

  it('when a partner registers through B, then A lists the same webhook, and B creates queue its events', async () => {
    const partner = await newPartner(t.ctx);
    const token = await accessTokenFor(app, partner.apiKey);
    const registered = await request(app)
      .post(`${BASE}/webhooks`)
      .set('Authorization', `Bearer ${token}`)
      .send({ url: 'http://127.0.0.1:9/b-hook', events: ['application.status_changed'] });
    expect(registered.status).toBe(201);
    expect(registered.headers['cache-control']).toBe('no-store');
    expect(registered.body.data).toMatchObject({
      webhookId: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    const { webhookId } = registered.body.data;

    const viaA = await request(appA).get('/api/partner/v1/webhooks').set('Authorization', `Bearer ${partner.apiKey}`);
    expect(viaA.body.data.webhooks.map((w: { webhookId: string }) => w.webhookId)).toEqual([webhookId]);
    const viaB = await request(app).get(`${BASE}/webhooks`).set('Authorization', `Bearer ${token}`);
    expect(viaB.body.data).toEqual(viaA.body.data);

    const created = await clientB(app, token).create(flatApplication());
    expect(created.status).toBe(201);
    const event = await storedRow(t.db, 'webhook_events', { applicationId: created.body.data.applicationId });
    const body = JSON.parse(webhookBody(event!));
    expect(body.data).toEqual({
      applicationId: created.body.data.applicationId,
      status: 'draft',
      previousStatus: null,
      lastStep: 1,
    });
    for (const personal of [
      'Jordan',
      'Citizen',
      'jordan.citizen@example.com',
      '0412345678',
      created.body.data.securityToken,
    ])
      expect(webhookBody(event!)).not.toContain(personal);
    expect(await countRows(t.db, 'webhook_deliveries', { webhookId, eventId: event!.id })).toBe(1);

    for (const path of ['/rotate-secret', '/test'])
      expect(
        (await request(app).post(`${BASE}/webhooks/${webhookId}${path}`).set('Authorization', `Bearer ${token}`))
          .status,
      ).toBe(200);
    expect(
      (await request(app).get(`${BASE}/webhooks/${webhookId}/deliveries`).set('Authorization', `Bearer ${token}`)).body
        .data,
    ).toMatchObject({ webhookId, pending: 2 });
    expect(
      (await request(app).delete(`${BASE}/webhooks/${webhookId}`).set('Authorization', `Bearer ${token}`)).body.data,
    ).toEqual({ webhookId, deleted: true });
  });

  it('when another partner names the webhook through B, then 404; without an access token, then 401; with a bad body, then 400 naming the field', async () => {
    const owner = await newPartner(t.ctx, { name: 'Owner' });
    const ownerToken = await accessTokenFor(app, owner.apiKey);
    const { webhookId } = (
      await request(app)
        .post(`${BASE}/webhooks`)
        .set('Authorization', `Bearer ${ownerToken}`)
        .send({ url: 'http://localhost:9/x' })
    ).body.data;
    const strangerToken = await accessTokenFor(app, (await newPartner(t.ctx, { name: 'Stranger' })).apiKey);
    for (const [method, path] of [
      ['delete', ''],
      ['post', '/rotate-secret'],
      ['post', '/test'],
      ['get', '/deliveries'],
    ] as const) {
      const res = await request(app)
        [method](`${BASE}/webhooks/${webhookId}${path}`)
        .set('Authorization', `Bearer ${strangerToken}`);
      expect(res.status).toBe(404);
    }
    expect((await request(app).get(`${BASE}/webhooks`).set('Authorization', `Bearer ${owner.apiKey}`)).status).toBe(
      401,
    );
    const bad = await request(app)
      .post(`${BASE}/webhooks`)
      .set('Authorization', `Bearer ${ownerToken}`)
      .send({ url: 'http://192.168.0.10/x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('url: must resolve to public or loopback addresses only (not private or link-local)');
  });
});
