import request from 'supertest';
import type { Express } from 'express';
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
  silentLogger,
  validApplicant,
  countRows,
  type LoanType,
  type StorageKind,
  type TestContext,
} from '../../../tests/support';
import { createPartnerAApp } from '../src/app';

export const BASE = '/api/partner/v1';

export async function newPartnerKey(
  ctx: DomainContext,
  name = 'Partner',
): Promise<{ partnerId: string; apiKey: string; keyId: string }> {
  const created = await createPartner(ctx, { body: { name, environment: ctx.env } });
  if (!created.ok) throw created.error;
  return created.value;
}

/** A client bound to one app and key, for terse tests. */
export function client(app: Express, apiKey: string) {
  const auth = { Authorization: `Bearer ${apiKey}` };
  return {
    auth,
    create: (body: unknown, key?: string) =>
      request(app)
        .post(`${BASE}/applications`)
        .set(auth)
        .set(key ? { 'Idempotency-Key': key } : {})
        .send(body as object),
    patch: (id: string, body: unknown) =>
      request(app)
        .patch(`${BASE}/applications/${id}`)
        .set(auth)
        .send(body as object),
    check: (id: string, body: unknown, key: string | undefined, score?: string) =>
      request(app)
        .post(`${BASE}/applications/${id}/credit-check`)
        .set(auth)
        .set(key ? { 'Idempotency-Key': key } : {})
        .set(score !== undefined ? { 'X-Sandbox-Score': score } : {})
        .send(body as object),
    get: (id: string) => request(app).get(`${BASE}/applications/${id}`).set(auth),
    match: (id: string) => request(app).post(`${BASE}/applications/${id}/match`).set(auth),
  };
}

export type Client = ReturnType<typeof client>;

/** Creates an application of the given type and saves steps 2-4; answers its id. */
export async function applicationThroughStep4(c: Client, type: LoanType): Promise<string> {
  const created = await c.create({ formType: type, data: VALID_STEPS[type][1] });
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.data.applicationId as string;
  for (const step of [2, 3, 4] as const) {
    const saved = await c.patch(id, { step, data: VALID_STEPS[type][step] });
    if (saved.status !== 200) throw new Error(`step ${step} failed: ${saved.status} ${JSON.stringify(saved.body)}`);
  }
  return id;
}

export const applicantBody = (overrides: Record<string, unknown> = {}) => ({ data: validApplicant(overrides) });

/** A sandbox bureau that the test can make slow or broken. */
export function controllableBureau() {
  const sandbox = createSandboxBureau();
  const state: { gate?: Promise<void>; fail?: Error; calls: number } = { calls: 0 };
  const bureau: CreditBureau = {
    sandbox: true,
    async requestScore(req: BureauRequest) {
      state.calls++;
      if (state.gate) await state.gate;
      if (state.fail) throw state.fail;
      return sandbox.requestScore(req);
    },
  };
  return { bureau, state };
}

/** What a Variant A suite's hooks make: one database, the app over it, and the clients of two partners. */
export interface VariantA {
  t: TestContext;
  control: ReturnType<typeof controllableBureau>;
  app: ReturnType<typeof createPartnerAApp>;
  c: Client;
  other: Client;
  /** The partner of `c`. */
  partnerId: string;
}

/**
 * Registers the hooks of a Variant A suite on `storage` (`ready` gets what they made, before the first
 * test; the bureau is made well again after each test) and answers its helpers.
 */
export function variantASuite(storage: StorageKind, ready: (made: VariantA) => void) {
  const s = {} as VariantA;
  beforeAll(async () => {
    const control = controllableBureau();
    const t = await createTestContext(storage, { bureau: control.bureau });
    const ping = () => t.db.ping();
    const app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping, rateLimitPerMinute: 10_000 });
    const mine = await newPartnerKey(t.ctx, 'Mine');
    const c = client(app, mine.apiKey);
    const other = client(app, (await newPartnerKey(t.ctx, 'Other')).apiKey);
    ready(Object.assign(s, { t, control, app, c, other, partnerId: mine.partnerId }));
  });
  afterAll(() => s.t.close());
  afterEach(() => {
    s.control.state.gate = undefined;
    s.control.state.fail = undefined;
  });

  const countApplications = () => countRows(s.t.db, 'applications', { partnerId: s.partnerId });
  return { countApplications };
}
