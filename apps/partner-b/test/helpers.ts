import request from 'supertest';
import type { Express } from 'express';
import { createPartner, type DomainContext } from '@loanmatch/domain';

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

export { flatApplication, richFlatApplication } from '@loanmatch/testing';

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
