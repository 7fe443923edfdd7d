/**
 * Webhook endpoints, the event outbox, deliveries and their attempts. The database fans each event out to
 * a delivery per endpoint that takes it; dispatchers claim due deliveries with `FOR UPDATE SKIP LOCKED`.
 */
import { sql, type Json, type Sql, type Transactional } from '../connect';

export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/** Whose endpoints: a partner's, or a lender's of one environment. */
export type WebhookOwner = { partnerId: string } | { lenderId: string; environment: string };
/** The owner's columns `partner_id, lender_id, environment`. */
const ownerColumns = (o: WebhookOwner) =>
  'partnerId' in o ? sql`${o.partnerId}, NULL, NULL` : sql`NULL, ${o.lenderId}, ${o.environment}`;
/** The owner's test. */
const ownedBy = (o: WebhookOwner) =>
  'partnerId' in o
    ? sql`partner_id = ${o.partnerId}`
    : sql`(lender_id = ${o.lenderId} AND environment = ${o.environment})`;

export interface WebhookRow {
  id: string;
  partnerId: string | null;
  url: string;
  events: string[];
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  status: string;
  disabledReason: string | null;
  disabledAt: Date | null;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  createdAt: Date;
}

const WEBHOOK = sql`id, partner_id AS "partnerId", url, events, secret_sealed AS "secretSealed",
  previous_secret_sealed AS "previousSecretSealed", previous_secret_expires_at AS "previousSecretExpiresAt", status,
  disabled_reason AS "disabledReason", disabled_at AS "disabledAt", failing_since AS "failingSince",
  last_success_at AS "lastSuccessAt", created_at AS "createdAt"`;

export async function insertWebhook(
  db: Sql,
  w: { id: string; owner: WebhookOwner; url: string; events: string[]; secretSealed: string; at: Date },
): Promise<WebhookRow> {
  const [row] = await db.query<WebhookRow>(sql`
    INSERT INTO webhooks (id, url, events, secret_sealed, status, created_at, partner_id, lender_id, environment)
    VALUES (${w.id}, ${w.url}, ${w.events}, ${w.secretSealed}, 'active', ${w.at}, ${ownerColumns(w.owner)})
    RETURNING ${WEBHOOK}`);
  return row;
}

/** The owner's webhooks that are not deleted, oldest first. */
export async function listPartnerWebhooks(db: Sql, owner: WebhookOwner): Promise<WebhookRow[]> {
  return db.query(
    sql`SELECT ${WEBHOOK} FROM webhooks WHERE ${ownedBy(owner)} AND deleted_at IS NULL ORDER BY created_at, id`,
  );
}

/** The owner's webhook, or null for another's, a deleted or an unknown one. */
export async function findWebhook(db: Sql, id: string, owner: WebhookOwner): Promise<WebhookRow | null> {
  const [row] = await db.query<WebhookRow>(
    sql`SELECT ${WEBHOOK} FROM webhooks WHERE id = ${id} AND ${ownedBy(owner)} AND deleted_at IS NULL`,
  );
  return row ?? null;
}

/** Hides the webhook and cancels what it had pending, in one transaction; false when there was no such webhook. */
export async function removeWebhook(db: Transactional, id: string, owner: WebhookOwner, at: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const hidden = await tx.query(sql`
      UPDATE webhooks SET deleted_at = ${at}
       WHERE id = ${id} AND ${ownedBy(owner)} AND deleted_at IS NULL RETURNING 1`);
    if (hidden.length === 1) await cancelPendingDeliveries(tx, id, at);
    return hidden.length === 1;
  });
}

export async function rotateSecret(
  db: Sql,
  id: string,
  s: { secretSealed: string; previousSecretSealed: string; previousSecretExpiresAt: Date },
): Promise<void> {
  await db.query(sql`
    UPDATE webhooks SET secret_sealed = ${s.secretSealed}, previous_secret_sealed = ${s.previousSecretSealed},
           previous_secret_expires_at = ${s.previousSecretExpiresAt}
     WHERE id = ${id}`);
}

/** Disables an active webhook and cancels its pending deliveries; false when it was not active. */
export async function disableWebhook(tx: Sql, id: string, reason: string, at: Date): Promise<boolean> {
  const disabled = await tx.query(sql`
    UPDATE webhooks SET status = 'disabled', disabled_reason = ${reason}, disabled_at = ${at}
     WHERE id = ${id} AND status = 'active' RETURNING 1`);
  await cancelPendingDeliveries(tx, id, at);
  return disabled.length === 1;
}

export async function markWebhookAnswered(tx: Sql, id: string, at: Date): Promise<void> {
  await tx.query(sql`UPDATE webhooks SET failing_since = NULL, last_success_at = ${at} WHERE id = ${id}`);
}

/** Notes a failed attempt; answers since when the endpoint has been failing without a success. */
export async function markWebhookFailing(tx: Sql, id: string, at: Date): Promise<Date> {
  const [row] = await tx.query<{ since: Date }>(sql`
    UPDATE webhooks SET failing_since = coalesce(failing_since, ${at}) WHERE id = ${id} RETURNING failing_since AS since`);
  return row?.since ?? at;
}

async function cancelPendingDeliveries(tx: Sql, webhookId: string, at: Date): Promise<void> {
  await tx.query(sql`
    UPDATE webhook_deliveries SET state = 'cancelled', completed_at = ${at}, lease_until = NULL, claim_token = NULL
     WHERE webhook_id = ${webhookId} AND state = 'pending'`);
}

export type NewEvent = { partnerId: string; applicationId: string | null; type: string; data: Json; at: Date };

/** Writes an event to the outbox, for every endpoint that takes it or (`webhookId`) for one; answers its id. */
export async function insertEvent(db: Sql, event: NewEvent & { webhookId?: string }): Promise<string> {
  const [row] = await db.query<{ id: string }>(sql`
    INSERT INTO webhook_events (partner_id, application_id, webhook_id, type, data, created_at)
    VALUES (${event.partnerId}, ${event.applicationId}, ${event.webhookId ?? null}, ${event.type},
            ${JSON.stringify(event.data)}, ${event.at})
    RETURNING id`);
  return row.id;
}

/** A claimed delivery, with its event and its endpoint as it stands. */
export interface ClaimedDelivery
  extends Pick<WebhookRow, 'url' | 'status' | 'secretSealed' | 'previousSecretSealed' | 'previousSecretExpiresAt'> {
  id: string;
  claimToken: string;
  attempts: number;
  eventId: string;
  eventType: string;
  data: Json;
  eventCreatedAt: Date;
  webhookId: string;
  deleted: boolean;
}

/**
 * Claims up to `limit` due deliveries until `leaseUntil`, in order of their events' creation. A delivery
 * is due when pending, its time has come and no lease runs on it (a dispatcher that died mid-attempt lets
 * its lease run out), and no earlier event of the same application is pending for the same endpoint (of any
 * application for a lender's endpoint: its leads go in the order the referrals were made).
 */
export async function claimDueDeliveries(
  db: Sql,
  options: { now: Date; leaseUntil: Date; claimToken: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const { now, leaseUntil, claimToken, limit } = options;
  return db.query(sql`
    WITH claimed AS (
      UPDATE webhook_deliveries AS d SET lease_until = ${leaseUntil}, claim_token = ${claimToken}
        FROM (
          SELECT c.id FROM webhook_deliveries c JOIN webhooks w ON w.id = c.webhook_id
           WHERE c.state = 'pending' AND c.next_attempt_at <= ${now}
             AND (c.lease_until IS NULL OR c.lease_until <= ${now})
             AND NOT EXISTS (
                   SELECT 1 FROM webhook_deliveries e
                    WHERE e.webhook_id = c.webhook_id AND e.state = 'pending' AND e.seq < c.seq
                      AND (e.application_id = c.application_id OR w.lender_id IS NOT NULL))
           ORDER BY c.seq, c.id
           LIMIT ${limit}
             FOR UPDATE OF c SKIP LOCKED
        ) AS due
       WHERE d.id = due.id
      RETURNING d.id, d.seq, d.claim_token, d.attempts, d.event_id, d.webhook_id
    )
    SELECT d.id, d.claim_token AS "claimToken", d.attempts, e.id AS "eventId", e.type AS "eventType", e.data,
           e.created_at AS "eventCreatedAt", w.id AS "webhookId", w.url, w.status, w.deleted_at IS NOT NULL AS deleted,
           w.secret_sealed AS "secretSealed", w.previous_secret_sealed AS "previousSecretSealed",
           w.previous_secret_expires_at AS "previousSecretExpiresAt"
      FROM claimed d JOIN webhook_events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id
     ORDER BY d.seq, d.id`);
}

/** Settles a claimed delivery (`pending` again with its next time, or final); false when the claim was lost. */
export async function settleDelivery(
  db: Sql,
  d: { id: string; claimToken: string; state: DeliveryState; attempts: number; nextAttemptAt?: Date; at: Date },
): Promise<boolean> {
  const settled = await db.query(sql`
    UPDATE webhook_deliveries SET state = ${d.state}, attempts = ${d.attempts}, lease_until = NULL, claim_token = NULL,
           next_attempt_at = COALESCE(${d.nextAttemptAt ?? null}, next_attempt_at),
           completed_at = CASE WHEN ${d.state} = 'pending' THEN completed_at ELSE ${d.at} END
     WHERE id = ${d.id} AND claim_token = ${d.claimToken} AND state = 'pending' RETURNING 1`);
  return settled.length === 1;
}

export interface AttemptRow {
  id: string;
  deliveryId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  attemptedAt: Date;
  durationMs: number;
  outcome: string;
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
}

export async function insertAttempt(tx: Sql, a: AttemptRow): Promise<void> {
  await tx.query(sql`
    INSERT INTO webhook_attempts (id, delivery_id, webhook_id, event_id, event_type, attempt, attempted_at,
                                  duration_ms, outcome, response_status, error, next_attempt_at)
    VALUES (${a.id}, ${a.deliveryId}, ${a.webhookId}, ${a.eventId}, ${a.eventType}, ${a.attempt}, ${a.attemptedAt},
            ${a.durationMs}, ${a.outcome}, ${a.responseStatus}, ${a.error}, ${a.nextAttemptAt})`);
}

/** A webhook's attempts, newest first. */
export async function listAttempts(db: Sql, webhookId: string, limit: number): Promise<AttemptRow[]> {
  return db.query(sql`
    SELECT id, delivery_id AS "deliveryId", webhook_id AS "webhookId", event_id AS "eventId", event_type AS "eventType",
           attempt, attempted_at AS "attemptedAt", duration_ms AS "durationMs", outcome,
           response_status AS "responseStatus", error, next_attempt_at AS "nextAttemptAt"
      FROM webhook_attempts WHERE webhook_id = ${webhookId}
     ORDER BY attempted_at DESC, attempt DESC, id DESC LIMIT ${limit}`);
}

export async function countPendingDeliveries(db: Sql, webhookId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND state = 'pending'`,
  );
  return row.n;
}

/** Forgets attempts, finished deliveries, and events with no delivery left, older than `before`. */
export async function deleteHistoryBefore(db: Sql, before: Date): Promise<void> {
  await db.query(sql`DELETE FROM webhook_attempts WHERE attempted_at < ${before}`);
  await db.query(sql`DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ${before}`);
  await db.query(sql`
    DELETE FROM webhook_events e
     WHERE e.created_at < ${before} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`);
}
