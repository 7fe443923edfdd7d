/**
 * The applicant row: step 5, or before the check Variant B's intake (step 5's fields given so far and those
 * of steps 2-4 not saved as steps yet), sealed by the domain. Erasure empties the row and keeps it, marked,
 * so that no details are written for the application again.
 */
import { sql, type Sql } from '../connect';

/** The details sealed under the data key, the id of that key, and the applicant's keyed hashes (lead ownership). */
export type SealedDetails = {
  detailsSealed: string;
  keyId: string;
  emailHash: string | null;
  mobileHash: string | null;
};
export type ApplicantRecord = { detailsSealed: string | null; erasedAt: Date | null };

/**
 * The applicant row of an application; null when it has none. `lock`: locked until the transaction ends
 * (outside one: read once every write in flight has committed), for a read-modify-write of the intake.
 */
export async function findApplicant(db: Sql, applicationId: string, lock = false): Promise<ApplicantRecord | null> {
  const [row] = await db.query<ApplicantRecord>(sql`
    SELECT details_sealed AS "detailsSealed", erased_at AS "erasedAt" FROM applicants
     WHERE application_id = ${applicationId} ${lock ? sql`FOR UPDATE` : sql``}`);
  return row ?? null;
}

/** Writes the details over what the row holds; false, writing nothing, when the personal data was erased. */
export async function writeDetails(db: Sql, applicationId: string, sealed: SealedDetails): Promise<boolean> {
  const rows = await db.query(sql`
    INSERT INTO applicants (application_id, details_sealed, key_id, email_hash, mobile_hash)
    VALUES (${applicationId}, ${sealed.detailsSealed}, ${sealed.keyId}, ${sealed.emailHash}, ${sealed.mobileHash})
    ON CONFLICT (application_id) DO UPDATE SET details_sealed = EXCLUDED.details_sealed, key_id = EXCLUDED.key_id,
      email_hash = EXCLUDED.email_hash, mobile_hash = EXCLUDED.mobile_hash
      WHERE applicants.erased_at IS NULL
    RETURNING 1`);
  return rows.length === 1;
}

/**
 * Erasure, in one statement: the details and the applicant's hashes go and the row is marked erased (made
 * when there was none); `stepFields` (the personal fields of steps 1-4) and the sealed parts leave the
 * steps; the exact score goes; the consent record loses the partner's reference. Answers the first
 * erasure's time, or null when there is no such application.
 */
export async function eraseApplicant(
  db: Sql,
  applicationId: string,
  at: Date,
  stepFields: readonly string[],
): Promise<Date | null> {
  const [row] = await db.query<{ erasedAt: Date }>(
    `WITH stripped AS (
       UPDATE applications SET step_1 = step_1 - $3::text[], step_2 = step_2 - $3::text[], step_3 = step_3 - $3::text[],
              step_4 = step_4 - $3::text[], step_2_sealed = NULL, step_3_sealed = NULL, step_4_sealed = NULL,
              personal_data_erased_at = COALESCE(personal_data_erased_at, $2)
        WHERE id = $1
        RETURNING id
     ), score AS (
       UPDATE credit_checks SET score_sealed = NULL FROM stripped WHERE application_id = stripped.id
     ), applicant AS (
       INSERT INTO applicants (application_id, erased_at) SELECT id, $2 FROM stripped
       ON CONFLICT (application_id) DO UPDATE
         SET details_sealed = NULL, key_id = NULL, email_hash = NULL, mobile_hash = NULL,
             erased_at = COALESCE(applicants.erased_at, EXCLUDED.erased_at)
       RETURNING erased_at
     ), consent AS (
       UPDATE consent_records SET partner_reference = NULL, erased_at = COALESCE(consent_records.erased_at, $2)
         FROM applicant WHERE application_id = $1
     )
     SELECT erased_at AS "erasedAt" FROM applicant`,
    [applicationId, at, stepFields],
  );
  return row?.erasedAt ?? null;
}

/** Rows sealed under another key than `keyId`, in application-id order after `after`: a re-encryption pass. */
export async function listApplicantsNotUnder(
  db: Sql,
  keyId: string,
  options: { after?: string; limit: number },
): Promise<Array<{ applicationId: string; sealed: string }>> {
  return db.query(sql`
    SELECT application_id::text AS "applicationId", details_sealed AS sealed FROM applicants
     WHERE details_sealed IS NOT NULL AND key_id <> ${keyId}
       ${options.after ? sql`AND application_id > ${options.after}` : sql``}
     ORDER BY application_id LIMIT ${options.limit}`);
}

/** Replaces `from` by the same details under another key, unless a write or an erasure came in meanwhile. */
export async function replaceApplicantSealed(
  db: Sql,
  applicationId: string,
  from: string,
  to: Pick<SealedDetails, 'detailsSealed' | 'keyId'>,
): Promise<boolean> {
  const rows = await db.query(sql`
    UPDATE applicants SET details_sealed = ${to.detailsSealed}, key_id = ${to.keyId}
     WHERE application_id = ${applicationId} AND details_sealed = ${from} AND erased_at IS NULL RETURNING 1`);
  return rows.length === 1;
}

/** How many rows each key id seals. */
export async function countByKey(db: Sql): Promise<Array<{ keyId: string; rows: number }>> {
  return db.query(sql`
    SELECT key_id AS "keyId", count(*)::int AS rows FROM applicants
     WHERE details_sealed IS NOT NULL GROUP BY key_id ORDER BY key_id`);
}
