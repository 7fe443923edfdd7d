import { statement } from '../sql';
import type { Db, Json } from './types';

export async function findMatchRun(db: Db, id: string) {
  return db.prisma.matchRun.findUnique({
    where: { id },
    select: { id: true, applicationId: true, partnerId: true, offers: true, createdAt: true },
  });
}

/**
 * Records a followed link once per offer; false when it was recorded before. The application's
 * `clientTags` are copied onto the referral in the same statement.
 */
export async function insertReferral(
  db: Db,
  referral: {
    id: string;
    offerId: string;
    matchRunId: string;
    applicationId: string;
    partnerId: string;
    lenderId: string;
    productId: string;
    /** The product's commission terms as the offer carried them; null when it stated none. */
    commissionTerms: Json | null;
    at: Date;
  },
): Promise<boolean> {
  const r = referral;
  const rows = await db.rows(INSERT_REFERRAL, [
    r.id,
    r.offerId,
    r.matchRunId,
    r.applicationId,
    r.partnerId,
    r.lenderId,
    r.productId,
    r.commissionTerms === null ? null : JSON.stringify(r.commissionTerms),
    r.at,
  ]);
  return rows.length === 1;
}

const INSERT_REFERRAL = statement(
  'insert_referral',
  `INSERT INTO referrals (id, offer_id, match_run_id, application_id, partner_id, lender_id, product_id, commission_terms, client_tags, created_at)
   SELECT $1::uuid, $2::uuid, $3::uuid, a.id, $5::uuid, $6::text, $7::text, $8::jsonb, a.client_tags, $9::timestamptz
     FROM applications a WHERE a.id = $4::uuid
   ON CONFLICT (offer_id) DO NOTHING
   RETURNING 1`,
);

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
}

/** A partner's referrals, newest first, after the (createdAt, id) cursor when given. */
export async function listReferrals(
  db: Db,
  options: { partnerId: string; limit: number; before?: { createdAt: Date; id: string } },
): Promise<ReferralRow[]> {
  const { before } = options;
  const rows = await db.prisma.referral.findMany({
    where: {
      partnerId: options.partnerId,
      ...(before
        ? { OR: [{ createdAt: { lt: before.createdAt } }, { createdAt: before.createdAt, id: { lt: before.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: options.limit,
    select: {
      id: true,
      offerId: true,
      applicationId: true,
      lenderId: true,
      productId: true,
      createdAt: true,
      clientTags: true,
      outcomeStatus: true,
      outcomeAt: true,
      fundedAmountCents: true,
      commissionCents: true,
    },
  });
  const [lenders, products] = await Promise.all([
    db.prisma.lender.findMany({
      where: { id: { in: [...new Set(rows.map((r) => r.lenderId))] } },
      select: { id: true, name: true },
    }),
    db.prisma.product.findMany({
      where: { id: { in: [...new Set(rows.map((r) => r.productId))] } },
      select: { id: true, name: true },
    }),
  ]);
  const lenderName = new Map(lenders.map((l) => [l.id, l.name]));
  const productName = new Map(products.map((p) => [p.id, p.name]));
  return rows.map((r) => ({
    ...r,
    clientTags: r.clientTags as Json | null,
    fundedAmountCents: r.fundedAmountCents === null ? null : Number(r.fundedAmountCents),
    commissionCents: r.commissionCents === null ? null : Number(r.commissionCents),
    lenderName: lenderName.get(r.lenderId) ?? r.lenderId,
    productName: productName.get(r.productId) ?? r.productId,
  }));
}
