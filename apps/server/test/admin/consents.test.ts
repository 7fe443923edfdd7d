import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CURRENT_CONSENT_TEXTS } from '@loanmatch/domain';
import { createPartnerAApp } from '@loanmatch/partner-a';
import {
  ONE_STORAGE,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  validApplicant,
  type TestContext,
} from '../../../../tests/support';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';
const auth = { Authorization: `Bearer ${TOKEN}` };

describe('admin API: consent records', () => {
  let t: TestContext;
  let admin: ReturnType<typeof createAdminApp>;
  let partnerA: ReturnType<typeof createPartnerAApp>;
  let apiKey: string;
  let partnerId: string;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    admin = createAdminApp({ ctx: t.ctx, logger: silentLogger, ping: () => t.db.ping(), adminToken: TOKEN });
    partnerA = createPartnerAApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      rateLimitPerMinute: 10_000,
    });
    const created = (await request(admin).post('/admin/v1/partners').set(auth).send({ name: 'Consent Partner' })).body
      .data;
    apiKey = created.apiKey;
    partnerId = created.partnerId;
  });
  afterAll(() => t.close());

  async function throughStep4(): Promise<string> {
    const a = { Authorization: `Bearer ${apiKey}` };
    const id: string = (
      await request(partnerA)
        .post('/api/partner/v1/applications')
        .set(a)
        .send({ formType: 'personal', data: VALID_STEPS.personal[1] })
    ).body.data.applicationId;
    for (const step of [2, 3, 4] as const)
      await request(partnerA)
        .patch(`/api/partner/v1/applications/${id}`)
        .set(a)
        .send({ step, data: VALID_STEPS.personal[step] });
    return id;
  }

  const check = (id: string, data: Record<string, unknown>) =>
    request(partnerA)
      .post(`/api/partner/v1/applications/${id}/credit-check`)
      .set('Authorization', `Bearer ${apiKey}`)
      .set('Idempotency-Key', `check-${randomUUID()}`)
      .send({ data: validApplicant(data) });

  it('when an application’s check ran, then GET /applications/{id}/consents answers its record, with the wording of each consent given', async () => {
    const id = await throughStep4();
    expect(
      (
        await check(id, {
          consentTerms: true,
          consentTextVersion: CURRENT_CONSENT_TEXTS.version,
          consentCapturedAt: '2026-11-23T09:12:00+11:00',
          consentReference: 'crm-42',
        })
      ).status,
    ).toBe(200);
    const res = await request(admin).get(`/admin/v1/applications/${id}/consents`).set(auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        applicationId: id,
        consents: [
          {
            consentRecordId: expect.any(String),
            applicationId: id,
            partnerId,
            consents: { creditCheck: true, privacy: false, marketing: false, terms: true },
            textVersion: CURRENT_CONSENT_TEXTS.version,
            textVersionStated: true,
            capturedAt: '2026-11-22T22:12:00.000Z',
            recordedAt: expect.any(String),
            partnerReference: 'crm-42',
            erasedAt: null,
            wording: { creditCheck: CURRENT_CONSENT_TEXTS.texts.creditCheck, terms: CURRENT_CONSENT_TEXTS.texts.terms },
          },
        ],
      },
    });
    // No applicant detail, no score in the operators' answer either.
    expect(res.text).not.toContain('Jordan');
    expect(res.text).not.toContain('jordan.citizen@example.com');
  });

  it('when the check is refused for an unknown wording version, then 400 names the field and the application has no record', async () => {
    const id = await throughStep4();
    const refused = await check(id, { consentTextVersion: 'au-1999-01-01' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      success: false,
      error: 'VALIDATION_ERROR',
      message: `consentTextVersion: must be one of ${CURRENT_CONSENT_TEXTS.version}`,
    });
    const res = await request(admin).get(`/admin/v1/applications/${id}/consents`).set(auth);
    expect(res.body).toEqual({ success: true, data: { applicationId: id, consents: [] } });
  });

  it.each([
    ['unknown', randomUUID()],
    ['malformed', 'not-an-id'],
  ])('when the application id is %s, then 404 NOT_FOUND in the envelope', async (_what, id) => {
    const res = await request(admin).get(`/admin/v1/applications/${id}/consents`).set(auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'NOT_FOUND', message: 'Application not found' });
  });

  it('when the admin token is missing or a partner key is sent, then 401', async () => {
    const id = await throughStep4();
    for (const headers of [{}, { Authorization: `Bearer ${apiKey}` }]) {
      const res = await request(admin).get(`/admin/v1/applications/${id}/consents`).set(headers);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('UNAUTHORIZED');
    }
  });
});
