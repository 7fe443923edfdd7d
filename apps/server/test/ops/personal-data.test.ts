import { randomBytes, randomUUID } from 'node:crypto';
import {
  CURRENT_CONSENT_TEXTS,
  createPartner,
  createPersonalDataBox,
  runCreditCheck,
  type DomainContext,
} from '@loanmatch/domain';
import {
  ONE_STORAGE,
  createTestContext,
  personalThroughStep4,
  validApplicant,
  storedRow,
  type TestContext,
} from '../../../../tests/support';
import { adminEnv, runOpsCapturing, type AdminApi, serveAdminApi } from './admin-api';

describe('pnpm ops application erase and consents, and data-key', () => {
  let t: TestContext;
  const servers: Array<AdminApi> = [];
  let partnerId: string;
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  /** An admin API over `ctx` on a free loopback port; answers its URL. */
  async function adminUrl(ctx: DomainContext): Promise<string> {
    const api = await serveAdminApi(t, ctx);
    servers.push(api);
    return api.url;
  }

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE, { dataKeys: [oldKey] });
    const created = await createPartner(t.ctx, { body: { name: 'Ops Privacy' } });
    if (!created.ok) throw created.error;
    partnerId = created.value.partnerId;
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await t.close();
  });

  const ops = (url: string, args: string[]) => runOpsCapturing(args, adminEnv(url));

  const uncheckedApplication = (ctx: DomainContext = t.ctx) => personalThroughStep4(ctx, partnerId);

  async function checkedApplication(ctx: DomainContext, applicant: Record<string, unknown> = {}): Promise<string> {
    const applicationId = await uncheckedApplication(ctx);
    const checked = await runCreditCheck(ctx, {
      partnerId,
      applicationId,
      body: { data: validApplicant(applicant) },
      idempotencyKey: randomUUID(),
      sandboxScore: 'good',
    });
    if (!checked.ok) throw checked.error;
    return applicationId;
  }

  it('when an application is erased, then the command prints the time, again the same time; an unknown id fails with NOT_FOUND', async () => {
    const url = await adminUrl(t.ctx);
    const id = await checkedApplication(t.ctx);
    const first = await ops(url, ['application', 'erase', id]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(
      new RegExp(
        `^Erased the personal data of application ${id} \\(erased at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)\\.\\n$`,
      ),
    );
    const json = await ops(url, ['application', 'erase', id, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({ applicationId: id, erasedAt: first.out.match(/erased at (\S+)\)/)![1] });
    expect(await storedRow(t.db, 'applicants', { applicationId: id })).toMatchObject({
      detailsSealed: null,
    });

    const unknown = await ops(url, ['application', 'erase', randomUUID()]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('NOT_FOUND: Application not found');
  });

  it('when an application’s consents are asked, then the command prints the record, and after erasure the facts without the reference', async () => {
    const url = await adminUrl(t.ctx);
    const id = await checkedApplication(t.ctx, { consentTerms: true, consentReference: 'crm-7' });
    const res = await ops(url, ['application', 'consents', id]);
    expect(res.code).toBe(0);
    const record = (
      JSON.parse((await ops(url, ['application', 'consents', id, '--json'])).out) as {
        consents: Array<{ consentRecordId: string; recordedAt: string }>;
      }
    ).consents[0];
    expect(res.out).toBe(
      [
        `Consent record ${record.consentRecordId} of application ${id}, partner ${partnerId}:`,
        '    given:       creditCheck yes, privacy no, marketing no, terms yes',
        `    wording:     version ${CURRENT_CONSENT_TEXTS.version} (not stated by the partner: the version current at the check)`,
        `      creditCheck: ${CURRENT_CONSENT_TEXTS.texts.creditCheck}`,
        `      terms: ${CURRENT_CONSENT_TEXTS.texts.terms}`,
        '    captured at: not stated by the partner',
        `    recorded at: ${record.recordedAt} (the credit check)`,
        '    reference:   crm-7',
        '',
      ].join('\n'),
    );
    await ops(url, ['application', 'erase', id]);
    const erased = await ops(url, ['application', 'consents', id]);
    expect(erased.out).toContain('    reference:   removed by erasure\n');
    expect(erased.out).toMatch(/ {4}erased at: {3}\S+ \(the facts above are kept\)\n$/);

    const unchecked = await uncheckedApplication();
    const none = await ops(url, ['application', 'consents', unchecked]);
    expect(none.out).toBe(`Application ${unchecked} has no consent record: no credit check has run.\n`);
    await ops(url, ['application', 'erase', unchecked]); // its employer would count under the data key below
    const unknown = await ops(url, ['application', 'consents', randomUUID()]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('NOT_FOUND: Application not found');
  });

  it('when the data key was rotated, then status shows the values left, rotate moves them, and status then says the old key can go', async () => {
    const ids = [await checkedApplication(t.ctx), await checkedApplication(t.ctx)];
    const url = await adminUrl({ ...t.ctx, personalData: createPersonalDataBox([newKey, oldKey]) });
    const oldId = createPersonalDataBox([oldKey]).keyId;
    const newId = createPersonalDataBox([newKey]).keyId;

    const before = await ops(url, ['data-key', 'status']);
    expect(before.code).toBe(0);
    const live = (
      JSON.parse((await ops(url, ['data-key', 'status', '--json'])).out) as {
        idempotencyKeys: Array<{ keyId: string; live: number }>;
      }
    ).idempotencyKeys;
    const liveLines = live.map(
      (k) =>
        `    ${k.keyId}  ${k.live} live idempotency key(s)  earlier key, ${k.keyId === oldId ? 'configured' : 'NOT configured: their retries cannot be compared'}`,
    );
    const liveUnderEarlier = live.reduce((sum, k) => sum + k.live, 0);
    expect(live.find((k) => k.keyId === oldId)?.live).toBeGreaterThanOrEqual(2); // the two checks' keys, at least
    expect(before.out).toBe(
      [
        `Current data key: ${newId}.`,
        // Three sealed values each: step 5, the employer of step 3, the exact score.
        `    ${oldId}  6 sealed value(s)  earlier key, configured`,
        ...liveLines,
        '6 sealed value(s) under earlier keys: run pnpm ops data-key rotate before removing any key from DATA_PREVIOUS_KEYS.',
        '',
      ].join('\n'),
    );

    const rotated = await ops(url, ['data-key', 'rotate']);
    expect(rotated.code).toBe(0);
    expect(rotated.out).toBe(
      [
        `Re-encrypted 6 sealed value(s) under data key ${newId}.`,
        `Current data key: ${newId}.`,
        `    ${newId}  6 sealed value(s)  current`,
        ...liveLines,
        `No sealed values under earlier keys, but ${liveUnderEarlier} live idempotency key(s) are: keep the earlier keys in DATA_PREVIOUS_KEYS until they expire (24 hours after their request at most).`,
        '',
      ].join('\n'),
    );
    const newOnly = createPersonalDataBox([newKey]);
    for (const id of ids) {
      const row = await storedRow(t.db, 'applicants', { applicationId: id });
      expect(newOnly.open(row!.detailsSealed!, id)).toContain('Jordan');
    }
    expect(JSON.parse((await ops(url, ['data-key', 'status', '--json'])).out)).toMatchObject({
      currentKeyId: newId,
      remaining: 0,
      idempotencyKeysRemaining: liveUnderEarlier,
    });

    // Once those idempotency keys have expired, nothing is left under an earlier key.
    await t.db.query('UPDATE idempotency_keys SET expires_at = $1', [new Date(Date.now() - 1000)]);
    const after = await ops(url, ['data-key', 'status']);
    expect(after.out).toBe(
      [
        `Current data key: ${newId}.`,
        `    ${newId}  6 sealed value(s)  current`,
        'No sealed values or live idempotency keys under earlier keys: DATA_PREVIOUS_KEYS can be emptied.',
        '',
      ].join('\n'),
    );
  });

  it('when values are under a key the server lacks, then rotate says so and exits 1', async () => {
    const id = await checkedApplication({ ...t.ctx, personalData: createPersonalDataBox([randomBytes(32)]) });
    const url = await adminUrl({ ...t.ctx, personalData: createPersonalDataBox([newKey]) });
    const res = await ops(url, ['data-key', 'rotate']);
    expect(res.code).toBe(1);
    expect(res.out).toContain('earlier key, NOT configured: these values cannot be read');
    expect(res.err).toContain('3 value(s) are still sealed under earlier keys that this server cannot open');
    await ops(url, ['application', 'erase', id]);
  });
});
