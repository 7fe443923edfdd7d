/**
 * Consent records (docs/adr/0162): the wording as versioned data, one record per completed credit check
 * with what was given, under which wording, when and through whom; none for a refused or replayed check;
 * the facts kept through erasure. On both storages.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { CONSENT_TEXTS, parseConsentTexts } from '../src/consent-texts';
import {
  CURRENT_CONSENT_TEXTS,
  createApplicationB,
  createPartner,
  createSandboxBureau,
  createSecretBox,
  erasePersonalData,
  getApplicationConsents,
  listConsentTexts,
  runCreditCheck,
  runCreditCheckB,
  type CreditBureau,
  type DomainContext,
} from '../src';
import {
  STORAGES,
  createTestContext,
  flatApplication,
  personalThroughStep4,
  validApplicant,
  countRows,
  type TestContext,
} from '../../../tests/support';

/**
 * Every published version and the digest of its texts. A published wording never changes (lenders rely
 * on records naming it): new wording is a new version, added here.
 */
const PUBLISHED: Record<string, string> = {
  'au-2026-11-23': '1c78ae9c06582b821341f4487c341999dd5bbc68712052ee55d85671010156e8',
};

describe('the consent wording', () => {
  it('when the versions are read, then each published one still has the wording it was published with, and the last is current', () => {
    const digests = Object.fromEntries(
      CONSENT_TEXTS.map((v) => [v.version, createHash('sha256').update(JSON.stringify(v.texts)).digest('hex')]),
    );
    expect(digests).toEqual(PUBLISHED);
    expect(CURRENT_CONSENT_TEXTS).toBe(CONSENT_TEXTS.at(-1));
  });

  it('when the wording is listed, then the newest version comes first, marked current, with each consent, its fields and its text', () => {
    const listed = listConsentTexts();
    if (!listed.ok) throw listed.error;
    expect(listed.value.currentVersion).toBe(CURRENT_CONSENT_TEXTS.version);
    expect(listed.value.versions[0]).toEqual({
      version: CURRENT_CONSENT_TEXTS.version,
      effectiveFrom: CURRENT_CONSENT_TEXTS.effectiveFrom,
      current: true,
      consents: [
        {
          consent: 'creditCheck',
          fields: ['consentCreditCheck', 'creditCheckConsent'],
          text: CURRENT_CONSENT_TEXTS.texts.creditCheck,
        },
        { consent: 'privacy', fields: ['privacyConsent'], text: CURRENT_CONSENT_TEXTS.texts.privacy },
        {
          consent: 'marketing',
          fields: ['consentMarketing', 'marketingConsent'],
          text: CURRENT_CONSENT_TEXTS.texts.marketing,
        },
        { consent: 'terms', fields: ['consentTerms', 'termsConsent'], text: CURRENT_CONSENT_TEXTS.texts.terms },
      ],
    });
    expect(listed.value.versions.filter((v) => v.current)).toHaveLength(1);
  });

  const texts = { creditCheck: 'a', privacy: 'b', marketing: 'c', terms: 'd' };
  const version = (over: Record<string, unknown> = {}) => ({
    version: 'v2',
    effectiveFrom: '2027-01-01T00:00:00.000Z',
    texts,
    ...over,
  });
  it.each([
    ['no versions', { versions: [] }, 'versions must be a non-empty list'],
    [
      'a version twice',
      { versions: [version({ version: 'v1' }), version({ version: 'v1', effectiveFrom: '2028-01-01T00:00:00.000Z' })] },
      'listed twice',
    ],
    ['a version with a space', { versions: [version({ version: 'v 1' })] }, '.version must be'],
    [
      'a time with an offset',
      { versions: [version({ effectiveFrom: '2027-01-01T10:00:00+10:00' })] },
      'effectiveFrom must be',
    ],
    [
      'versions out of order',
      { versions: [version(), version({ version: 'v3', effectiveFrom: '2026-01-01T00:00:00.000Z' })] },
      'later than',
    ],
    ['a text missing', { versions: [version({ texts: { ...texts, terms: ' ' } })] }, 'texts.terms must be'],
    ['a text of another consent', { versions: [version({ texts: { ...texts, sms: 'e' } })] }, 'must hold exactly'],
    ['an unknown field', { versions: [version({ draft: true })] }, 'unknown fields: draft'],
  ])('when the file has %s, then loading stops with the rule it breaks', (_what, document, message) => {
    expect(() => parseConsentTexts(document)).toThrow(message);
  });
});

describe.each(STORAGES)('consent records on %s', (storage) => {
  let t: TestContext;
  let partnerId: string;
  const secretBox = createSecretBox([randomBytes(32)], 'test-replay');
  const CURRENT = CURRENT_CONSENT_TEXTS.version;

  beforeAll(async () => {
    t = await createTestContext(storage);
    const created = await createPartner(t.ctx, { body: { name: 'Consent Partner' } });
    if (!created.ok) throw created.error;
    partnerId = created.value.partnerId;
  });
  afterAll(() => t.close());

  const throughStep4 = (ctx: DomainContext = t.ctx) => personalThroughStep4(ctx, partnerId);

  const check = (
    applicationId: string,
    applicant: Record<string, unknown>,
    key = `check-${randomUUID()}`,
    ctx = t.ctx,
  ) =>
    runCreditCheck(ctx, {
      partnerId,
      applicationId,
      body: { data: validApplicant(applicant) },
      idempotencyKey: key,
      sandboxScore: 'good',
    });

  const records = async (applicationId: string) => {
    const found = await getApplicationConsents(t.ctx, { applicationId });
    if (!found.ok) throw found.error;
    return found.value.consents;
  };
  const storedRecords = (applicationId: string) => countRows(t.db, 'consent_records', { applicationId });

  it('when a check names the wording, the time and its reference, then one record keeps them with the consents given and the partner', async () => {
    const id = await throughStep4();
    const before = Date.now();
    const checked = await check(id, {
      privacyConsent: true,
      consentMarketing: true,
      termsConsent: true,
      consentTextVersion: CURRENT,
      consentCapturedAt: '2026-11-23T09:12:00.250+11:00',
      consentReference: 'crm:consent/7f3a-9c',
    });
    expect(checked.ok).toBe(true);
    const [record, ...more] = await records(id);
    expect(more).toEqual([]);
    expect(record).toEqual({
      consentRecordId: expect.any(String),
      applicationId: id,
      partnerId,
      consents: { creditCheck: true, privacy: true, marketing: true, terms: true },
      textVersion: CURRENT,
      textVersionStated: true,
      capturedAt: '2026-11-22T22:12:00.250Z',
      recordedAt: expect.any(String),
      partnerReference: 'crm:consent/7f3a-9c',
      erasedAt: null,
      wording: CURRENT_CONSENT_TEXTS.texts,
    });
    expect(Date.parse(record.recordedAt)).toBeGreaterThanOrEqual(before - 5);
  });

  it('when a check names none of them, then the record keeps the consents given, the current wording marked as not stated, and no time or reference', async () => {
    const id = await throughStep4();
    expect((await check(id, { consentCreditCheck: undefined, privacyConsent: true })).ok).toBe(true);
    expect(await records(id)).toEqual([
      expect.objectContaining({
        consents: { creditCheck: false, privacy: true, marketing: false, terms: false },
        textVersion: CURRENT,
        textVersionStated: false,
        capturedAt: null,
        partnerReference: null,
        wording: { privacy: CURRENT_CONSENT_TEXTS.texts.privacy },
      }),
    ]);
  });

  it.each([
    [
      'an unknown wording version',
      { consentTextVersion: 'au-2020-01-01' },
      `consentTextVersion: must be one of ${CURRENT}`,
    ],
    ['a version in another case', { consentTextVersion: CURRENT.toUpperCase() }, 'consentTextVersion: must be one of'],
    [
      'a capture time in the future',
      { consentCapturedAt: new Date(Date.now() + 3_600_000).toISOString() },
      'consentCapturedAt: must not be in the future',
    ],
    [
      'a capture time without its offset',
      { consentCapturedAt: '2026-11-23T09:12:00' },
      'consentCapturedAt: must be a date and time with its offset',
    ],
    [
      'a capture time that is no date',
      { consentCapturedAt: '2026-02-30T09:12:00Z' },
      'consentCapturedAt: must be a date and time with its offset',
    ],
    [
      'a reference with a space',
      { consentReference: 'jordan citizen' },
      "consentReference: must be letters, digits, '.', '_', ':', '/' or '-' only",
    ],
    [
      'an over-long reference',
      { consentReference: 'r'.repeat(101) },
      'consentReference: must be at most 100 characters',
    ],
  ])(
    'when a check carries %s, then 400 VALIDATION_ERROR, the bureau is not asked and nothing is stored',
    async (_what, fields, message) => {
      const asked: string[] = [];
      const sandbox = createSandboxBureau();
      const bureau: CreditBureau = {
        sandbox: true,
        requestScore: (req) => {
          asked.push(req.applicationId);
          return sandbox.requestScore(req);
        },
      };
      const ctx: DomainContext = { ...t.ctx, bureau };
      const id = await throughStep4(ctx);
      const key = `refused-${randomUUID()}`;
      const refused = await check(id, fields, key, ctx);
      expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
      expect(!refused.ok && refused.error.message.startsWith(message)).toBe(true);
      expect(asked).toEqual([]);
      expect(await storedRecords(id)).toBe(0);
      expect(await countRows(t.db, 'credit_checks', { applicationId: id })).toBe(0);
      expect(await countRows(t.db, 'applicants', { applicationId: id })).toBe(0);
      // The 400 released the key: the corrected request goes through under it.
      expect((await check(id, {}, key, ctx)).ok).toBe(true);
      expect(await storedRecords(id)).toBe(1);
    },
  );

  it('when a check is replayed, or a second one is asked under a new key, then there is still one record', async () => {
    const id = await throughStep4();
    const key = `once-${randomUUID()}`;
    const applicant = { consentReference: 'ref-1' };
    expect((await check(id, applicant, key)).ok).toBe(true);
    expect(await check(id, applicant, key)).toMatchObject({ ok: true, value: { replayed: true } });
    expect(await check(id, { consentReference: 'ref-2' })).toMatchObject({
      ok: false,
      error: { code: 'CREDIT_CHECK_ALREADY_COMPLETED' },
    });
    expect(await records(id)).toEqual([expect.objectContaining({ partnerReference: 'ref-1' })]);
  });

  it('when Variant B gives the consent fields at create and checks later, then the record holds them; an unknown version at create makes nothing', async () => {
    const b = await createApplicationB(t.ctx, {
      partnerId,
      body: flatApplication({
        consentTerms: true,
        consentTextVersion: CURRENT,
        consentCapturedAt: '2026-11-23T00:00:00Z',
        consentReference: 'b-ref',
      }),
      idempotencyKey: undefined,
      secretBox,
    });
    if (!b.ok) throw b.error;
    const { applicationId, securityToken } = b.value.value;
    const checked = await runCreditCheckB(t.ctx, {
      partnerId,
      applicationId,
      body: { securityToken, consentMarketing: true },
      idempotencyKey: undefined,
      sandboxScore: 'good',
    });
    expect(checked.ok).toBe(true);
    expect(await records(applicationId)).toEqual([
      expect.objectContaining({
        consents: { creditCheck: true, privacy: false, marketing: true, terms: true },
        textVersion: CURRENT,
        textVersionStated: true,
        capturedAt: '2026-11-23T00:00:00.000Z',
        partnerReference: 'b-ref',
      }),
    ]);

    const applications = await countRows(t.db, 'applications');
    const refused = await createApplicationB(t.ctx, {
      partnerId,
      body: flatApplication({ consentTextVersion: 'v0' }),
      idempotencyKey: undefined,
      secretBox,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^consentTextVersion: /) },
    });
    expect(await countRows(t.db, 'applications')).toBe(applications);
  });

  it('when the personal data is erased, then the record keeps its facts and loses the partner’s reference', async () => {
    const id = await throughStep4();
    expect(
      (
        await check(id, {
          consentTerms: true,
          consentTextVersion: CURRENT,
          consentCapturedAt: '2026-11-23T01:00:00Z',
          consentReference: 'crm-1',
        })
      ).ok,
    ).toBe(true);
    const [before] = await records(id);
    const erased = await erasePersonalData(t.ctx, { applicationId: id });
    if (!erased.ok) throw erased.error;
    expect(await records(id)).toEqual([{ ...before, partnerReference: null, erasedAt: erased.value.erasedAt }]);
    await erasePersonalData(t.ctx, { applicationId: id });
    expect((await records(id))[0].erasedAt).toBe(erased.value.erasedAt);
  });

  it('when the erasure lands while the bureau answers, then the refused check keeps no record', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const bureauAsked = new Promise<void>((resolve) => (asked = resolve));
    const sandbox = createSandboxBureau();
    const ctx: DomainContext = {
      ...t.ctx,
      bureau: {
        sandbox: true,
        async requestScore(req) {
          asked();
          await answered;
          return sandbox.requestScore(req);
        },
      },
    };
    const id = await throughStep4(ctx);
    const running = check(id, {}, undefined, ctx).catch((err: Error) => err);
    await bureauAsked;
    expect((await erasePersonalData(ctx, { applicationId: id })).ok).toBe(true);
    release();
    expect(await running).toMatchObject({ ok: false, error: { code: 'PERSONAL_DATA_ERASED' } });
    expect(await storedRecords(id)).toBe(0);
  });

  it('when an operator asks for an application with no check, an unknown or a malformed one, then no records, or NOT_FOUND', async () => {
    expect(await records(await throughStep4())).toEqual([]);
    for (const applicationId of [randomUUID(), 'not-an-id'])
      expect(await getApplicationConsents(t.ctx, { applicationId })).toMatchObject({
        ok: false,
        error: { code: 'NOT_FOUND' },
      });
  });
});
