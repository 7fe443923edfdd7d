import type { Db, Json } from './types';

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
