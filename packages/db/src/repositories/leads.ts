/** Leads: referrals as their lender reads them, and the record of each lead shown to a lender. */
import type { Json, Sql } from '../connect';

export interface LeadRow {
  referralId: string;
  reference: string;
  lenderId: string;
  partnerId: string;
  applicationId: string;
  /** The environment of the partner that referred the applicant. */
  environment: string;
  referredAt: Date;
  attribution: string;
  duplicateOf: string | null;
  productId: string;
  productName: string;
  /** The offer as the match answered it (`acceptedOffers` item), or null when the run no longer holds it. */
  offer: Json | null;
}

const LEAD = `r.id AS "referralId", r.offer_id AS reference, r.lender_id AS "lenderId", r.partner_id AS "partnerId",
  r.application_id AS "applicationId", p.environment, r.created_at AS "referredAt", r.attribution,
  r.duplicate_of AS "duplicateOf", r.product_id AS "productId", coalesce(pr.name, r.product_id) AS "productName"`;

/** The referral named by its reference (its offer id), with the offer as it was matched; null when none. */
export async function findLead(db: Sql, reference: string): Promise<LeadRow | null> {
  const [row] = await db.query<LeadRow>(
    `SELECT ${LEAD},
            (SELECT o FROM json_array_elements(m.offers -> 'view' -> 'acceptedOffers') o
              WHERE o ->> 'offerId' = r.offer_id::text) AS offer
       FROM referrals r JOIN partners p ON p.id = r.partner_id JOIN match_runs m ON m.id = r.match_run_id
       LEFT JOIN products pr ON pr.id = r.product_id
      WHERE r.offer_id = $1`,
    [reference],
  );
  return row ?? null;
}

/**
 * A lender's leads of one environment made after `since`, newest first, after the (referredAt, id) cursor
 * when given.
 */
export async function listLenderLeads(
  db: Sql,
  options: {
    lenderId: string;
    environment: string;
    since: Date;
    limit: number;
    before?: { createdAt: Date; id: string };
  },
): Promise<Array<Omit<LeadRow, 'offer'>>> {
  return db.query(
    `SELECT ${LEAD}
       FROM referrals r JOIN partners p ON p.id = r.partner_id LEFT JOIN products pr ON pr.id = r.product_id
      WHERE r.lender_id = $1 AND p.environment = $2 AND r.created_at > $3
        AND ($5::timestamptz IS NULL OR (r.created_at, r.id) < ($5, $6::uuid))
      ORDER BY r.created_at DESC, r.id DESC LIMIT $4`,
    [
      options.lenderId,
      options.environment,
      options.since,
      options.limit,
      options.before?.createdAt ?? null,
      options.before?.id ?? null,
    ],
  );
}

export interface DisclosureRow {
  applicationId: string;
  lenderId: string;
  reference: string;
  channel: 'pull' | 'push';
  at: Date;
}

export async function insertDisclosure(db: Sql, d: DisclosureRow): Promise<void> {
  await db.query(
    'INSERT INTO lead_disclosures (application_id, lender_id, reference, channel, at) VALUES ($1, $2, $3, $4, $5)',
    [d.applicationId, d.lenderId, d.reference, d.channel, d.at],
  );
}

/** An application's disclosures, oldest first; null when there is no such application. */
export async function listDisclosures(db: Sql, applicationId: string): Promise<DisclosureRow[] | null> {
  const rows = await db.query<DisclosureRow & { found: string }>(
    `SELECT a.id AS found, d.application_id AS "applicationId", d.lender_id AS "lenderId", d.reference, d.channel, d.at
       FROM applications a LEFT JOIN lead_disclosures d ON d.application_id = a.id
      WHERE a.id = $1 ORDER BY d.at, d.id`,
    [applicationId],
  );
  if (rows.length === 0) return null;
  return rows.filter((r) => r.reference !== null).map(({ found: _, ...row }) => row);
}
