import { Prisma } from '../generated/client';
import { type Params, statement } from '../sql';
import type { Db, Json } from './types';

/**
 * The applicant row: step 5, or before the check Variant B's intake (step 5's fields given so far), and
 * for Variant B the fields of steps 2-4 not saved as steps yet. This layer stores and returns the sealed text only; sealing and opening are the
 * domain's (`packages/domain/src/personal-data.ts`), so nothing here ever sees the details in clear,
 * apart from the legacy column that start-up seals. The row is never read by Variant A's GET.
 */

/** The details sealed under the data key, and the id of that key. */
export interface SealedDetails {
  detailsSealed: string;
  keyId: string;
}

export interface ApplicantRecord {
  detailsSealed: string | null;
  /** Details kept in clear by a database made before sealing, until start-up seals them. */
  detailsLegacy: Json | null;
  erasedAt: Date | null;
}

/** Variant B's intake, written with its new application: no earlier row can exist. */
export async function insertIntake(db: Db, applicationId: string, sealed: SealedDetails): Promise<void> {
  await db.prisma.applicant.create({ data: { applicationId, ...sealed } });
}

/**
 * Writes step 5 over whatever the row holds (the intake), unless the application's personal data was
 * erased: then nothing is written and the answer is false. One statement, so an erasure that commits
 * first always wins, and one that comes later waits for this write and then removes it.
 */
export async function writeDetails(db: Db, applicationId: string, sealed: SealedDetails): Promise<boolean> {
  const written = await db.rows(WRITE_DETAILS, [applicationId, sealed.detailsSealed, sealed.keyId]);
  return written.length === 1;
}

/** Step 5 written over the row, unless the row says the details were erased. */
const OVER_THE_ROW = `ON CONFLICT (application_id) DO UPDATE SET details_sealed = EXCLUDED.details_sealed, key_id = EXCLUDED.key_id, details_legacy = NULL
   WHERE applicants.erased_at IS NULL RETURNING 1`;

const WRITE_DETAILS = statement(
  'write_details',
  `INSERT INTO applicants (application_id, details_sealed, key_id) VALUES ($1::uuid, $2::text, $3::text) ${OVER_THE_ROW}`,
);

/**
 * `writeDetails` as a CTE of the statement that completes a credit check: written for the application
 * `source` (an earlier CTE) yields, which has checked that its details were not erased.
 */
export function detailsCte(p: Params, source: string, sealed: SealedDetails): string {
  return `det AS (
      INSERT INTO applicants (application_id, details_sealed, key_id)
      SELECT ${source}.id, ${p.add(sealed.detailsSealed)}::text, ${p.add(sealed.keyId)}::text FROM ${source} ${OVER_THE_ROW}
    )`;
}

/** The applicant row of an application; null when it has none. */
export async function findApplicant(db: Db, applicationId: string): Promise<ApplicantRecord | null> {
  const rows = await db.rows<{ details_sealed: string | null; details_legacy: Json | null; erased_at: Date | null }>(
    FIND_APPLICANT,
    [applicationId],
  );
  const row = rows[0];
  return row
    ? { detailsSealed: row.details_sealed, detailsLegacy: row.details_legacy ?? null, erasedAt: row.erased_at }
    : null;
}

const FIND_APPLICANT = statement(
  'find_applicant',
  'SELECT details_sealed, details_legacy, erased_at FROM applicants WHERE application_id = $1::uuid',
);

/**
 * The applicant row, locked until the transaction ends (outside one: read once every write in flight
 * has committed), for a read-modify-write of Variant B's intake; null when there is none.
 */
export async function lockApplicant(db: Db, applicationId: string): Promise<ApplicantRecord | null> {
  const rows = await db.prisma.$queryRaw<
    Array<{ details_sealed: string | null; details_legacy: Json | null; erased_at: Date | null }>
  >`
    SELECT details_sealed, details_legacy, erased_at FROM applicants WHERE application_id = ${applicationId}::uuid FOR UPDATE`;
  const row = rows[0];
  return row
    ? { detailsSealed: row.details_sealed, detailsLegacy: row.details_legacy ?? null, erasedAt: row.erased_at }
    : null;
}

/**
 * Erasure, in one statement: removes the personal details of an application and marks its row erased
 * (making the row when the application had none, so that no details can be written later), and takes
 * `stepFields` (the personal fields of steps 1-4: addresses, employer) out of the steps, sealed or (rows
 * start-up has not sealed yet) in clear; the rest of the application stays, its `updated_at` too. The first erasure's time is kept: erasing again answers the
 * same time. Null when there is no such application.
 */
export async function eraseDetails(
  db: Db,
  applicationId: string,
  at: Date,
  stepFields: readonly string[],
): Promise<Date | null> {
  const fields = Prisma.sql`ARRAY[${Prisma.join(stepFields)}]::text[]`;
  const rows = await db.prisma.$queryRaw<Array<{ erased_at: Date | string }>>`
    WITH stripped AS (
      UPDATE applications SET step_1 = step_1 - ${fields}, step_2 = step_2 - ${fields}, step_3 = step_3 - ${fields}, step_4 = step_4 - ${fields},
        step_2_sealed = NULL, step_3_sealed = NULL, step_4_sealed = NULL,
        personal_data_erased_at = COALESCE(personal_data_erased_at, ${at})
      WHERE id = ${applicationId}::uuid RETURNING id
    )
    INSERT INTO applicants (application_id, erased_at) SELECT id, ${at} FROM stripped
    ON CONFLICT (application_id) DO UPDATE SET details_sealed = NULL, key_id = NULL, details_legacy = NULL,
      erased_at = COALESCE(applicants.erased_at, EXCLUDED.erased_at)
    RETURNING erased_at`;
  return rows[0] ? new Date(rows[0].erased_at) : null;
}

/** Rows sealed under another key than `keyId`, in application-id order after `after`: a re-encryption pass. */
export async function listSealedNotUnder(db: Db, keyId: string, options: { after?: string; limit: number }) {
  return db.prisma.applicant.findMany({
    where: {
      detailsSealed: { not: null },
      NOT: { keyId },
      ...(options.after ? { applicationId: { gt: options.after } } : {}),
    },
    orderBy: { applicationId: 'asc' },
    take: options.limit,
    select: { applicationId: true, detailsSealed: true },
  }) as Promise<Array<{ applicationId: string; detailsSealed: string }>>;
}

/**
 * Replaces a sealed text by the same details sealed under another key, only if the row still holds
 * `from`: a write or an erasure that came in meanwhile is kept, never overwritten. True when replaced.
 */
export async function replaceSealed(db: Db, applicationId: string, from: string, to: SealedDetails): Promise<boolean> {
  const { count } = await db.prisma.applicant.updateMany({
    where: { applicationId, detailsSealed: from, erasedAt: null },
    data: to,
  });
  return count === 1;
}

/** How many rows each key id seals. */
export async function countByKey(db: Db): Promise<Array<{ keyId: string; rows: number }>> {
  const groups = await db.prisma.applicant.groupBy({
    by: ['keyId'],
    where: { detailsSealed: { not: null } },
    _count: { _all: true },
    orderBy: { keyId: 'asc' },
  });
  return groups.map((g) => ({ keyId: g.keyId ?? '', rows: g._count._all }));
}

/** Rows still holding details in clear (written before sealing existed), a batch at a time. */
export async function listLegacy(db: Db, limit: number): Promise<Array<{ applicationId: string; details: Json }>> {
  const rows = await db.prisma.$queryRaw<Array<{ application_id: string; details: string }>>`
    SELECT application_id::text AS application_id, details_legacy::text AS details FROM applicants
    WHERE details_legacy IS NOT NULL ORDER BY application_id LIMIT ${limit}`;
  return rows.map((r) => ({ applicationId: r.application_id, details: JSON.parse(r.details) as Json }));
}

/** Moves a row's clear details to their sealed form, unless another process did it first. */
export async function sealLegacy(db: Db, applicationId: string, sealed: SealedDetails): Promise<boolean> {
  const written = await db.prisma.$executeRaw`
    UPDATE applicants SET details_sealed = ${sealed.detailsSealed}, key_id = ${sealed.keyId}, details_legacy = NULL
    WHERE application_id = ${applicationId}::uuid AND details_legacy IS NOT NULL`;
  return written === 1;
}
