/**
 * Lenders' outcome events and what they come to on each referral. An event is written with its referral's
 * row locked (`lockReferralOutcomes`), so the events of one referral are decided one after the other, each
 * seeing all those before it.
 */
import type { Db, Json } from './types';

export interface StoredOutcomeEvent {
  id: string;
  eventId: string;
  type: string;
  occurredAt: Date;
  fundedAmountCents: number | null;
  fundedAt: Date | null;
  receivedAt: Date;
}

/** A referral as recording an outcome needs it: whose it is, its environment, its tags and commission terms. */
export interface ReferralForOutcome {
  id: string;
  lenderId: string;
  partnerId: string;
  partnerEnvironment: string;
  applicationId: string;
  productId: string;
  clientTags: Json | null;
  commissionTerms: unknown;
}

/** What the events of a referral come to, as the referral keeps it for lists and reports. */
export interface OutcomeSummaryRow {
  outcomeStatus: string;
  outcomeAt: Date;
  outcomeStarted: boolean;
  outcomeApproved: boolean;
  fundedAmountCents: number | null;
  fundedAt: Date | null;
  fundingStands: boolean;
  commissionCents: number | null;
}

const num = (v: bigint | number | null): number | null => (v === null ? null : Number(v));

/** The lender's event with this id (its fingerprint and first answer), or null. */
export async function findOutcomeByEventId(
  db: Db,
  lenderId: string,
  eventId: string,
): Promise<{ fingerprint: string; answer: string } | null> {
  return db.prisma.referralOutcome.findUnique({
    where: { lenderId_eventId: { lenderId, eventId } },
    select: { fingerprint: true, answer: true },
  });
}

/** The referral a lender was given `offerId` for (its `lm_ref`), with its partner's environment. */
export async function findReferralByOfferId(db: Db, offerId: string): Promise<ReferralForOutcome | null> {
  const rows = await db.prisma.$queryRaw<
    Array<{
      id: string;
      lender_id: string;
      partner_id: string;
      environment: string;
      application_id: string;
      product_id: string;
      client_tags: Json | null;
      commission_terms: unknown;
    }>
  >`SELECT r.id::text, r.lender_id, r.partner_id::text, p.environment, r.application_id::text, r.product_id,
           r.client_tags, r.commission_terms
      FROM referrals r JOIN partners p ON p.id = r.partner_id
     WHERE r.offer_id = ${offerId}::uuid`;
  const r = rows[0];
  return r
    ? {
        id: r.id,
        lenderId: r.lender_id,
        partnerId: r.partner_id,
        partnerEnvironment: r.environment,
        applicationId: r.application_id,
        productId: r.product_id,
        clientTags: r.client_tags,
        commissionTerms: r.commission_terms,
      }
    : null;
}

/**
 * Locks the referral's row until the transaction ends and answers its outcome status and every event kept
 * for it, in the order they arrived; null when the referral is gone.
 */
export async function lockReferralOutcomes(
  db: Db,
  referralId: string,
): Promise<{ outcomeStatus: string | null; events: StoredOutcomeEvent[] } | null> {
  const locked = await db.prisma.$queryRaw<Array<{ outcome_status: string | null }>>`
    SELECT outcome_status FROM referrals WHERE id = ${referralId}::uuid FOR NO KEY UPDATE`;
  if (locked.length === 0) return null;
  const events = await db.prisma.referralOutcome.findMany({
    where: { referralId },
    orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      eventId: true,
      type: true,
      occurredAt: true,
      fundedAmountCents: true,
      fundedAt: true,
      receivedAt: true,
    },
  });
  return {
    outcomeStatus: locked[0].outcome_status,
    events: events.map((e) => ({ ...e, fundedAmountCents: num(e.fundedAmountCents) })),
  };
}

/** Writes an event; false, writing nothing, when the lender already sent one with this `eventId`. */
export async function insertOutcome(
  db: Db,
  event: {
    id: string;
    referralId: string;
    lenderId: string;
    eventId: string;
    type: string;
    occurredAt: Date;
    fundedAmountCents: number | null;
    fundedAt: Date | null;
    declineReason: string | null;
    keyId: string | null;
    fingerprint: string;
    answer: string;
    receivedAt: Date;
  },
): Promise<boolean> {
  const { count } = await db.prisma.referralOutcome.createMany({
    data: [{ ...event, fundedAmountCents: event.fundedAmountCents === null ? null : BigInt(event.fundedAmountCents) }],
    skipDuplicates: true,
  });
  return count === 1;
}

export async function updateReferralOutcome(db: Db, referralId: string, summary: OutcomeSummaryRow): Promise<void> {
  const big = (v: number | null) => (v === null ? null : BigInt(v));
  await db.prisma.referral.update({
    where: { id: referralId },
    data: {
      ...summary,
      fundedAmountCents: big(summary.fundedAmountCents),
      commissionCents: big(summary.commissionCents),
    },
    select: { id: true },
  });
}

/** A product's `commission` as the catalogue states it now (for referrals whose offer carried none). */
export async function findProductCommission(db: Db, productId: string): Promise<unknown> {
  const row = await db.prisma.product.findUnique({ where: { id: productId }, select: { definition: true } });
  return (row?.definition as { commission?: unknown } | undefined)?.commission ?? null;
}
