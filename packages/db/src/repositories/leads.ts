/**
 * Referrals as their partner's list shows them (with their lender's and product's names and their outcome)
 * and as their lender reads them (leads), and the record of each lead shown to a lender.
 */
import { sql, type Json, type Sql } from '../connect';
import type { ApplicantRecord } from './applicants';
import { APPLICATION_COLUMNS, applicationRowOf, type ApplicationColumns, type ApplicationRow } from './applications';

/** A referral as its lender reads it: no score, no band. */
export interface LeadSummaryRow {
  referralId: string;
  reference: string;
  lenderId: string;
  applicationId: string;
  /** The environment of the partner that referred the applicant. */
  environment: string;
  referredAt: Date;
  attribution: string;
  duplicateOf: string | null;
  productId: string;
  productName: string;
}

/**
 * A lead as read: the referral, the offer as the match answered it (an `acceptedOffers` item; null when the
 * run no longer holds it), the application, its applicant row (sealed) and its latest consent record.
 */
export type LeadRow = LeadSummaryRow &
  ApplicantRecord & {
    offer: Json | null;
    application: ApplicationRow;
    consent: { consentVersion: string; givenAt: string; consentMarketing: boolean } | null;
    /** Whether its lender holds a key in the lead's environment that is not revoked. */
    lenderKeyActive: boolean;
  };

const LEAD = sql`r.id AS "referralId", r.offer_id AS reference, r.lender_id AS "lenderId",
  r.application_id AS "applicationId", p.environment, r.created_at AS "referredAt", r.attribution,
  r.duplicate_of AS "duplicateOf", r.product_id AS "productId", coalesce(pr.name, r.product_id) AS "productName"`;

/** The lead named by its reference (the referral's offer id), in one statement; null when none. */
export async function findLead(db: Sql, reference: string): Promise<LeadRow | null> {
  const [row] = await db.query<Omit<LeadRow, 'application'> & ApplicationColumns>(sql`
    SELECT ${LEAD}, ${APPLICATION_COLUMNS}, ap.details_sealed AS "detailsSealed", ap.erased_at AS "erasedAt",
           (SELECT o FROM json_array_elements(m.offers -> 'view' -> 'acceptedOffers') o
             WHERE o ->> 'offerId' = r.offer_id::text) AS offer,
           (SELECT json_build_object('consentVersion', text_version, 'consentMarketing', marketing, 'givenAt',
                     to_char(coalesce(captured_at, recorded_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
              FROM consent_records WHERE application_id = a.id ORDER BY recorded_at DESC, id DESC LIMIT 1) AS consent,
           EXISTS (SELECT 1 FROM lender_keys k WHERE k.lender_id = r.lender_id AND k.environment = p.environment
                      AND k.revoked_at IS NULL) AS "lenderKeyActive"
      FROM referrals r JOIN partners p ON p.id = r.partner_id JOIN match_runs m ON m.id = r.match_run_id
      LEFT JOIN products pr ON pr.id = r.product_id
      JOIN applications a ON a.id = r.application_id LEFT JOIN credit_checks c ON c.application_id = a.id
      LEFT JOIN applicants ap ON ap.application_id = a.id
     WHERE r.offer_id = ${reference}`);
  return row ? { ...row, application: applicationRowOf(row) } : null;
}

/** Where a page ends: its last referral's time and id. */
type Position = { createdAt: Date; id: string };

/** A lender's leads of one environment made after `since`, newest first, after the cursor when given. */
export async function listLenderLeads(
  db: Sql,
  options: { lenderId: string; environment: string; since: Date; limit: number; before?: Position },
): Promise<LeadSummaryRow[]> {
  const { lenderId, environment, since, limit, before } = options;
  return db.query(sql`
    SELECT ${LEAD}
      FROM referrals r JOIN partners p ON p.id = r.partner_id LEFT JOIN products pr ON pr.id = r.product_id
     WHERE r.lender_id = ${lenderId} AND p.environment = ${environment} AND r.created_at > ${since}
       ${before ? sql`AND (r.created_at, r.id) < (${before.createdAt}, ${before.id}::uuid)` : sql``}
     ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit}`);
}

export interface DisclosureRow {
  applicationId: string;
  lenderId: string;
  reference: string;
  channel: 'pull' | 'push';
  at: Date;
}

export async function insertDisclosure(db: Sql, d: DisclosureRow): Promise<void> {
  await db.query(sql`
    INSERT INTO lead_disclosures (application_id, lender_id, reference, channel, at)
    VALUES (${d.applicationId}, ${d.lenderId}, ${d.reference}, ${d.channel}, ${d.at})`);
}

/** An application's disclosures, oldest first; null when there is no such application. */
export async function listDisclosures(
  db: Sql,
  applicationId: string,
): Promise<Omit<DisclosureRow, 'applicationId'>[] | null> {
  // One row of nulls for an application with none.
  const rows = await db.query<Omit<DisclosureRow, 'applicationId'>>(sql`
    SELECT d.lender_id AS "lenderId", d.reference, d.channel, d.at
      FROM applications a LEFT JOIN lead_disclosures d ON d.application_id = a.id
     WHERE a.id = ${applicationId} ORDER BY d.at, d.id`);
  return rows.length === 0 ? null : rows.filter((r) => r.reference !== null);
}

export interface ReferralRow {
  id: string;
  offerId: string;
  applicationId: string;
  lenderId: string;
  lenderName: string;
  productId: string;
  productName: string;
  createdAt: Date;
  clientTags: Json | null;
  outcomeStatus: string | null;
  outcomeAt: Date | null;
  fundedAmountCents: number | null;
  commissionCents: number | null;
  attribution: string;
}

/**
 * A partner's referrals, newest first, after the (createdAt, id) cursor when given. A lender or product
 * the catalogue no longer has is named by its id.
 */
export async function listPartnerReferrals(
  db: Sql,
  options: { partnerId: string; limit: number; before?: Position },
): Promise<ReferralRow[]> {
  const { partnerId, limit, before } = options;
  return db.query(sql`
    SELECT r.id, r.offer_id AS "offerId", r.application_id AS "applicationId", r.lender_id AS "lenderId",
           coalesce(l.name, r.lender_id) AS "lenderName", r.product_id AS "productId",
           coalesce(p.name, r.product_id) AS "productName", r.created_at AS "createdAt", r.client_tags AS "clientTags",
           r.outcome_status AS "outcomeStatus", r.outcome_at AS "outcomeAt",
           r.funded_amount_cents AS "fundedAmountCents", r.commission_cents AS "commissionCents",
           r.attribution
      FROM referrals r LEFT JOIN lenders l ON l.id = r.lender_id LEFT JOIN products p ON p.id = r.product_id
     WHERE r.partner_id = ${partnerId}
       ${before ? sql`AND (r.created_at, r.id) < (${before.createdAt}, ${before.id}::uuid)` : sql``}
      ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit}`);
}
