import request from 'supertest';
import type { Express } from 'express';
import { createPartnerAApp } from '@loanmatch/partner-a';
import {
  createPartner,
  createSandboxBureau,
  type BureauRequest,
  type CreditBureau,
  type DomainContext,
} from '@loanmatch/domain';
import {
  VALID_STEPS,
  createTestContext,
  flatApplication,
  silentLogger,
  countRows,
  type StorageKind,
  type TestContext,
} from '../../../../tests/support';
import { createPartnerBApp } from '@loanmatch/partner-b';

export const BASE = '/v1';
export const JWT_SECRET = 'test-jwt-secret-for-variant-b-0123456789abcdef';

export async function newPartner(
  ctx: DomainContext,
  options: { name?: string; tier?: string; environment?: string } = {},
): Promise<{ partnerId: string; apiKey: string; keyId: string }> {
  const created = await createPartner(ctx, {
    body: {
      name: options.name ?? 'Partner',
      tier: options.tier ?? 'standard',
      environment: options.environment ?? ctx.env,
    },
  });
  if (!created.ok) throw created.error;
  return created.value;
}

export { flatApplication, richFlatApplication } from '../../../../tests/support';

export function exchange(app: Express, apiKey: string | undefined, body: unknown = { grantType: 'api_key' }) {
  const req = request(app).post(`${BASE}/auth/token`);
  if (apiKey !== undefined) req.set('X-API-Key', apiKey);
  return req.send(body as object);
}

export async function accessTokenFor(app: Express, apiKey: string): Promise<string> {
  const res = await exchange(app, apiKey);
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.accessToken as string;
}

/** A client bound to one app and access token, for terse tests. */
export function clientB(app: Express, accessToken: string) {
  const auth = { Authorization: `Bearer ${accessToken}` };
  return {
    authorization: auth.Authorization,
    create: (body: unknown, key?: string) =>
      request(app)
        .post(`${BASE}/applications`)
        .set(auth)
        .set(key ? { 'Idempotency-Key': key } : {})
        .send(body as object),
    check: (id: string, body: unknown, options: { key?: string; score?: string } = {}) =>
      request(app)
        .post(`${BASE}/applications/${id}/credit-check`)
        .set(auth)
        .set(options.key ? { 'Idempotency-Key': options.key } : {})
        .set(options.score !== undefined ? { 'X-Sandbox-Score': options.score } : {})
        .send(body as object),
    patch: (id: string, body: unknown) =>
      request(app)
        .patch(`${BASE}/applications/${id}`)
        .set(auth)
        .send(body as object),
    match: (id: string, body: unknown) =>
      request(app)
        .post(`${BASE}/applications/${id}/match`)
        .set(auth)
        .send(body as object),
  };
}

export type ClientB = ReturnType<typeof clientB>;

/** A sandbox bureau that counts its calls and keeps the last request. */
export function countingBureau() {
  const sandbox = createSandboxBureau();
  const state = { calls: 0, last: undefined as BureauRequest | undefined };
  const bureau: CreditBureau = {
    sandbox: true,
    async requestScore(req) {
      state.calls++;
      state.last = req;
      return sandbox.requestScore(req);
    },
  };
  return { bureau, state };
}

/** What a Variant B suite's hooks make: one database, both variants' apps over it, and two partners. */
export interface VariantB {
  t: TestContext;
  counting: ReturnType<typeof countingBureau>;
  app: ReturnType<typeof createPartnerBApp>;
  appA: ReturnType<typeof createPartnerAApp>;
  mine: Awaited<ReturnType<typeof newPartner>>;
  other: Awaited<ReturnType<typeof newPartner>>;
  c: ClientB;
  otherClient: ClientB;
}

/**
 * Registers the hooks of a Variant B suite on `storage` (`ready` gets what they made, before the first
 * test) and answers its helpers: applications made through B, read or stepped through A.
 */
export function variantBSuite(storage: StorageKind, ready: (made: VariantB) => void) {
  const s = {} as VariantB;
  beforeAll(async () => {
    const counting = countingBureau();
    const t = await createTestContext(storage, { bureau: counting.bureau });
    const ping = () => t.db.ping();
    const app = createPartnerBApp({ ctx: t.ctx, logger: silentLogger, ping, jwt: { secret: JWT_SECRET } });
    const appA = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping, rateLimitPerMinute: 10_000 });
    const mine = await newPartner(t.ctx, { name: 'Mine', tier: 'enterprise' });
    const other = await newPartner(t.ctx, { name: 'Other', tier: 'enterprise' });
    const c = clientB(app, await accessTokenFor(app, mine.apiKey));
    const otherClient = clientB(app, await accessTokenFor(app, other.apiKey));
    ready(Object.assign(s, { t, counting, app, appA, mine, other, c, otherClient }));
  });
  afterAll(() => s.t.close());

  const countApplications = (partnerId = s.mine.partnerId) => countRows(s.t.db, 'applications', { partnerId });
  const viaA = (apiKey = s.mine.apiKey) => ({
    get: (id: string) =>
      request(s.appA).get(`/api/partner/v1/applications/${id}`).set('Authorization', `Bearer ${apiKey}`),
    patch: (id: string, body: object) =>
      request(s.appA).patch(`/api/partner/v1/applications/${id}`).set('Authorization', `Bearer ${apiKey}`).send(body),
  });
  async function created(client: ClientB = s.c, overrides: Record<string, unknown> = {}) {
    const res = await client.create(flatApplication(overrides));
    expect(res.status).toBe(201);
    return res.body.data as { applicationId: string; securityToken: string };
  }
  async function throughStep4(overrides: Record<string, unknown> = {}, apiKey = s.mine.apiKey, client: ClientB = s.c) {
    const app = await created(client, overrides);
    for (const step of [2, 3, 4] as const)
      expect((await viaA(apiKey).patch(app.applicationId, { step, data: VALID_STEPS.personal[step] })).status).toBe(
        200,
      );
    return app;
  }
  return { countApplications, viaA, created, throughStep4 };
}
