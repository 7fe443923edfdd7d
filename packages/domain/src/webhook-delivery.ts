/** The rules of webhook delivery, apart from the HTTP that carries it (`packages/http/src/webhooks`). */
import { randomUUID } from 'node:crypto';
import {
  claimDueDeliveries,
  deleteHistoryBefore,
  disableWebhook,
  insertAttempt,
  insertDisclosure,
  markWebhookAnswered,
  markWebhookFailing,
  settleDelivery,
  type DeliveryState,
} from '@loanmatch/db';
import type { DomainContext } from './context';
import { LEAD_CREATED_EVENT, leadForDelivery } from './leads';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Each wait is stretched or shrunk by up to this share, at random, so retries of many events spread out. */
const RETRY_JITTER = 0.1;
const MAX_RETRY_AFTER_MS = DAY;
const WEBHOOK_HISTORY_MS = 30 * DAY;

export interface RetryPolicy {
  /** Waits before the 2nd, 3rd, … attempt; its length is the number of retries. */
  readonly retryDelaysMs: readonly number[];
  /** An endpoint with no 2xx answer for this long is disabled. */
  readonly disableAfterMs: number;
  readonly random?: () => number;
}

/** Eight attempts over 27 h 35 min (at least 24 h 50 min with jitter); an endpoint failing for 5 days is disabled. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  retryDelaysMs: Object.freeze([5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]),
  disableAfterMs: 5 * DAY,
});

export type DeliveryJob = Awaited<ReturnType<typeof claimWebhookDeliveries>>[number];

/** What one HTTP attempt came to. `error` is a fixed code, never text from the endpoint. */
export type AttemptResult =
  | { ok: true; status: number; durationMs: number }
  | { ok: false; status?: number; error: string; durationMs: number; retryAfterMs?: number };

export interface AttemptOutcome {
  state: DeliveryState;
  nextAttemptAt?: Date;
  /** The reason partners see, when this attempt disabled the endpoint. */
  disabled?: string;
}

/**
 * Claims due deliveries for `leaseMs`, after which another dispatcher may take one over; those of an
 * endpoint disabled or deleted since are cancelled instead.
 */
export async function claimWebhookDeliveries(ctx: DomainContext, options: { limit: number; leaseMs: number }) {
  const now = ctx.clock();
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const claimed = await claimDueDeliveries(ctx.db, { now, leaseUntil, claimToken: randomUUID(), limit: options.limit });
  const jobs = [];
  for (const row of claimed) {
    // A lead is read as it stands when it is sent; one erased or past its retention is sent no more.
    const lead = row.eventType === LEAD_CREATED_EVENT ? await leadForDelivery(ctx, row.data) : undefined;
    if (row.deleted || row.status !== 'active' || lead === null) {
      const { id, claimToken, attempts } = row;
      await settleDelivery(ctx.db, { id, claimToken, state: 'cancelled', attempts, at: now });
      continue;
    }
    const sealed = [row.secretSealed];
    if (row.previousSecretSealed && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now)
      sealed.push(row.previousSecretSealed);
    jobs.push({
      deliveryId: row.id,
      claimToken: row.claimToken,
      webhookId: row.webhookId,
      url: row.url,
      eventId: row.eventId,
      eventType: row.eventType,
      body: webhookBody({ type: row.eventType, createdAt: row.eventCreatedAt, data: lead?.data ?? row.data }),
      attempt: row.attempts + 1,
      /** A lead's delivery: recorded as disclosed when it is acknowledged. */
      disclosure: lead?.disclosure,
      secrets: sealed.map((s) => ctx.webhooks.secrets.open(s)).filter((s): s is string => s !== undefined),
    });
  }
  return jobs;
}

function retryDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number | undefined {
  const base = policy.retryDelaysMs[attempt - 1];
  if (base === undefined) return undefined;
  const jittered = Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * (policy.random ?? Math.random)()));
  return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/**
 * Records an attempt and settles its delivery, in one transaction. A claim lost meanwhile to another
 * dispatcher still records the attempt but leaves the delivery alone.
 */
export async function recordDeliveryAttempt(
  ctx: DomainContext,
  job: DeliveryJob,
  result: AttemptResult,
  policy: RetryPolicy,
): Promise<AttemptOutcome> {
  const now = ctx.clock();
  return ctx.db.transaction(async (tx) => {
    const settle = (state: DeliveryState, nextAttemptAt?: Date) =>
      settleDelivery(tx, {
        id: job.deliveryId,
        claimToken: job.claimToken,
        state,
        attempts: job.attempt,
        nextAttemptAt,
        at: now,
      });
    let outcome: AttemptOutcome;
    if (result.ok) {
      await settle('succeeded');
      await markWebhookAnswered(tx, job.webhookId, now);
      if (job.disclosure) await insertDisclosure(tx, { ...job.disclosure, channel: 'push', at: now });
      outcome = { state: 'succeeded' };
    } else if (result.status === 410) {
      await settle('failed');
      const reason = `The endpoint answered 410 Gone at ${now.toISOString()}; register it again to receive events`;
      await disableWebhook(tx, job.webhookId, reason, now);
      outcome = { state: 'failed', disabled: reason };
    } else {
      const failingSince = await markWebhookFailing(tx, job.webhookId, now);
      const delay = retryDelay(policy, job.attempt, result.retryAfterMs);
      if (now.getTime() - failingSince.getTime() >= policy.disableAfterMs) {
        await settle('failed');
        const reason = `No 2xx answer since ${failingSince.toISOString()} (${describeDuration(policy.disableAfterMs)}); disabled at ${now.toISOString()}. Register the endpoint again once it is fixed`;
        await disableWebhook(tx, job.webhookId, reason, now);
        outcome = { state: 'failed', disabled: reason };
      } else if (delay === undefined) {
        await settle('failed');
        outcome = { state: 'failed' };
      } else {
        const nextAttemptAt = new Date(now.getTime() + delay);
        outcome = (await settle('pending', nextAttemptAt)) ? { state: 'pending', nextAttemptAt } : { state: 'pending' };
      }
    }
    await insertAttempt(tx, {
      id: randomUUID(),
      deliveryId: job.deliveryId,
      webhookId: job.webhookId,
      eventId: job.eventId,
      eventType: job.eventType,
      attempt: job.attempt,
      attemptedAt: new Date(now.getTime() - Math.max(0, Math.round(result.durationMs))),
      durationMs: Math.max(0, Math.round(result.durationMs)),
      outcome: result.ok ? 'succeeded' : 'failed',
      responseStatus: result.status ?? null,
      error: result.ok ? null : result.error,
      nextAttemptAt: outcome.nextAttemptAt ?? null,
    });
    return outcome;
  });
}

/** Forgets attempts, finished deliveries and events older than `WEBHOOK_HISTORY_MS`; what is pending stays. */
export async function sweepWebhookHistory(ctx: DomainContext): Promise<void> {
  await deleteHistoryBefore(ctx.db, new Date(ctx.clock().getTime() - WEBHOOK_HISTORY_MS));
}

function describeDuration(ms: number): string {
  if (ms % DAY === 0) return `${ms / DAY} day${ms === DAY ? '' : 's'}`;
  if (ms % HOUR === 0) return `${ms / HOUR} hour${ms === HOUR ? '' : 's'}`;
  if (ms % MINUTE === 0) return `${ms / MINUTE} minute${ms === MINUTE ? '' : 's'}`;
  return `${ms / SECOND} seconds`;
}

/** The body every attempt of an event sends and signs: `{type, timestamp, data}`, the same each time. */
export function webhookBody(event: { type: string; createdAt: Date; data: unknown }): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data });
}
