import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { createPersonalDataBox, type DomainContext } from '@loanmatch/domain';
import {
  STORAGES,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  validApplicant,
  storedRow,
  storedRows,
  type TestContext,
} from '../../../../tests/support';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';
const auth = { Authorization: `Bearer ${TOKEN}` };

describe.each(STORAGES)('admin API: personal data on %s', (storage) => {
  let t: TestContext;
  let admin: ReturnType<typeof createAdminApp>;
  let partnerA: ReturnType<typeof createPartnerAApp>;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestContext(storage);
    admin = createAdminApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), adminToken: TOKEN });
    partnerA = createPartnerAApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      rateLimitPerMinute: 10_000,
    });
    apiKey = (await request(admin).post('/admin/v1/partners').set(auth).send({ name: 'Erasure Partner' })).body.data
      .apiKey;
  });
  afterAll(() => t.close());

  const a = () => ({ Authorization: `Bearer ${apiKey}` });

  async function throughStep4(app = partnerA): Promise<string> {
    const created = await request(app)
      .post('/api/partner/v1/applications')
      .set(a())
      .send({ formType: 'personal', data: VALID_STEPS.personal[1] });
    const id: string = created.body.data.applicationId;
    for (const step of [2, 3, 4] as const) {
      expect(
        (
          await request(app)
            .patch(`/api/partner/v1/applications/${id}`)
            .set(a())
            .send({ step, data: VALID_STEPS.personal[step] })
        ).status,
      ).toBe(200);
    }
    return id;
  }

  const creditCheck = (id: string, app = partnerA) =>
    request(app)
      .post(`/api/partner/v1/applications/${id}/credit-check`)
      .set(a())
      .set('Idempotency-Key', `check-${randomUUID()}`)
      .set('X-Sandbox-Score', 'good')
      .send({ data: validApplicant() });

  it('when an application’s personal data is erased, then 200 {applicationId, erasedAt}, again the same, and the application still reads and matches', async () => {
    const id = await throughStep4();
    expect((await creditCheck(id)).status).toBe(200);

    const erased = await request(admin).delete(`/admin/v1/applications/${id}/personal-data`).set(auth);
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ success: true, data: { applicationId: id, erasedAt: expect.any(String) } });
    expect(erased.text).not.toContain('Jordan');
    const again = await request(admin).delete(`/admin/v1/applications/${id.toUpperCase()}/personal-data`).set(auth);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(erased.body.data);

    const got = await request(partnerA).get(`/api/partner/v1/applications/${id}`).set(a());
    expect(got.body.data).toMatchObject({ status: 'credit_checked', lastStep: 5, creditCheckComplete: true });
    expect((await request(partnerA).post(`/api/partner/v1/applications/${id}/match`).set(a())).status).toBe(200);
    const row = await storedRow(t.db, 'applicants', { applicationId: id });
    expect(row).toMatchObject({ detailsSealed: null, keyId: null, erasedAt: new Date(erased.body.data.erasedAt) });
  });

  it('when an application with client tags is erased, then its tags stay, for the reports that group by them', async () => {
    const tags = { campaign: 'spring-2026', placement: 'sidebar' };
    const created = await request(partnerA)
      .post('/api/partner/v1/applications')
      .set(a())
      .send({ formType: 'personal', data: VALID_STEPS.personal[1], clientTags: tags });
    expect(created.status).toBe(201);
    const id: string = created.body.data.applicationId;
    expect((await request(admin).delete(`/admin/v1/applications/${id}/personal-data`).set(auth)).status).toBe(200);
    const row = (await storedRow(t.db, 'applications', { id }))!;
    expect(row.personalDataErasedAt).not.toBeNull();
    expect(row.clientTags).toEqual(tags);
  });

  it('when the credit check comes after the erasure, then 409 PERSONAL_DATA_ERASED in the contract’s envelope', async () => {
    const id = await throughStep4();
    expect((await request(admin).delete(`/admin/v1/applications/${id}/personal-data`).set(auth)).status).toBe(200);
    const refused = await creditCheck(id);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      error: 'PERSONAL_DATA_ERASED',
      message: expect.stringContaining('erased'),
    });
    expect((await request(partnerA).get(`/api/partner/v1/applications/${id}`).set(a())).body.data).toMatchObject({
      status: 'in_progress',
      creditCheckComplete: false,
    });
  });

  it.each([
    ['unknown', randomUUID()],
    ['malformed', 'not-an-id'],
  ])('when the application id is %s, then 404 NOT_FOUND in the envelope', async (_what, id) => {
    const res = await request(admin).delete(`/admin/v1/applications/${id}/personal-data`).set(auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'NOT_FOUND', message: 'Application not found' });
  });

  it('when the admin token is missing or wrong, then 401 and nothing is erased', async () => {
    const id = await throughStep4();
    for (const headers of [
      {},
      { Authorization: 'Bearer wrong-token-0123456789abcdef' },
      { Authorization: `Bearer ${apiKey}` },
    ]) {
      const res = await request(admin).delete(`/admin/v1/applications/${id}/personal-data`).set(headers);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('UNAUTHORIZED');
      expect((await request(admin).get('/admin/v1/data-key').set(headers)).status).toBe(401);
    }
    expect(await storedRow(t.db, 'applicants', { applicationId: id })).toBeNull();
    expect((await creditCheck(id)).status).toBe(200);
  });

  it('when DATA_KEY was rotated, then GET /data-key counts sealed values per key and POST /data-key/re-encrypt moves them to the new one', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const withKeys = (keys: Buffer[]): DomainContext => ({ ...t.ctx, personalData: createPersonalDataBox(keys) });
    // Start from tables whose sealed values are all under the old key: this suite's other applications are erased first.
    const earlier = await storedRows(t.db, 'applications');
    for (const { id } of earlier) await request(admin).delete(`/admin/v1/applications/${id}/personal-data`).set(auth);
    const oldApp = createPartnerAApp({
      ctx: withKeys([oldKey]),
      logger: silentLogger,
      ping: async () => true,
      rateLimitPerMinute: 10_000,
    });
    const ids = [await throughStep4(oldApp), await throughStep4(oldApp)];
    for (const id of ids) expect((await creditCheck(id, oldApp)).status).toBe(200);

    const rotated = createAdminApp({
      ctx: withKeys([newKey, oldKey]),
      logger: silentLogger,
      ping: async () => true,
      adminToken: TOKEN,
    });
    const oldId = createPersonalDataBox([oldKey]).keyId;
    const newId = createPersonalDataBox([newKey]).keyId;
    const before = await request(rotated).get('/admin/v1/data-key').set(auth);
    expect(before.status).toBe(200);
    const { idempotencyKeys, idempotencyKeysRemaining, ...rows } = before.body.data;
    // Three sealed values each: step 5, the employer of step 3, the exact score.
    expect(rows).toEqual({
      currentKeyId: newId,
      keys: [{ keyId: oldId, rows: 6, current: false, configured: true }],
      remaining: 6,
    });
    // The two checks' idempotency keys hold a digest made under the old key (this suite's earlier ones are under its own).
    expect(idempotencyKeys).toContainEqual({ keyId: oldId, live: 2, current: false, configured: true });
    expect(idempotencyKeysRemaining).toBe(
      idempotencyKeys.reduce((sum: number, k: { live: number }) => sum + k.live, 0),
    );

    const moved = await request(rotated).post('/admin/v1/data-key/re-encrypt').set(auth);
    expect(moved.status).toBe(200);
    expect(moved.body.data).toEqual({
      currentKeyId: newId,
      keys: [{ keyId: newId, rows: 6, current: true, configured: true }],
      remaining: 0,
      // Re-encryption moves rows, not the digests of requests: those stay under the old key until they expire.
      idempotencyKeys,
      idempotencyKeysRemaining,
      reencrypted: 6,
      unreadable: 0,
      complete: true,
    });
    // The old key can go: a process with the new key alone reads every row (a Variant B check would open it).
    for (const id of ids) {
      const row = await storedRow(t.db, 'applicants', { applicationId: id });
      expect(createPersonalDataBox([newKey]).open(row!.detailsSealed!, id)).toContain('jordan.citizen@example.com');
    }
  });
});
