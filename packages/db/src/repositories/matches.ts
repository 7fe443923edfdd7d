import type { Db } from './types';
import { isUniqueViolation } from './types';

export async function findMatchRun(db: Db, id: string) {
  return db.prisma.matchRun.findUnique({
    where: { id },
    select: { id: true, applicationId: true, partnerId: true, offers: true, createdAt: true },
  });
}

/** Records a followed link once per offer; false when it was recorded before. */
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
    at: Date;
  },
): Promise<boolean> {
  const { at, ...data } = referral;
  try {
    await db.prisma.referral.create({ data: { ...data, createdAt: at } });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
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
    select: { id: true, offerId: true, applicationId: true, lenderId: true, productId: true, createdAt: true },
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
    lenderName: lenderName.get(r.lenderId) ?? r.lenderId,
    productName: productName.get(r.productId) ?? r.productId,
  }));
}
