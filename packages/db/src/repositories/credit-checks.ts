/**
 * The one soft credit check an application may have: claimed by a process (`running`, its owner), then
 * completed with everything that rests on it in one statement.
 */
import type { Sql } from '../connect';
import type { SealedDetails } from './applicants';
import type { KeyCompletion } from './applications';
import type { ConsentRecordRow } from './consents';

/** Claims the check: the row's primary key admits one claimant. Otherwise answers the check as it stands. */
export async function claimCreditCheck(
  db: Sql,
  applicationId: string,
  ownerId: string,
): Promise<{ claimed: true } | { claimed: false; status: 'running' | 'completed'; ownerId: string | null }> {
  const [row] = await db.query<{ claimed: boolean; status: 'running' | 'completed'; ownerId: string | null }>(
    `WITH claim AS (
       INSERT INTO credit_checks (application_id, status, owner_id, degraded_mode, sandbox_mode, source)
       VALUES ($1, 'running', $2, false, false, 'pending')
       ON CONFLICT (application_id) DO NOTHING
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM claim) AS claimed, c.status, c.owner_id::text AS "ownerId"
       FROM (SELECT 1) one LEFT JOIN credit_checks c ON c.application_id = $1`,
    [applicationId, ownerId],
  );
  if (row.claimed) return { claimed: true };
  // Claimed by a transaction that committed after this statement began: look again.
  return row.status
    ? { claimed: false, status: row.status, ownerId: row.ownerId }
    : claimCreditCheck(db, applicationId, ownerId);
}

/** Takes over a running claim whose owner has died; true when this caller now holds it. */
export async function takeOverCreditCheck(db: Sql, applicationId: string, deadOwnerId: string, ownerId: string) {
  const rows = await db.query(
    `UPDATE credit_checks SET owner_id = $3 WHERE application_id = $1 AND status = 'running' AND owner_id = $2 RETURNING 1`,
    [applicationId, deadOwnerId, ownerId],
  );
  return rows.length === 1;
}

export async function releaseCreditCheck(db: Sql, applicationId: string, ownerId: string): Promise<void> {
  const sql = `DELETE FROM credit_checks WHERE application_id = $1 AND status = 'running' AND owner_id = $2`;
  await db.query(sql, [applicationId, ownerId]);
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
  const { result, consent } = c;
  const [row] = await db.query<{ completed: boolean }>(
    `WITH app AS (
       UPDATE applications SET status = GREATEST(status, 'credit_checked'), last_step = 5, updated_at = $3
        WHERE id = $1 AND personal_data_erased_at IS NULL
          AND EXISTS (SELECT 1 FROM credit_checks WHERE application_id = $1 AND status = 'running' AND owner_id = $2)
        RETURNING id
     ), checked AS (
       UPDATE credit_checks SET status = 'completed', owner_id = NULL, completed_at = $3, score_sealed = $4, band = $5,
              degraded_mode = $6, sandbox_mode = $7, source = $8
         FROM app WHERE application_id = app.id
     ), details AS (
       INSERT INTO applicants (application_id, details_sealed, key_id, email_hash, mobile_hash)
       SELECT id, $9, $10, $23, $24 FROM app
       ON CONFLICT (application_id) DO UPDATE SET details_sealed = EXCLUDED.details_sealed, key_id = EXCLUDED.key_id,
         email_hash = EXCLUDED.email_hash, mobile_hash = EXCLUDED.mobile_hash
     ), consent AS (
       INSERT INTO consent_records (id, application_id, partner_id, credit_check, privacy, marketing, terms,
                                    text_version, text_version_stated, captured_at, recorded_at, partner_reference)
       SELECT $11, id, $12, $13, $14, $15, $16, $17, $18, $19, $3, $20 FROM app
     ), answer AS (
       UPDATE idempotency_keys SET state = 'completed', response_body = $21 FROM app WHERE partner_id = $12 AND key = $22
     )
     SELECT EXISTS (SELECT 1 FROM app) AS completed`,
    [
      c.applicationId,
      c.ownerId,
      c.now,
      result.scoreSealed,
      result.band,
      result.degradedMode,
      result.sandboxMode,
      result.source,
      c.details.detailsSealed,
      c.details.keyId,
      consent.id,
      c.partnerId,
      consent.creditCheck,
      consent.privacy,
      consent.marketing,
      consent.terms,
      consent.textVersion,
      consent.textVersionStated,
      consent.capturedAt,
      consent.partnerReference,
      c.key?.responseBody,
      c.key?.key ?? null,
      c.details.emailHash,
      c.details.mobileHash,
    ],
  );
  return row.completed;
}
