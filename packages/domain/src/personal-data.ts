/**
 * Personal data sealed under the data key, each text bound to its application and place: applicants'
 * details (step 5, Variant B's intake); the personal fields of steps 2-4, sealed as one text beside the
 * step's other fields in clear (for matching); and the exact score, sealed and never opened. Also the key
 * status, rotation and erasure of them all.
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
  type ApplicationRow,
  type Json,
  type SealedColumn,
  type SealedDetails,
  type SealedStepNumber,
  type Sql,
} from '@loanmatch/db';
import type { DomainContext } from './context';
import { fail, ok } from './errors';
import { canonicalUuid } from './ids';
import { createSecretBox, type SecretBox } from './sealing';

/** Fields of steps 1-4 about the person rather than the loan: sealed apart from the step; erasure removes them. */
export const PERSONAL_STEP_FIELDS = [
  'homeAddress',
  'homeAddressComponents',
  'propertyAddress',
  'propertyAddressComponents',
  'employerName',
] as const;

const PERSONAL = new Set<string>(PERSONAL_STEP_FIELDS);

/**
 * A sealed text that no configured key opens for its application: its key was removed before the row
 * was re-encrypted, or the text was altered or moved. Thrown (a 500); the message names ids only.
 */
export class PersonalDataUnreadable extends Error {
  override readonly name = 'PersonalDataUnreadable';
  constructor(applicationId: string, keyId: string | undefined) {
    super(
      `the personal data of application ${applicationId} cannot be opened: no configured data key has id ${keyId ?? '(none)'} ` +
        '(add the key that sealed them to DATA_PREVIOUS_KEYS), or the stored text was altered',
    );
  }
}

export function openSealed(ctx: DomainContext, applicationId: string, sealed: string, context: string): string {
  const plain = ctx.personalData.open(sealed, context);
  if (plain === undefined) throw new PersonalDataUnreadable(applicationId, ctx.personalData.keyIdOf(sealed));
  return plain;
}

const stepContext = (applicationId: string, step: number): string => `${applicationId}:step-${step}`;

/** A step as it is written: its fields in clear without the personal ones, and those sealed (null when it has none). */
export function sealStep(ctx: DomainContext, applicationId: string, step: SealedStepNumber, data: Json) {
  const clear: Json = {};
  const personal: Json = {};
  for (const [name, value] of Object.entries(data)) {
    if (PERSONAL.has(name)) personal[name] = value;
    else clear[name] = value;
  }
  const sealed = Object.keys(personal).length > 0;
  return {
    data: clear,
    sealed: sealed ? ctx.personalData.seal(JSON.stringify(personal), stepContext(applicationId, step)) : null,
  };
}

/**
 * Steps 1-4 with their personal fields opened again: of every step, or of `only` those. Keys in jsonb's
 * order, as they were before these fields were sealed, so an answer is the same byte for byte.
 */
export function openSteps(
  ctx: DomainContext,
  row: Pick<ApplicationRow, 'id' | 'steps' | 'sealedSteps'>,
  only?: readonly number[],
): ApplicationRow['steps'] {
  const steps = { ...row.steps };
  for (const step of [2, 3, 4] as const) {
    const sealed = row.sealedSteps[step];
    if (sealed === undefined || (only && !only.includes(step))) continue;
    const plain = openSealed(ctx, row.id, sealed, stepContext(row.id, step));
    steps[step] = jsonbOrder({ ...steps[step], ...(JSON.parse(plain) as Json) }) as Json;
  }
  return steps;
}

/** jsonb's order of object keys (all ASCII here): shorter keys first, then byte by byte; nested objects alike. */
function jsonbOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const ordered: Json = {};
  for (const key of keys) ordered[key] = jsonbOrder((value as Json)[key]);
  return ordered;
}

export function sealScore(ctx: DomainContext, applicationId: string, score: number): string {
  return ctx.personalData.seal(String(score), sealedFieldContext('score', applicationId));
}

/** The associated data a column's text is sealed with (also for tools that copy rows, such as the bench's fill). */
export function sealedFieldContext(column: SealedColumn, applicationId: string): string {
  return column === 'score' ? `${applicationId}:score` : stepContext(applicationId, Number(column.slice(4)));
}

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
export const getDataKeyStatus = async (ctx: DomainContext) => ok(await keyStatus(ctx));

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
