/**
 * Consent records: what an applicant consented to, kept with the credit check that relied on it (one per
 * check, written by the statement that completes it). No personal details: the consents given, the
 * wording's version, times, the partner and the partner's own reference, which erasure removes.
 */
import { sql, type Sql } from '../connect';

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
  const rows = await db.query<ConsentRecordRow & { found: string }>(sql`
    SELECT a.id AS found, c.id::text, c.application_id::text AS "applicationId", c.partner_id::text AS "partnerId",
           c.credit_check AS "creditCheck", c.privacy, c.marketing, c.terms, c.text_version AS "textVersion",
           c.text_version_stated AS "textVersionStated", c.captured_at AS "capturedAt", c.recorded_at AS "recordedAt",
           c.partner_reference AS "partnerReference", c.erased_at AS "erasedAt"
      FROM applications a LEFT JOIN consent_records c ON c.application_id = a.id
     WHERE a.id = ${applicationId} ORDER BY c.recorded_at, c.id`);
  if (rows.length === 0) return null;
  return rows.filter((r) => r.id !== null).map(({ found: _, ...row }) => row);
}
