/** A partner's referrals as its list shows them: with their lender's and product's names and their outcome. */
import { sql, type Json, type Sql } from '../connect';

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
  options: { partnerId: string; limit: number; before?: { createdAt: Date; id: string } },
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
