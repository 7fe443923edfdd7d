/**
 * Applicants' details (step 5, Variant B's intake) sealed under the data key, bound to the application; the
 * key status, rotation and erasure here also cover `sealed-fields.ts`.
 */
import {
  SEALED_COLUMNS,
  countByKey,
  countLiveByDataKey,
  countSealedByKey,
  eraseApplicant,
  findApplicant,
  listApplicantsNotUnder,
  listSealedNotUnder,
  replaceApplicantSealed,
  replaceSealedText,
  type ApplicantRecord,
  type Json,
  type SealedDetails,
  type Sql,
} from '@loanmatch/db';
import type { DomainContext } from './context';
import { fail, ok } from './errors';
import { canonicalUuid } from './ids';
import { PERSONAL_STEP_FIELDS, openSealed, sealedFieldContext } from './sealed-fields';
import { createSecretBox, type SecretBox } from './sealing';

export function createPersonalDataBox(keys: readonly Uint8Array[]): SecretBox {
  return createSecretBox(keys, 'applicant-details');
}

export function sealApplicantDetails(ctx: DomainContext, applicationId: string, details: Json): SealedDetails {
  return {
    detailsSealed: ctx.personalData.seal(JSON.stringify(details), applicationId),
    keyId: ctx.personalData.keyId,
    ...ctx.applicantHashes(details),
  };
}

type DetailsState = { state: 'none' } | { state: 'erased'; erasedAt: Date } | { state: 'kept'; details: Json };

/** The details kept for an application, opened. `lock`: read once every write in flight has committed. */
export async function readApplicantDetails(
  ctx: DomainContext,
  applicationId: string,
  options: { db?: Sql; lock?: boolean } = {},
): Promise<DetailsState> {
  const row = await findApplicant(options.db ?? ctx.db, applicationId, options.lock);
  return openApplicantDetails(ctx, applicationId, row);
}

/** An applicant row as read (none: null), its details opened. */
export function openApplicantDetails(
  ctx: DomainContext,
  applicationId: string,
  row: ApplicantRecord | null,
): DetailsState {
  if (!row) return { state: 'none' };
  if (row.erasedAt) return { state: 'erased', erasedAt: row.erasedAt };
  if (row.detailsSealed === null) return { state: 'none' };
  const plain = openSealed(ctx, applicationId, row.detailsSealed, applicationId);
  return { state: 'kept', details: JSON.parse(plain) as Json };
}

/** `DELETE /admin/v1/applications/{id}/personal-data`: a second call answers the first call's `erasedAt`. */
export async function erasePersonalData(ctx: DomainContext, options: { applicationId: string }) {
  const applicationId = canonicalUuid(options.applicationId);
  const erasedAt = applicationId
    ? await eraseApplicant(ctx.db, applicationId, ctx.clock(), PERSONAL_STEP_FIELDS)
    : null;
  if (!applicationId || !erasedAt) return fail('NOT_FOUND', 'Application not found');
  return ok({ applicationId, erasedAt: erasedAt.toISOString() });
}

/**
 * `GET /admin/v1/data-key`: sealed values by their key, and live idempotency keys by the data key of their
 * request's digest. When both remainders are 0, every earlier key may be removed.
 */
export async function getDataKeyStatus(ctx: DomainContext) {
  return ok(await keyStatus(ctx));
}

async function keyStatus(ctx: DomainContext) {
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
  return {
    currentKeyId: box.keyId,
    keys: counts.map(described),
    remaining: counts.filter((c) => c.keyId !== box.keyId).reduce((sum, c) => sum + c.rows, 0),
    idempotencyKeys: live.map(described),
    idempotencyKeysRemaining: live.filter((c) => c.keyId !== box.keyId).reduce((sum, c) => sum + c.live, 0),
  };
}

/**
 * `POST /admin/v1/data-key/re-encrypt`: seals again under the current key, a batch at a time, for up to
 * `budgetMs`. A value is replaced only if its row still holds the text read, so a write meanwhile is never
 * undone; values no configured key opens are counted `unreadable`.
 */
export async function reencryptPersonalData(
  ctx: DomainContext,
  options: { batchSize?: number; budgetMs?: number } = {},
) {
  const box = ctx.personalData;
  const limit = options.batchSize ?? 200;
  const deadline = Date.now() + (options.budgetMs ?? 10_000);
  const counts = { reencrypted: 0, unreadable: 0 };
  const pass = async (
    list: (after: string | undefined) => Promise<Array<{ applicationId: string; sealed: string }>>,
    replace: (applicationId: string, from: string, to: string) => Promise<boolean>,
    context: (applicationId: string) => string,
  ): Promise<boolean> => {
    for (let after: string | undefined; ; ) {
      if (Date.now() >= deadline) return false;
      const rows = await list(after);
      for (const row of rows) {
        const plain = box.open(row.sealed, context(row.applicationId));
        if (plain === undefined) counts.unreadable++;
        else if (await replace(row.applicationId, row.sealed, box.seal(plain, context(row.applicationId))))
          counts.reencrypted++;
      }
      if (rows.length < limit) return true;
      after = rows.at(-1)?.applicationId;
    }
  };
  let complete = await pass(
    (after) => listApplicantsNotUnder(ctx.db, box.keyId, { after, limit }),
    (id, from, to) => replaceApplicantSealed(ctx.db, id, from, { detailsSealed: to, keyId: box.keyId }),
    (id) => id,
  );
  for (const column of SEALED_COLUMNS)
    complete &&= await pass(
      (after) => listSealedNotUnder(ctx.db, column, box.keyId, { after, limit }),
      (id, from, to) => replaceSealedText(ctx.db, column, id, from, to),
      (id) => sealedFieldContext(column, id),
    );
  return ok({ ...(await keyStatus(ctx)), ...counts, complete });
}
