/**
 * Consent records: what an applicant consented to, kept with the credit check that relied on it (one
 * per check, written by the statement that completes it). No personal details here: the consents
 * given, the wording's version, times, the partner and the partner's own reference, which erasure
 * removes.
 */
import { type Params, statement } from '../sql';
import type { Db } from './types';

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

export type NewConsentRecord = Omit<ConsentRecordRow, 'erasedAt'>;

/**
 * The check's consent record, as a CTE of the statement that completes the check: written when `source`
 * (an earlier CTE) yields the application, so the record exists exactly when its check does.
 */
export function consentRecordCte(p: Params, source: string, record: NewConsentRecord): string {
  return `cr AS (
      INSERT INTO consent_records (id, application_id, partner_id, credit_check, privacy, marketing, terms, text_version,
        text_version_stated, captured_at, recorded_at, partner_reference)
      SELECT ${p.add(record.id)}::uuid, ${source}.id, ${p.add(record.partnerId)}::uuid, ${p.add(record.creditCheck)}::boolean,
        ${p.add(record.privacy)}::boolean, ${p.add(record.marketing)}::boolean, ${p.add(record.terms)}::boolean,
        ${p.add(record.textVersion)}::text, ${p.add(record.textVersionStated)}::boolean, ${p.add(record.capturedAt)}::timestamptz,
        ${p.add(record.recordedAt)}::timestamptz, ${p.add(record.partnerReference)}::text FROM ${source}
    )`;
}

/** An application's consent records, oldest first; null when there is no such application. */
export async function listConsentRecords(db: Db, applicationId: string): Promise<ConsentRecordRow[] | null> {
  const rows = await db.rows<Raw & { found: string }>(LIST_CONSENT_RECORDS, [applicationId]);
  if (rows.length === 0) return null;
  return rows.filter((r) => r.id !== null).map(fromRaw);
}

const LIST_CONSENT_RECORDS = statement(
  'list_consent_records',
  `SELECT a.id::text AS found, c.id::text AS id, c.application_id::text AS application_id, c.partner_id::text AS partner_id,
          c.credit_check, c.privacy, c.marketing, c.terms, c.text_version, c.text_version_stated, c.captured_at,
          c.recorded_at, c.partner_reference, c.erased_at
     FROM applications a LEFT JOIN consent_records c ON c.application_id = a.id
    WHERE a.id = $1::uuid ORDER BY c.recorded_at, c.id`,
);

/** Erasure: the record's facts stay; the partner's reference, which may lead to the person, goes. */
export async function eraseConsentReference(db: Db, applicationId: string, at: Date): Promise<void> {
  await db.rows(ERASE_CONSENT_REFERENCE, [applicationId, at]);
}

const ERASE_CONSENT_REFERENCE = statement(
  'erase_consent_reference',
  `UPDATE consent_records SET partner_reference = NULL, erased_at = COALESCE(erased_at, $2::timestamptz)
    WHERE application_id = $1::uuid RETURNING 1`,
);

interface Raw {
  id: string | null;
  application_id: string;
  partner_id: string;
  credit_check: boolean;
  privacy: boolean;
  marketing: boolean;
  terms: boolean;
  text_version: string;
  text_version_stated: boolean;
  captured_at: Date | string | null;
  recorded_at: Date | string;
  partner_reference: string | null;
  erased_at: Date | string | null;
}

const asDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function fromRaw(r: Raw): ConsentRecordRow {
  return {
    id: r.id!,
    applicationId: r.application_id,
    partnerId: r.partner_id,
    creditCheck: Boolean(r.credit_check),
    privacy: Boolean(r.privacy),
    marketing: Boolean(r.marketing),
    terms: Boolean(r.terms),
    textVersion: r.text_version,
    textVersionStated: Boolean(r.text_version_stated),
    capturedAt: asDate(r.captured_at),
    recordedAt: asDate(r.recorded_at)!,
    partnerReference: r.partner_reference,
    erasedAt: asDate(r.erased_at),
  };
}
