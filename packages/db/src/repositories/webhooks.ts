import type { Sql } from '../connect';
import type { Db, Json } from './types';

/**
 * Webhook endpoints, the event outbox, deliveries and their attempts.
 *
 * An event and its deliveries (one per endpoint that subscribed) are written by `insertEvent` inside the
 * transaction of the change they announce. Dispatchers claim due deliveries with `claimDueDeliveries`,
 * one statement that locks with `FOR UPDATE SKIP LOCKED`, so several processes share the work and no
 * delivery is handed to two of them at once.
 */

export type WebhookStatus = 'active' | 'disabled';
export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface WebhookRow {
  id: string;
  partnerId: string;
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

const WEBHOOK_FIELDS = {
  id: true,
  partnerId: true,
  url: true,
  events: true,
  secretSealed: true,
  previousSecretSealed: true,
  previousSecretExpiresAt: true,
  status: true,
  disabledReason: true,
  disabledAt: true,
  failingSince: true,
  lastSuccessAt: true,
  createdAt: true,
} as const;

export async function insertWebhook(
  db: Db,
  webhook: { id: string; partnerId: string; url: string; events: string[]; secretSealed: string; at: Date },
): Promise<WebhookRow> {
  const { at, ...data } = webhook;
  return db.prisma.webhook.create({ data: { ...data, status: 'active', createdAt: at }, select: WEBHOOK_FIELDS });
}

/** A partner's webhooks that are not deleted, oldest first. */
export async function listWebhooks(db: Db, partnerId: string): Promise<WebhookRow[]> {
  return db.prisma.webhook.findMany({
    where: { partnerId, deletedAt: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: WEBHOOK_FIELDS,
  });
}

export async function countWebhooks(db: Db, partnerId: string): Promise<number> {
  return db.prisma.webhook.count({ where: { partnerId, deletedAt: null } });
}

/** The partner's webhook, or null for another partner's, a deleted or an unknown one. */
export async function findWebhook(db: Db, id: string, partnerId: string): Promise<WebhookRow | null> {
  return db.prisma.webhook.findFirst({ where: { id, partnerId, deletedAt: null }, select: WEBHOOK_FIELDS });
}

/** Hides the webhook and cancels what it had pending; false when there was no such webhook. */
export async function deleteWebhook(db: Db, id: string, partnerId: string, at: Date): Promise<boolean> {
  const { count } = await db.prisma.webhook.updateMany({
    where: { id, partnerId, deletedAt: null },
    data: { deletedAt: at },
  });
  if (count === 1) await cancelPendingDeliveries(db, id, at);
  return count === 1;
}

export async function rotateSecret(
  db: Db,
  id: string,
  secrets: { secretSealed: string; previousSecretSealed: string; previousSecretExpiresAt: Date },
): Promise<void> {
  await db.prisma.webhook.update({ where: { id }, data: secrets });
}

/** Disables an active webhook and cancels its pending deliveries; false when it was not active. */
export async function disableWebhook(db: Db, id: string, reason: string, at: Date): Promise<boolean> {
  const { count } = await db.prisma.webhook.updateMany({
    where: { id, status: 'active' },
    data: { status: 'disabled', disabledReason: reason, disabledAt: at },
  });
  await cancelPendingDeliveries(db, id, at);
  return count === 1;
}

export async function markWebhookAnswered(db: Db, id: string, at: Date): Promise<void> {
  await db.prisma.webhook.update({ where: { id }, data: { failingSince: null, lastSuccessAt: at } });
}

/** Notes a failed attempt; answers since when the endpoint has been failing without a success. */
export async function markWebhookFailing(db: Db, id: string, at: Date): Promise<Date> {
  await db.prisma.webhook.updateMany({ where: { id, failingSince: null }, data: { failingSince: at } });
  const row = await db.prisma.webhook.findUnique({ where: { id }, select: { failingSince: true } });
  return row?.failingSince ?? at;
}

async function cancelPendingDeliveries(db: Db, webhookId: string, at: Date): Promise<void> {
  await db.prisma.webhookDelivery.updateMany({
    where: { webhookId, state: 'pending' },
    data: { state: 'cancelled', completedAt: at, leaseUntil: null, claimToken: null },
  });
}

// ---------------------------------------------------------------------------------------------
// The outbox
// ---------------------------------------------------------------------------------------------

/**
 * Writes an event to the outbox, meant to run inside the transaction of the change it announces; the
 * database fans it out to the endpoints that take it (`webhook_events_fan_out`). Answers its id.
 */
export async function insertEvent(
  db: Sql,
  event: { partnerId: string; applicationId: string | null; type: string; data: Json; webhookId?: string; at: Date },
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO webhook_events (partner_id, application_id, webhook_id, type, data, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [event.partnerId, event.applicationId, event.webhookId ?? null, event.type, JSON.stringify(event.data), event.at],
  );
  return row.id;
}

/** A claimed delivery, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  claimToken: string;
  attempts: number;
  event: { id: string; type: string; data: Json; createdAt: Date };
  webhook: {
    id: string;
    url: string;
    status: string;
    deleted: boolean;
    secretSealed: string;
    previousSecretSealed: string | null;
    previousSecretExpiresAt: Date | null;
  };
}

/**
 * Claims up to `limit` due deliveries until `leaseUntil`, in order of their events' creation, in one
 * statement: `FOR UPDATE SKIP LOCKED` lets concurrent dispatchers pass over rows another one is claiming.
 * A delivery is due when pending, its time has come and no lease is running on it, and no earlier event
 * of the same application is still pending for the same endpoint (each application's order is kept).
 * A delivery whose lease ran out (its dispatcher died mid-attempt) is due again.
 */
export async function claimDueDeliveries(
  db: Db,
  options: { now: Date; leaseUntil: Date; claimToken: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const { now, leaseUntil, claimToken, limit } = options;
  const claimed = await db.prisma.$queryRaw<Array<{ id: string }>>`
    UPDATE webhook_deliveries AS d
       SET lease_until = ${leaseUntil}, claim_token = ${claimToken}::uuid
      FROM (
        SELECT c.id
          FROM webhook_deliveries c
         WHERE c.state = 'pending'
           AND c.next_attempt_at <= ${now}
           AND (c.lease_until IS NULL OR c.lease_until <= ${now})
           AND NOT EXISTS (
                 SELECT 1 FROM webhook_deliveries e
                  WHERE e.webhook_id = c.webhook_id
                    AND e.application_id = c.application_id
                    AND e.state = 'pending'
                    AND e.seq < c.seq)
         ORDER BY c.seq, c.id
         LIMIT ${limit}
           FOR UPDATE OF c SKIP LOCKED
      ) AS due
     WHERE d.id = due.id
    RETURNING d.id`;
  if (claimed.length === 0) return [];
  const rows = await db.prisma.webhookDelivery.findMany({
    where: { id: { in: claimed.map((c) => c.id) }, claimToken },
    orderBy: [{ seq: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      attempts: true,
      event: { select: { id: true, type: true, data: true, createdAt: true } },
      webhook: {
        select: {
          id: true,
          url: true,
          status: true,
          deletedAt: true,
          secretSealed: true,
          previousSecretSealed: true,
          previousSecretExpiresAt: true,
        },
      },
    },
  });
  return rows.map(({ webhook: { deletedAt, ...webhook }, event, ...row }) => ({
    ...row,
    event: { ...event, data: event.data as Json },
    claimToken,
    webhook: { ...webhook, deleted: deletedAt !== null },
  }));
}

/**
 * Settles a claimed delivery: `pending` again with its next time, or final. Only the holder of the claim
 * may; false when the claim was lost (its lease ran out and another dispatcher took the delivery).
 */
export async function settleDelivery(
  db: Db,
  delivery: { id: string; claimToken: string; state: DeliveryState; attempts: number; nextAttemptAt?: Date; at: Date },
): Promise<boolean> {
  const final = delivery.state !== 'pending';
  const { count } = await db.prisma.webhookDelivery.updateMany({
    where: { id: delivery.id, claimToken: delivery.claimToken, state: 'pending' },
    data: {
      state: delivery.state,
      attempts: delivery.attempts,
      leaseUntil: null,
      claimToken: null,
      ...(delivery.nextAttemptAt ? { nextAttemptAt: delivery.nextAttemptAt } : {}),
      ...(final ? { completedAt: delivery.at } : {}),
    },
  });
  return count === 1;
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

export async function insertAttempt(db: Db, attempt: AttemptRow): Promise<void> {
  await db.prisma.webhookAttempt.create({ data: attempt });
}

/** A webhook's attempts, newest first. */
export async function listAttempts(db: Db, webhookId: string, limit: number): Promise<AttemptRow[]> {
  return db.prisma.webhookAttempt.findMany({
    where: { webhookId },
    orderBy: [{ attemptedAt: 'desc' }, { attempt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

/** How many deliveries of a webhook are still pending (for its view). */
export async function countPendingDeliveries(db: Db, webhookId: string): Promise<number> {
  return db.prisma.webhookDelivery.count({ where: { webhookId, state: 'pending' } });
}

/**
 * Forgets history older than `before`: attempts, finished deliveries, and events with nothing left
 * pending. Pending deliveries are never removed.
 */
export async function deleteHistoryBefore(db: Db, before: Date): Promise<void> {
  await db.prisma.webhookAttempt.deleteMany({ where: { attemptedAt: { lt: before } } });
  await db.prisma.webhookDelivery.deleteMany({ where: { state: { not: 'pending' }, createdAt: { lt: before } } });
  await db.prisma.webhookEvent.deleteMany({ where: { createdAt: { lt: before }, deliveries: { none: {} } } });
}
