/**
 * Applicants' personal information at rest: step 5 and Variant B's intake are stored sealed
 * (AES-256-GCM, `sealing.ts`) under the data key, with the application id as associated data, so the
 * database alone never holds them in clear and a sealed text copied to another row does not open there.
 * Each text names its key; keys rotate like the other secrets (new writes under the newest key, earlier
 * keys still open), and `reencryptPersonalData` moves old rows to the newest key so earlier keys can go.
 *
 * The personal fields of steps 2-4 and the exact score are sealed under the same key (`sealed-fields.ts`):
 * the key status, rotation and erasure here cover them too.
 *
 * Erasure removes the details (and the addresses and employer of steps 1-4, and the exact score) and
 * keeps the application's non-personal record (the other step fields, status, the check's outcome, match
 * runs, referrals, the consent record's facts) for reporting. An erased application takes no personal
 * data again: a credit check or a step save answers PERSONAL_DATA_ERASED.
 * Matching reads steps 1-4 and the stored band only, so it still answers.
 */
import {
  countByKey,
  countLiveByDataKey,
  countSealedByKey,
  eraseApplicant,
  findApplicant,
  listApplicantsNotUnder,
  replaceApplicantSealed,
  type Json,
  type SealedDetails,
  type Sql,
} from '@loanmatch/db';
import type { DomainContext } from './context';
import { fail, ok, type Result } from './errors';
import { canonicalUuid } from './ids';
import { PERSONAL_STEP_FIELDS, PersonalDataUnreadable, reencryptSealedFields } from './sealed-fields';
import { createSecretBox, type SecretBox } from './sealing';

/** The purpose the data key is derived for (HKDF), so the key serves no other use. */
export const PERSONAL_DATA_PURPOSE = 'applicant-details';

/** The box that seals applicant details: the current data key first, then earlier ones still accepted. */
export function createPersonalDataBox(keys: readonly Uint8Array[]): SecretBox {
  return createSecretBox(keys, PERSONAL_DATA_PURPOSE);
}

/** One encryption per write: the details sealed under the current key, bound to their application. */
export function sealApplicantDetails(ctx: DomainContext, applicationId: string, details: Json): SealedDetails {
  return {
    detailsSealed: ctx.personalData.seal(JSON.stringify(details), applicationId),
    keyId: ctx.personalData.keyId,
  };
}

export type ApplicantDetails =
  | { state: 'none' }
  | { state: 'erased'; erasedAt: Date }
  | { state: 'kept'; details: Json };

/**
 * The details kept for an application, opened: the only place they are decrypted. `lock`: the row is
 * locked in `db`'s transaction (outside one, read once every write in flight has committed).
 */
export async function readApplicantDetails(
  ctx: DomainContext,
  applicationId: string,
  options: { db?: Sql; lock?: boolean } = {},
): Promise<ApplicantDetails> {
  const row = await findApplicant(options.db ?? ctx.db, applicationId, options.lock);
  if (!row) return { state: 'none' };
  if (row.erasedAt) return { state: 'erased', erasedAt: row.erasedAt };
  if (row.detailsSealed === null) return { state: 'none' };
  const plain = ctx.personalData.open(row.detailsSealed, applicationId);
  if (plain === undefined) throw new PersonalDataUnreadable(applicationId, ctx.personalData.keyIdOf(row.detailsSealed));
  return { state: 'kept', details: JSON.parse(plain) as Json };
}

/**
 * `DELETE /admin/v1/applications/{id}/personal-data`: removes the applicant's details (step 5, or Variant
 * B's intake), the personal fields of steps 1-4, the exact bureau score and the partner's reference of
 * the consent record; keeps everything else. Idempotent: a second call answers the first call's
 * `erasedAt`. An unknown or malformed id is NOT_FOUND. Not a status change: no webhook event.
 */
export async function erasePersonalData(
  ctx: DomainContext,
  options: { applicationId: string },
): Promise<Result<{ applicationId: string; erasedAt: string }>> {
  const applicationId = canonicalUuid(options.applicationId);
  if (!applicationId) return fail('NOT_FOUND', 'Application not found');
  const erasedAt = await eraseApplicant(ctx.db, applicationId, ctx.clock(), PERSONAL_STEP_FIELDS);
  return erasedAt
    ? ok({ applicationId, erasedAt: erasedAt.toISOString() })
    : fail('NOT_FOUND', 'Application not found');
}

export interface DataKeyStatus {
  /** The key new writes use (DATA_KEY's id). */
  currentKeyId: string;
  /**
   * Sealed values by the key that sealed them (applicant details, the personal fields of each step, exact
   * scores: one each); `configured` false means no key of this process opens them.
   */
  keys: Array<{ keyId: string; rows: number; current: boolean; configured: boolean }>;
  /** Sealed values under another key than the current one: `rotate` moves them. */
  remaining: number;
  /**
   * Live idempotency keys by the data key their request's digest was made under: a retry is compared
   * under that key, so it must stay configured until they expire (24 hours at most).
   */
  idempotencyKeys: Array<{ keyId: string; live: number; current: boolean; configured: boolean }>;
  /** Live idempotency keys under another data key than the current one. When this and `remaining` are 0, every earlier key may be removed. */
  idempotencyKeysRemaining: number;
}

/** `GET /admin/v1/data-key`: which keys seal how many values. */
export async function getDataKeyStatus(ctx: DomainContext): Promise<Result<DataKeyStatus>> {
  const box = ctx.personalData;
  const [applicants, fields, live] = await Promise.all([
    countByKey(ctx.db),
    countSealedByKey(ctx.db),
    countLiveByDataKey(ctx.db, ctx.clock()),
  ]);
  const byKey = new Map<string, number>();
  for (const c of [...applicants, ...fields]) byKey.set(c.keyId, (byKey.get(c.keyId) ?? 0) + c.rows);
  const counts = [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([keyId, rows]) => ({ keyId, rows }));
  const described = <T extends { keyId: string }>(c: T) => ({
    ...c,
    current: c.keyId === box.keyId,
    configured: box.keyIds.includes(c.keyId),
  });
  return ok({
    currentKeyId: box.keyId,
    keys: counts.map(described),
    remaining: counts.filter((c) => c.keyId !== box.keyId).reduce((sum, c) => sum + c.rows, 0),
    idempotencyKeys: live.map(described),
    idempotencyKeysRemaining: live.filter((c) => c.keyId !== box.keyId).reduce((sum, c) => sum + c.live, 0),
  });
}

export interface ReencryptionReport extends DataKeyStatus {
  /** Sealed values moved to the current key by this call. */
  reencrypted: number;
  /** Sealed values no configured key opens (left as they are; their key must be configured again to move them). */
  unreadable: number;
  /** Whether the pass reached the end; false when it stopped at its time budget (call again). */
  complete: boolean;
}

/**
 * `POST /admin/v1/data-key/re-encrypt`: rewraps every value sealed under an earlier key with the current
 * one (applicant rows, then the columns of `sealed-fields.ts`), a batch at a time, for up to `budgetMs` (then it answers, and the caller calls again). Safe while
 * serving: each row is replaced only if it still holds the text that was read, so a write or an erasure
 * that came in meanwhile is never undone, and no long transaction holds locks.
 */
export async function reencryptPersonalData(
  ctx: DomainContext,
  options: { batchSize?: number; budgetMs?: number } = {},
): Promise<Result<ReencryptionReport>> {
  const box = ctx.personalData;
  const batchSize = options.batchSize ?? 200;
  const deadline = Date.now() + (options.budgetMs ?? 10_000);
  let after: string | undefined;
  let reencrypted = 0;
  let unreadable = 0;
  let complete = false;
  while (!complete && Date.now() < deadline) {
    const rows = await listApplicantsNotUnder(ctx.db, box.keyId, { after, limit: batchSize });
    for (const row of rows) {
      const plain = box.open(row.detailsSealed, row.applicationId);
      if (plain === undefined) {
        unreadable++;
        continue;
      }
      const rewrapped = { detailsSealed: box.seal(plain, row.applicationId), keyId: box.keyId };
      if (await replaceApplicantSealed(ctx.db, row.applicationId, row.detailsSealed, rewrapped)) reencrypted++;
    }
    complete = rows.length < batchSize;
    after = rows.at(-1)?.applicationId;
  }
  if (complete) {
    const fields = await reencryptSealedFields(ctx, box, { batchSize, deadline });
    reencrypted += fields.reencrypted;
    unreadable += fields.unreadable;
    complete = fields.complete;
  }
  const status = await getDataKeyStatus(ctx);
  if (!status.ok) return status;
  return ok({ ...status.value, reencrypted, unreadable, complete });
}
