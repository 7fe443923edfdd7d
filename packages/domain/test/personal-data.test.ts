/**
 * Applicant details at rest (docs/adr/0099): sealed in the row, bound to
 * their application, rotated to a new key and erased, on both storages, read through the raw tables.
 */
import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '@loanmatch/db';
import {
  PersonalDataUnreadable,
  createApplication,
  createApplicationB,
  createPartner,
  createPersonalDataBox,
  createSandboxBureau,
  canonicalJson,
  createSecretBox,
  changeReadApplication,
  erasePersonalData,
  findOwnApplication,
  getApplication,
  getDataKeyStatus,
  matchApplication,
  readApplicantDetails,
  reencryptPersonalData,
  registerWebhook,
  runCreditCheck,
  runCreditCheckB,
  saveStep,
  sealLegacyApplicantDetails,
  type CreditBureau,
  type DomainContext,
} from '../src';
import {
  STORAGES,
  VALID_STEPS,
  createTestContext,
  flatApplication,
  validApplicant,
  type TestContext,
} from '@loanmatch/testing';

/** Values found nowhere else, so that finding one anywhere in the database means a copy in clear. */
const PERSON = {
  firstName: 'Zephyrine',
  lastName: 'Quillfeather',
  email: 'zephyrine.q@example.org',
  mobileNumber: '0499887766',
  dateOfBirth: '1979-03-21',
};
const CLEAR_VALUES = Object.values(PERSON);
/** Step 4 with the applicant's home address: personal data inside steps 1-4, which erasure takes out. */
const STEP_4 = {
  ...VALID_STEPS.personal[4],
  homeAddress: '12 Quill Lane, Hobart TAS 7000',
  homeAddressComponents: {
    streetNumber: '12',
    streetName: 'Quill',
    streetType: 'Lane',
    suburb: 'Hobart',
    state: 'TAS',
    postcode: '7000',
  },
};

/** Every row of every table of the database, as JSON text. */
async function everyRow(db: Database): Promise<string> {
  const tables = await db.prisma.$queryRawUnsafe<Array<{ name: string }>>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const texts: string[] = [];
  for (const { name } of tables) {
    const rows = await db.prisma.$queryRawUnsafe<Array<{ j: string }>>(
      `SELECT row_to_json(t)::text AS j FROM "${name}" t`,
    );
    texts.push(...rows.map((r) => r.j));
  }
  return texts.join('\n');
}

async function rawApplicant(db: Database, applicationId: string) {
  const rows = await db.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
    'SELECT row_to_json(a)::text AS j, details_sealed, key_id, details_legacy::text AS legacy, erased_at FROM applicants a WHERE application_id = $1::uuid',
    applicationId,
  );
  return rows[0] as
    | { j: string; details_sealed: string | null; key_id: string | null; legacy: string | null; erased_at: Date | null }
    | undefined;
}

describe.each(STORAGES)('personal data at rest on %s', (storage) => {
  let t: TestContext;
  let partnerId: string;
  const secretBox = createSecretBox([randomBytes(32)], 'test-replay');

  beforeAll(async () => {
    t = await createTestContext(storage);
    const created = await createPartner(t.ctx, { body: { name: 'Privacy Partner' } });
    if (!created.ok) throw created.error;
    partnerId = created.value.partnerId;
    // A webhook, so that every status change writes an outbox event whose body is scanned too.
    const hook = await registerWebhook(t.ctx, { partnerId, body: { url: 'http://127.0.0.1:9/hooks' } });
    if (!hook.ok) throw hook.error;
  });
  afterAll(() => t.close());

  /** An application with steps 1-4 saved (Variant A), under `ctx`. */
  async function throughStep4(ctx: DomainContext = t.ctx): Promise<string> {
    const created = await createApplication(ctx, {
      partnerId,
      body: { formType: 'personal', data: VALID_STEPS.personal[1] },
      idempotencyKey: `create-${randomUUID()}`,
    });
    if (!created.ok) throw created.error;
    const applicationId = created.value.value.applicationId;
    for (const step of [2, 3, 4] as const) {
      const saved = await saveStep(ctx, {
        partnerId,
        applicationId,
        body: { step, data: step === 4 ? STEP_4 : VALID_STEPS.personal[step] },
      });
      if (!saved.ok) throw saved.error;
    }
    return applicationId;
  }

  const check = (ctx: DomainContext, applicationId: string, person: Record<string, unknown> = PERSON) =>
    runCreditCheck(ctx, {
      partnerId,
      applicationId,
      body: { data: validApplicant(person) },
      idempotencyKey: `check-${randomUUID()}`,
      sandboxScore: '742',
    });

  async function checked(ctx: DomainContext = t.ctx, person: Record<string, unknown> = PERSON): Promise<string> {
    const applicationId = await throughStep4(ctx);
    const result = await check(ctx, applicationId, person);
    if (!result.ok) throw result.error;
    return applicationId;
  }

  it('when step 5 and a Variant B intake are stored, then no table holds a name, the e-mail, the phone or the birth date in clear', async () => {
    const a = await checked();
    const matched = await matchApplication(t.ctx, { partnerId, applicationId: a });
    expect(matched.ok).toBe(true);
    const b = await createApplicationB(t.ctx, {
      partnerId,
      body: flatApplication({
        firstName: PERSON.firstName,
        lastName: PERSON.lastName,
        email: PERSON.email,
        phone: PERSON.mobileNumber,
      }),
      idempotencyKey: `b-${randomUUID()}`,
      secretBox,
    });
    if (!b.ok) throw b.error;

    for (const id of [a, b.value.value.applicationId]) {
      const row = await rawApplicant(t.db, id);
      expect(row?.details_sealed).toMatch(new RegExp(`^v1\\.${t.ctx.personalData.keyId}\\.`));
      expect(row?.key_id).toBe(t.ctx.personalData.keyId);
      expect(row?.legacy).toBeNull();
    }
    const dump = await everyRow(t.db);
    expect(dump).toContain(a); // the scan does read the tables: the application id is there in clear
    expect(dump).toContain('application.status_changed');
    for (const value of CLEAR_VALUES) expect(dump).not.toContain(value);

    // Read back through the one place that opens them.
    expect(await readApplicantDetails(t.ctx, a)).toEqual({ state: 'kept', details: expect.objectContaining(PERSON) });
    expect(await readApplicantDetails(t.ctx, b.value.value.applicationId)).toEqual({
      state: 'kept',
      details: expect.objectContaining({
        firstName: PERSON.firstName,
        email: PERSON.email,
        mobileNumber: PERSON.mobileNumber,
      }),
    });
  });

  it('when a sealed text is altered, or moved to another application’s row, then it is refused, never read', async () => {
    const first = await checked();
    const second = await checked();
    const sealed = (await rawApplicant(t.db, first))!.details_sealed!;
    const parts = sealed.split('.');
    parts[3] = (parts[3].startsWith('A') ? 'B' : 'A') + parts[3].slice(1);
    await t.db.prisma.$executeRawUnsafe(
      'UPDATE applicants SET details_sealed = $1 WHERE application_id = $2::uuid',
      parts.join('.'),
      first,
    );
    await expect(readApplicantDetails(t.ctx, first)).rejects.toThrow(PersonalDataUnreadable);

    // Intact text, wrong row: the application id is the associated data.
    await t.db.prisma.$executeRawUnsafe(
      'UPDATE applicants SET details_sealed = $1 WHERE application_id = $2::uuid',
      sealed,
      second,
    );
    const refusal = await readApplicantDetails(t.ctx, second).catch((err: Error) => err);
    expect(refusal).toBeInstanceOf(PersonalDataUnreadable);
    expect((refusal as Error).message).toContain(second);
    for (const value of CLEAR_VALUES) expect((refusal as Error).message).not.toContain(value);
  });

  describe('idempotency fingerprints', () => {
    const keyRow = (key: string) =>
      t.db.prisma.idempotencyKey.findUniqueOrThrow({ where: { partnerId_key: { partnerId, key } } });
    const checkUnder = (ctx: DomainContext, applicationId: string, key: string) =>
      runCreditCheck(ctx, {
        partnerId,
        applicationId,
        body: { data: validApplicant(PERSON) },
        idempotencyKey: key,
        sandboxScore: '742',
      });

    it('when a credit check is stored under its key, then the fingerprint is keyed: not the plain SHA-256 of the request, which holds step 5', async () => {
      const id = await throughStep4();
      const key = `fp-${randomUUID()}`;
      expect((await checkUnder(t.ctx, id, key)).ok).toBe(true);
      const request = {
        operation: 'credit-check',
        target: id,
        body: { data: validApplicant(PERSON) },
        headers: { 'x-sandbox-score': '742' },
      };
      const { fingerprint } = await keyRow(key);
      expect(fingerprint).toMatch(new RegExp(`^h1\\.${t.ctx.personalData.keyId}\\.[A-Za-z0-9_-]{43}$`));
      expect(fingerprint).not.toBe(hash('sha256', canonicalJson(request), 'hex'));
      // The same request again replays; another body under the key is refused.
      expect(await checkUnder(t.ctx, id, key)).toMatchObject({ ok: true, value: { replayed: true } });
      const other = await runCreditCheck(t.ctx, {
        partnerId,
        applicationId: id,
        body: { data: validApplicant({ ...PERSON, email: 'other@example.com' }) },
        idempotencyKey: key,
        sandboxScore: '742',
      });
      expect(other).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    });

    it('when DATA_KEY rotates, then a key stored under the previous one still replays, and not once that key is gone', async () => {
      const oldKey = randomBytes(32);
      const newKey = randomBytes(32);
      const id = await throughStep4();
      const key = `fp-rotate-${randomUUID()}`;
      expect((await checkUnder({ ...t.ctx, personalData: createPersonalDataBox([oldKey]) }, id, key)).ok).toBe(true);
      expect(
        await checkUnder({ ...t.ctx, personalData: createPersonalDataBox([newKey, oldKey]) }, id, key),
      ).toMatchObject({ ok: true, value: { replayed: true } });
      expect(await checkUnder({ ...t.ctx, personalData: createPersonalDataBox([newKey]) }, id, key)).toMatchObject({
        ok: false,
        error: { code: 'IDEMPOTENCY_KEY_REUSED' },
      });
    });

    it('when a key was stored before fingerprints were keyed (a plain SHA-256), then the same request still replays and another is refused', async () => {
      const body = { formType: 'personal', data: VALID_STEPS.personal[1] };
      const key = `fp-legacy-${randomUUID()}`;
      const answer = { applicationId: randomUUID(), formType: 'personal', status: 'draft', lastStep: 1 };
      await t.db.prisma.idempotencyKey.create({
        data: {
          partnerId,
          key,
          fingerprint: hash('sha256', canonicalJson({ operation: 'create-application', body }), 'hex'),
          state: 'completed',
          responseBody: JSON.stringify(answer),
          ownerId: t.ctx.instance.id,
          expiresAt: new Date(Date.now() + 60_000),
        },
      });
      expect(await createApplication(t.ctx, { partnerId, body, idempotencyKey: key })).toMatchObject({
        ok: true,
        value: { replayed: true, value: answer },
      });
      const other = await createApplication(t.ctx, {
        partnerId,
        body: { formType: 'personal', data: { loanAmount: 7000 } },
        idempotencyKey: key,
      });
      expect(other).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    });
  });

  describe('key rotation', () => {
    it('when DATA_KEY changes, then earlier rows still open, new writes use the new key, re-encryption moves the rest, and the old key can go', async () => {
      const oldKey = randomBytes(32);
      const newKey = randomBytes(32);
      const before: DomainContext = { ...t.ctx, personalData: createPersonalDataBox([oldKey]) };
      const during: DomainContext = { ...t.ctx, personalData: createPersonalDataBox([newKey, oldKey]) };
      const after: DomainContext = { ...t.ctx, personalData: createPersonalDataBox([newKey]) };
      const old = [await checked(before), await checked(before), await checked(before)];

      for (const id of old)
        expect(await readApplicantDetails(during, id)).toMatchObject({
          state: 'kept',
          details: { email: PERSON.email },
        });
      await expect(readApplicantDetails(after, old[0])).rejects.toThrow(PersonalDataUnreadable);
      const fresh = await checked(during);
      expect((await rawApplicant(t.db, fresh))!.key_id).toBe(during.personalData.keyId);

      // Four sealed values each: step 5, the employer (step 3), the home address (step 4), the exact score.
      const status = await getDataKeyStatus(during);
      expect(status.ok && status.value.keys.find((k) => k.keyId === before.personalData.keyId)).toEqual({
        keyId: before.personalData.keyId,
        rows: 12,
        current: false,
        configured: true,
      });

      // Small batches, so the pass takes several, as it would over a large table.
      const moved = await reencryptPersonalData(during, { batchSize: 2 });
      if (!moved.ok) throw moved.error;
      // Rows of the other tests, under the suite's own key, are unreadable here and left as they are.
      expect(moved.value).toMatchObject({ currentKeyId: during.personalData.keyId, reencrypted: 12, complete: true });
      expect(moved.value.keys.find((k) => k.keyId === before.personalData.keyId)).toBeUndefined();
      for (const id of [...old, fresh]) {
        expect((await rawApplicant(t.db, id))!.key_id).toBe(after.personalData.keyId);
        expect(await readApplicantDetails(after, id)).toMatchObject({
          state: 'kept',
          details: { email: PERSON.email, dateOfBirth: PERSON.dateOfBirth },
        });
        // The steps' personal fields and the score moved too: the new key alone opens them.
        const got = await getApplication(after, { partnerId, applicationId: id });
        expect(got.ok && got.value.steps).toMatchObject({ 3: { employerName: 'Acme Pty Ltd' }, 4: STEP_4 });
        const credit = await t.db.prisma.creditCheck.findUniqueOrThrow({ where: { applicationId: id } });
        expect(after.personalData.open(credit.scoreSealed!, `${id}:score`)).toBe('742');
      }
      const again = await reencryptPersonalData(during);
      expect(again.ok && again.value.reencrypted).toBe(0);
    });

    it('when a row changed after the pass read it, then the pass leaves the newer text alone', async () => {
      const oldKey = randomBytes(32);
      const id = await checked({ ...t.ctx, personalData: createPersonalDataBox([oldKey]) });
      const stale = (await rawApplicant(t.db, id))!.details_sealed!;
      await erasePersonalData(t.ctx, { applicationId: id });
      const box = createPersonalDataBox([randomBytes(32), oldKey]);
      expect(
        await t.ctx.repos.applicants.replaceSealed(id, stale, { detailsSealed: box.seal('{}', id), keyId: box.keyId }),
      ).toBe(false);
      expect(await rawApplicant(t.db, id)).toMatchObject({ details_sealed: null, key_id: null });
    });

    it('when rows are sealed under a key that is no longer configured, then the pass counts them and the status says so', async () => {
      const lost = randomBytes(32);
      const id = await checked({ ...t.ctx, personalData: createPersonalDataBox([lost]) });
      const lostId = createPersonalDataBox([lost]).keyId;
      const result = await reencryptPersonalData(t.ctx);
      if (!result.ok) throw result.error;
      expect(result.value.unreadable).toBeGreaterThanOrEqual(1);
      expect(result.value.complete).toBe(true);
      expect(result.value.remaining).toBeGreaterThanOrEqual(1);
      expect(result.value.keys.find((k) => k.keyId === lostId)).toEqual({
        keyId: lostId,
        rows: 4,
        current: false,
        configured: false,
      });
      expect((await rawApplicant(t.db, id))!.key_id).toBe(lostId);
      await erasePersonalData(t.ctx, { applicationId: id }); // leave no unreadable row for the other tests
    });
  });

  it('when a database from before sealing holds details in clear, then reads still work and start-up seals them', async () => {
    const id = await throughStep4();
    await t.db.prisma.$executeRawUnsafe(
      'INSERT INTO applicants (application_id, details_legacy) VALUES ($1::uuid, $2::jsonb)',
      id,
      JSON.stringify(validApplicant(PERSON)),
    );
    expect(await readApplicantDetails(t.ctx, id)).toEqual({ state: 'kept', details: validApplicant(PERSON) });

    expect(await sealLegacyApplicantDetails(t.ctx)).toBe(1);
    const row = (await rawApplicant(t.db, id))!;
    expect(row).toMatchObject({ legacy: null, key_id: t.ctx.personalData.keyId });
    for (const value of CLEAR_VALUES) expect(row.j).not.toContain(value);
    expect(await readApplicantDetails(t.ctx, id)).toEqual({ state: 'kept', details: validApplicant(PERSON) });
    expect(await sealLegacyApplicantDetails(t.ctx)).toBe(0);
  });

  describe('erasure', () => {
    it('when an application’s personal data is erased, then step 5, the address, the employer and the exact score are gone, the rest stays, and a second erasure answers the same time', async () => {
      const id = await checked();
      const matched = await matchApplication(t.ctx, { partnerId, applicationId: id });
      expect(matched.ok).toBe(true);
      const before = await getApplication(t.ctx, { partnerId, applicationId: id });
      if (!before.ok) throw before.error;
      expect(before.value.steps).toMatchObject({
        3: { employerName: 'Acme Pty Ltd' },
        4: { homeAddress: STEP_4.homeAddress },
      });
      const events = await t.db.prisma.webhookEvent.count();

      const erased = await erasePersonalData(t.ctx, { applicationId: id });
      if (!erased.ok) throw erased.error;
      expect(erased.value).toEqual({ applicationId: id, erasedAt: expect.any(String) });
      const row = (await rawApplicant(t.db, id))!;
      expect(row).toMatchObject({ details_sealed: null, key_id: null, legacy: null });
      expect(new Date(row.erased_at!).toISOString()).toBe(erased.value.erasedAt);
      expect(await readApplicantDetails(t.ctx, id)).toEqual({
        state: 'erased',
        erasedAt: new Date(erased.value.erasedAt),
      });

      const credit = await t.db.prisma.creditCheck.findUnique({ where: { applicationId: id } });
      expect(credit).toMatchObject({
        status: 'completed',
        scoreSealed: null,
        scoreLegacy: null,
        band: 'very_good',
        degradedMode: false,
      });
      const got = await getApplication(t.ctx, { partnerId, applicationId: id });
      if (!got.ok) throw got.error;
      const { employerName: _employer, ...step3 } = before.value.steps[3];
      const { homeAddress: _address, homeAddressComponents: _components, ...step4 } = before.value.steps[4];
      expect(step4).toMatchObject({ livingSituation: 'renting', monthlyRent: 1800 });
      expect(got.value).toEqual({ ...before.value, steps: { ...before.value.steps, 3: step3, 4: step4 } });
      for (const value of ['Acme', 'Quill', 'Hobart', '7000'])
        expect(JSON.stringify(await t.db.prisma.application.findUnique({ where: { id } }))).not.toContain(value);
      expect(await t.db.prisma.matchRun.count({ where: { applicationId: id } })).toBe(1);
      expect(await t.db.prisma.webhookEvent.count()).toBe(events); // not a status change: no event

      // Matching reads steps 1-4 and the stored band only: it still answers.
      const rematched = await matchApplication(t.ctx, { partnerId, applicationId: id });
      expect(rematched.ok && rematched.value.acceptedOffers.length).toBeGreaterThan(0);

      const again = await erasePersonalData(t.ctx, { applicationId: id });
      expect(again).toEqual(erased);
    });

    it('when the id is unknown or malformed, then NOT_FOUND and nothing is written', async () => {
      for (const applicationId of [randomUUID(), 'not-a-uuid', '']) {
        const result = await erasePersonalData(t.ctx, { applicationId });
        expect(!result.ok && result.error.code).toBe('NOT_FOUND');
      }
    });

    it('when erased before the credit check, then the check is refused with PERSONAL_DATA_ERASED and the bureau never sees the applicant', async () => {
      const calls: string[] = [];
      const sandbox = createSandboxBureau();
      const counting: DomainContext = {
        ...t.ctx,
        bureau: {
          sandbox: true,
          requestScore: (req) => {
            calls.push(req.applicationId);
            return sandbox.requestScore(req);
          },
        },
      };
      const a = await throughStep4(counting);
      await erasePersonalData(counting, { applicationId: a });
      const refused = await check(counting, a);
      expect(!refused.ok && refused.error.code).toBe('PERSONAL_DATA_ERASED');

      // Variant B: the intake is gone, so the check cannot take the names from it.
      const b = await createApplicationB(counting, {
        partnerId,
        body: flatApplication(),
        idempotencyKey: undefined,
        secretBox,
      });
      if (!b.ok) throw b.error;
      const bId = b.value.value.applicationId;
      for (const step of [2, 3, 4] as const)
        await saveStep(counting, { partnerId, applicationId: bId, body: { step, data: VALID_STEPS.personal[step] } });
      await erasePersonalData(counting, { applicationId: bId });
      const refusedB = await runCreditCheckB(counting, {
        partnerId,
        applicationId: bId,
        body: { securityToken: b.value.value.securityToken, dateOfBirth: '1988-07-14' },
        idempotencyKey: undefined,
        sandboxScore: 'good',
      });
      expect(!refusedB.ok && refusedB.error.code).toBe('PERSONAL_DATA_ERASED');
      expect(calls).toEqual([]);
      expect(await rawApplicant(t.db, a)).toMatchObject({ details_sealed: null });
      expect(await t.db.prisma.creditCheck.count({ where: { applicationId: { in: [a, bId] } } })).toBe(0);
    });

    it('when the erasure lands while the bureau answers, then the check keeps nothing and is refused', async () => {
      let release!: () => void;
      const answered = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const bureauAsked = new Promise<void>((resolve) => (asked = resolve));
      const sandbox = createSandboxBureau();
      const slow: CreditBureau = {
        sandbox: true,
        async requestScore(req) {
          asked();
          await answered;
          return sandbox.requestScore(req);
        },
      };
      const ctx: DomainContext = { ...t.ctx, bureau: slow };
      const id = await throughStep4(ctx);
      const running = check(ctx, id).catch((err: Error) => err);
      await bureauAsked;
      const erased = await erasePersonalData(ctx, { applicationId: id });
      expect(erased.ok).toBe(true);
      release();
      const outcome = await running;
      expect(outcome).toMatchObject({ code: 'PERSONAL_DATA_ERASED' });
      expect(await rawApplicant(t.db, id)).toMatchObject({ details_sealed: null, key_id: null });
      expect(await t.db.prisma.creditCheck.findUnique({ where: { applicationId: id } })).toBeNull();
      const got = await getApplication(t.ctx, { partnerId, applicationId: id });
      expect(got.ok && got.value).toMatchObject({ status: 'in_progress', lastStep: 4, creditCheckComplete: false });
    });

    it('when a step is saved after the erasure, then 409 PERSONAL_DATA_ERASED, whatever the body, and the employer is not stored again', async () => {
      const id = await throughStep4();
      expect((await erasePersonalData(t.ctx, { applicationId: id })).ok).toBe(true);
      for (const body of [
        { step: 3, data: VALID_STEPS.personal[3] },
        { step: 3, data: { employerName: 42 } },
        'not an object',
      ]) {
        const saved = await saveStep(t.ctx, { partnerId, applicationId: id, body });
        expect(saved).toMatchObject({ ok: false, error: { code: 'PERSONAL_DATA_ERASED' } });
      }
      const got = await getApplication(t.ctx, { partnerId, applicationId: id });
      expect(got.ok && got.value.steps['3']).toMatchObject({ employmentType: 'full_time', grossMonthlyIncome: 8000 });
      expect(got.ok && got.value.steps['3']).not.toHaveProperty('employerName');
      expect(got.ok && JSON.stringify(got.value)).not.toContain('Acme');
      // Another partner's or an unknown id still answers NOT_FOUND first.
      expect(
        await saveStep(t.ctx, {
          partnerId: randomUUID(),
          applicationId: id,
          body: { step: 3, data: VALID_STEPS.personal[3] },
        }),
      ).toMatchObject({ error: { code: 'NOT_FOUND' } });
    });

    it('when the erasure commits after a save read the application, then the save statement itself refuses and writes nothing', async () => {
      const id = await throughStep4();
      const read = await findOwnApplication(t.ctx, { partnerId, applicationId: id });
      if (!read.ok) throw read.error;
      expect(read.value.personalDataErased).toBe(false);
      expect((await erasePersonalData(t.ctx, { applicationId: id })).ok).toBe(true);
      const saving = changeReadApplication(t.ctx, read.value, {
        to: 'in_progress',
        lastStep: 3,
        step: { number: 3, data: VALID_STEPS.personal[3] },
      });
      await expect(saving).rejects.toMatchObject({ code: 'PERSONAL_DATA_ERASED' });
      const got = await getApplication(t.ctx, { partnerId, applicationId: id });
      expect(got.ok && JSON.stringify(got.value)).not.toContain('Acme');
      // A status move without a step is not personal data: matching still moves an erased application.
      const again = await findOwnApplication(t.ctx, { partnerId, applicationId: id });
      expect(again.ok && again.value.personalDataErased).toBe(true);
    });
  });
});
