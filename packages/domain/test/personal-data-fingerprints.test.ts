/** Idempotency fingerprints of requests that hold personal data: keyed with the data key, and across a key rotation. */
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { canonicalJson, createPersonalDataBox, runCreditCheck, type DomainContext } from '../src';
import { STORAGES, validApplicant, storedRow } from '../../../tests/support';
import { PERSON, personalDataSuite } from './personal-data.fixtures';

describe.each(STORAGES)('personal data at rest on %s', (storage) => {
  let partnerId: string;
  const { t, throughStep4 } = personalDataSuite(storage, (id) => {
    partnerId = id;
  });

  describe('idempotency fingerprints', () => {
    const keyRow = (key: string) => storedRow(t.db, 'idempotency_keys', { partnerId, key });
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
  });
});
