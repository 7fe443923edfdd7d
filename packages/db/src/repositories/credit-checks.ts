/**
 * The one soft credit check an application may have: claimed by a process (`running`, its owner), then
 * completed with everything that rests on it in one statement. Consent records: what an applicant
 * consented to, kept with the check that relied on it (one per check, written by the statement that
 * completes it). No personal details: the consents given, the wording's version, times, the partner and
 * the partner's own reference, which erasure removes.
 */
import { sql, type Sql } from '../connect';
import type { SealedDetails } from './applicants';
import type { KeyCompletion } from './applications';

/** Claims the check: the row's primary key admits one claimant. Otherwise answers the check as it stands. */
export async function claimCreditCheck(
  db: Sql,
  applicationId: string,
  ownerId: string,
): Promise<{ claimed: true } | { claimed: false; status: 'running' | 'completed'; ownerId: string | null }> {
  const [row] = await db.query<{ claimed: boolean; status: 'running' | 'completed'; ownerId: string | null }>(sql`
    WITH claim AS (
      INSERT INTO credit_checks (application_id, status, owner_id, degraded_mode, sandbox_mode, source)
      VALUES (${applicationId}, 'running', ${ownerId}, false, false, 'pending')
      ON CONFLICT (application_id) DO NOTHING
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM claim) AS claimed, c.status, c.owner_id::text AS "ownerId"
      FROM (SELECT 1) one LEFT JOIN credit_checks c ON c.application_id = ${applicationId}`);
  if (row.claimed) return { claimed: true };
  // Claimed by a transaction that committed after this statement began: look again.
  return row.status
    ? { claimed: false, status: row.status, ownerId: row.ownerId }
    : claimCreditCheck(db, applicationId, ownerId);
}

/** Takes over a running claim whose owner has died; true when this caller now holds it. */
export async function takeOverCreditCheck(db: Sql, applicationId: string, deadOwnerId: string, ownerId: string) {
  const rows = await db.query(sql`
    UPDATE credit_checks SET owner_id = ${ownerId}
     WHERE application_id = ${applicationId} AND status = 'running' AND owner_id = ${deadOwnerId} RETURNING 1`);
  return rows.length === 1;
}

export async function releaseCreditCheck(db: Sql, applicationId: string, ownerId: string): Promise<void> {
  await db.query(sql`
    DELETE FROM credit_checks
     WHERE application_id = ${applicationId} AND status = 'running' AND owner_id = ${ownerId}`);
}

/** What a completed check writes besides its result: step 5 sealed, and the consent it relied on. */
export interface CheckCompletion {
  applicationId: string;
  partnerId: string;
  ownerId: string;
  result: {
    /** The exact score, sealed (null when the bureau gave none); the band stays in clear for matching. */
    scoreSealed: string | null;
    band: string | null;
    degradedMode: boolean;
    sandboxMode: boolean;
    source: string;
  };
  details: SealedDetails;
  consent: Omit<ConsentRecordRow, 'applicationId' | 'partnerId' | 'recordedAt' | 'erasedAt'>;
  key?: KeyCompletion;
  now: Date;
}

/**
 * Completes the claimed check in one statement (docs/ARCHITECTURE.md, "One request"). Nothing is written
 * (false) when the personal data was erased meanwhile or the claim is no longer this process's.
 */
export async function completeCreditCheck(db: Sql, c: CheckCompletion): Promise<boolean> {
  const { applicationId: id, result, details, consent } = c;
  const [row] = await db.query<{ completed: boolean }>(sql`
    WITH app AS (
      UPDATE applications SET status = GREATEST(status, 'credit_checked'), last_step = 5, updated_at = ${c.now}
       WHERE id = ${id} AND personal_data_erased_at IS NULL
         AND EXISTS (SELECT 1 FROM credit_checks
                      WHERE application_id = ${id} AND status = 'running' AND owner_id = ${c.ownerId})
       RETURNING id
    ), checked AS (
      UPDATE credit_checks SET status = 'completed', owner_id = NULL, completed_at = ${c.now},
             score_sealed = ${result.scoreSealed}, band = ${result.band}, degraded_mode = ${result.degradedMode},
             sandbox_mode = ${result.sandboxMode}, source = ${result.source}
        FROM app WHERE application_id = app.id
    ), details AS (
      INSERT INTO applicants (application_id, details_sealed, key_id, email_hash, mobile_hash)
      SELECT id, ${details.detailsSealed}, ${details.keyId}, ${details.emailHash}, ${details.mobileHash} FROM app
      ON CONFLICT (application_id) DO UPDATE SET details_sealed = EXCLUDED.details_sealed, key_id = EXCLUDED.key_id,
        email_hash = EXCLUDED.email_hash, mobile_hash = EXCLUDED.mobile_hash
    ), consent AS (
      INSERT INTO consent_records (id, application_id, partner_id, credit_check, privacy, marketing, terms,
                                   text_version, text_version_stated, captured_at, recorded_at, partner_reference)
      SELECT ${consent.id}, id, ${c.partnerId}, ${consent.creditCheck}, ${consent.privacy}, ${consent.marketing},
             ${consent.terms}, ${consent.textVersion}, ${consent.textVersionStated}, ${consent.capturedAt}, ${c.now},
             ${consent.partnerReference} FROM app
    ), answer AS (
      UPDATE idempotency_keys SET state = 'completed', response_body = ${c.key?.responseBody}
        FROM app WHERE partner_id = ${c.partnerId} AND key = ${c.key?.key ?? null}
    )
    SELECT EXISTS (SELECT 1 FROM app) AS completed`);
  return row.completed;
}

export interface ConsentRecordRow {
  id: string;
  applicationId: string;
  partnerId: string;
  creditCheck: boolean;
  privacy: boolean;
  marketing: boolean;
  terms: boolean;
  textVersion: string;
  textVersionStated: boolean;
  capturedAt: Date | null;
  recordedAt: Date;
  partnerReference: string | null;
  erasedAt: Date | null;
}

/** An application's consent records, oldest first; null when there is no such application. */
export async function listConsentRecords(db: Sql, applicationId: string): Promise<ConsentRecordRow[] | null> {
  // One row of nulls for an application with none.
  const rows = await db.query<ConsentRecordRow>(sql`
    SELECT c.id::text, c.application_id::text AS "applicationId", c.partner_id::text AS "partnerId",
           c.credit_check AS "creditCheck", c.privacy, c.marketing, c.terms, c.text_version AS "textVersion",
           c.text_version_stated AS "textVersionStated", c.captured_at AS "capturedAt", c.recorded_at AS "recordedAt",
           c.partner_reference AS "partnerReference", c.erased_at AS "erasedAt"
      FROM applications a LEFT JOIN consent_records c ON c.application_id = a.id
     WHERE a.id = ${applicationId} ORDER BY c.recorded_at, c.id`);
  return rows.length === 0 ? null : rows.filter((r) => r.id !== null);
}
