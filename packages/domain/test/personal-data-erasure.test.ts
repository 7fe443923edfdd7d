/** Erasure of an application's personal data: what goes and what stays, and credit checks and step saves refused after it, even when they race it. */
import { randomUUID } from 'node:crypto';
import { saveStep as writeStep } from '@loanmatch/db';
import {
  createApplicationB,
  createSandboxBureau,
  erasePersonalData,
  findOwnApplication,
  getApplication,
  matchApplication,
  readApplicantDetails,
  runCreditCheckB,
  saveStep,
  type CreditBureau,
  type DomainContext,
} from '../src';
import { STORAGES, VALID_STEPS, flatApplication, countRows, storedRow } from '../../../tests/support';
import { STEP_4, personalDataSuite, rawApplicant } from './personal-data.fixtures';

describe.each(STORAGES)('personal data at rest on %s', (storage) => {
  let partnerId: string;
  const { t, secretBox, throughStep4, check, checked } = personalDataSuite(storage, (id) => {
    partnerId = id;
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
      const events = await countRows(t.db, 'webhook_events');

      const erased = await erasePersonalData(t.ctx, { applicationId: id });
      if (!erased.ok) throw erased.error;
      expect(erased.value).toEqual({ applicationId: id, erasedAt: expect.any(String) });
      const row = (await rawApplicant(t.db, id))!;
      expect(row).toMatchObject({ details_sealed: null, key_id: null });
      expect(new Date(row.erased_at!).toISOString()).toBe(erased.value.erasedAt);
      expect(await readApplicantDetails(t.ctx, id)).toEqual({
        state: 'erased',
        erasedAt: new Date(erased.value.erasedAt),
      });

      const credit = await storedRow(t.db, 'credit_checks', { applicationId: id });
      expect(credit).toMatchObject({
        status: 'completed',
        scoreSealed: null,
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
        expect(JSON.stringify(await storedRow(t.db, 'applications', { id }))).not.toContain(value);
      expect(await countRows(t.db, 'match_runs', { applicationId: id })).toBe(1);
      expect(await countRows(t.db, 'webhook_events')).toBe(events); // not a status change: no event

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
      expect(
        await t.db.query('SELECT 1 FROM credit_checks WHERE application_id = ANY($1::uuid[])', [[a, bId]]),
      ).toHaveLength(0);
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
      expect(outcome).toMatchObject({ ok: false, error: { code: 'PERSONAL_DATA_ERASED' } });
      expect(await rawApplicant(t.db, id)).toMatchObject({ details_sealed: null, key_id: null });
      expect(await storedRow(t.db, 'credit_checks', { applicationId: id })).toBeNull();
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
      const saving = writeStep(t.db, { id, step: 3, data: VALID_STEPS.personal[3], sealed: null, now: new Date() });
      await expect(saving).resolves.toBeNull();
      const got = await getApplication(t.ctx, { partnerId, applicationId: id });
      expect(got.ok && JSON.stringify(got.value)).not.toContain('Acme');
      // A status move without a step is not personal data: matching still moves an erased application.
      const again = await findOwnApplication(t.ctx, { partnerId, applicationId: id });
      expect(again.ok && again.value.personalDataErased).toBe(true);
    });
  });
});
