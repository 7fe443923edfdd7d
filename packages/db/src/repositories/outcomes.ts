/**
 * Lenders' outcome events and what they come to on each referral. An event is written with its referral's
 * row locked, so the events of one referral are decided one after the other, each seeing those before it.
 */
import { sql, type Json, type Sql } from '../connect';
import { insertEvent, type NewEvent } from './webhooks';

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
  /** When the applicant followed the link: no event of the referral happened before. */
  referredAt: Date;
  /** `owner`, or `duplicate` (another partner's referral owns the applicant): a duplicate earns no commission. */
  attribution: string;
}

/** What the events of a referral come to, as the referral keeps it for lists and reports. */
export interface OutcomeSummaryRow {
  status: string;
  outcomeAt: Date;
  started: boolean;
  approved: boolean;
  fundedAmountCents: number | null;
  fundedAt: Date | null;
  fundingStands: boolean;
  commissionCents: number | null;
}

/** The lender's event with this id (its fingerprint and first answer), or null. */
export async function findOutcomeByEventId(db: Sql, lenderId: string, eventId: string) {
  const [row] = await db.query<{ fingerprint: string; answer: string }>(sql`
    SELECT fingerprint, answer FROM referral_outcomes WHERE lender_id = ${lenderId} AND event_id = ${eventId}`);
  return row ?? null;
}

/** The referral a lender was given `offerId` for (its `lm_ref`), with its partner's environment. */
export async function findReferralByOfferId(db: Sql, offerId: string): Promise<ReferralForOutcome | null> {
  const [row] = await db.query<ReferralForOutcome>(sql`
    SELECT r.id, r.lender_id AS "lenderId", r.partner_id AS "partnerId", p.environment AS "partnerEnvironment",
           r.application_id AS "applicationId", r.product_id AS "productId", r.client_tags AS "clientTags",
           r.commission_terms AS "commissionTerms", r.created_at AS "referredAt", r.attribution
      FROM referrals r JOIN partners p ON p.id = r.partner_id WHERE r.offer_id = ${offerId}`);
  return row ?? null;
}

/**
 * Locks the referral's row until the transaction ends and answers its outcome status and every event kept
 * for it, in the order they arrived; null when the referral is gone.
 */
export async function lockReferralOutcomes(
  tx: Sql,
  referralId: string,
): Promise<{ outcomeStatus: string | null; events: StoredOutcomeEvent[] } | null> {
  const [locked] = await tx.query<{ outcomeStatus: string | null }>(sql`
    SELECT outcome_status AS "outcomeStatus" FROM referrals WHERE id = ${referralId} FOR NO KEY UPDATE`);
  if (!locked) return null;
  const events = await tx.query<StoredOutcomeEvent>(sql`
    SELECT id, event_id AS "eventId", type, occurred_at AS "occurredAt", funded_amount_cents AS "fundedAmountCents",
           funded_at AS "fundedAt", received_at AS "receivedAt"
      FROM referral_outcomes WHERE referral_id = ${referralId} ORDER BY received_at, id`);
  return { outcomeStatus: locked.outcomeStatus, events };
}

/**
 * An event's writes, inside the transaction that locked its referral: the event with what answers its
 * replay (`kept`) and what the referral's events now come to, in one statement, then the webhook event
 * announcing a change of status (`changed`). False, writing nothing, when the lender already sent an
 * event with this `eventId`.
 */
export async function recordOutcomeEvent(
  tx: Sql,
  e: Omit<StoredOutcomeEvent, 'receivedAt'> & {
    referralId: string;
    lenderId: string;
    keyId: string | null;
    declineReason: string | null;
  },
  kept: { fingerprint: string; answer: string; receivedAt: Date },
  summary: OutcomeSummaryRow,
  changed?: NewEvent,
): Promise<boolean> {
  const [row] = await tx.query<{ recorded: boolean }>(sql`
    WITH event AS (
      INSERT INTO referral_outcomes (id, referral_id, lender_id, key_id, event_id, type, occurred_at,
                                     funded_amount_cents, funded_at, decline_reason, fingerprint, answer, received_at)
      VALUES (${e.id}, ${e.referralId}, ${e.lenderId}, ${e.keyId}, ${e.eventId}, ${e.type}, ${e.occurredAt},
              ${e.fundedAmountCents}, ${e.fundedAt}, ${e.declineReason}, ${kept.fingerprint}, ${kept.answer},
              ${kept.receivedAt})
      ON CONFLICT DO NOTHING RETURNING referral_id
    ), summary AS (
      UPDATE referrals SET outcome_status = ${summary.status}, outcome_at = ${summary.outcomeAt},
             outcome_started = ${summary.started}, outcome_approved = ${summary.approved},
             funded_amount_cents = ${summary.fundedAmountCents}, funded_at = ${summary.fundedAt},
             funding_stands = ${summary.fundingStands}, commission_cents = ${summary.commissionCents}
       WHERE id = (SELECT referral_id FROM event)
    )
    SELECT EXISTS (SELECT 1 FROM event) AS recorded`);
  if (!row.recorded) return false;
  if (changed) await insertEvent(tx, changed);
  return true;
}
