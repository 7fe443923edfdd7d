/** Rotation of the data key: rows under the previous key still open, re-encryption moves them, and rows under a key no longer configured are counted. */
import { randomBytes } from 'node:crypto';
import { replaceApplicantSealed } from '@loanmatch/db';
import {
  PersonalDataUnreadable,
  createPersonalDataBox,
  erasePersonalData,
  getApplication,
  getDataKeyStatus,
  readApplicantDetails,
  reencryptPersonalData,
  type DomainContext,
} from '../src';
import { STORAGES, storedRow } from '../../../tests/support';
import { PERSON, STEP_4, personalDataSuite, rawApplicant } from './personal-data.fixtures';

describe.each(STORAGES)('personal data at rest on %s', (storage) => {
  let partnerId: string;
  const { t, checked } = personalDataSuite(storage, (id) => {
    partnerId = id;
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
        const credit = (await storedRow(t.db, 'credit_checks', { applicationId: id }))!;
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
        await replaceApplicantSealed(t.db, id, stale, { detailsSealed: box.seal('{}', id), keyId: box.keyId }),
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
});
