/**
 * The one place an application's status is written, and the outbox its events go to.
 *
 * Every status change (create → `draft`, a step → `in_progress`, the credit check → `credit_checked`, a
 * match → `matched`, a followed link → `referred`) goes through `insertApplicationWithEvent` or
 * `advanceApplication`, inside the caller's transaction. Each writes the change and its
 * `application.status_changed` event (with a delivery per subscribed endpoint) in that one transaction:
 * an event exists exactly when its change committed, and none is sent for a change that rolled back.
 *
 * Payloads carry identifiers, statuses and the last step only: no personal information, no score.
 */
import { randomUUID } from 'node:crypto';
import { applications, webhooks, type ApplicationRow, type Json, type Queryable } from '@loanmatch/db';
import type { DomainContext } from './context';
import { laterStatus, type ApplicationStatus } from './status';

export const STATUS_CHANGED_EVENT = 'application.status_changed';
export const TEST_EVENT = 'webhook.test';

/** `data` of `application.status_changed` (CONTRACT.md). `previousStatus` is null when the application was created. */
export interface StatusChangedData extends Json {
  applicationId: string;
  status: string;
  previousStatus: string | null;
  lastStep: number;
}

/** Event ids are the `webhook-id` of every attempt: stable across retries, unique across events. */
export const newEventId = (): string => `evt_${randomUUID().replace(/-/g, '')}`;

/**
 * Writes an event to the outbox inside `tx`, with a delivery for each of the partner's active endpoints
 * subscribed to its type (or for `webhookId` alone). The body is fixed now, `{type, timestamp, data}`,
 * and sent unchanged on every attempt. Answers the event's id.
 */
export async function enqueueEvent(
  ctx: DomainContext,
  tx: Queryable,
  event: { partnerId: string; applicationId: string | null; type: string; data: Json; webhookId?: string },
): Promise<string> {
  const at = ctx.clock();
  const id = newEventId();
  const body = JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data });
  const deliveries = await webhooks.insertEvent(tx, { id, partnerId: event.partnerId, applicationId: event.applicationId, type: event.type, body, at, webhookId: event.webhookId });
  // Before the commit, so the nudge is a hint: the dispatcher looks again shortly, and polls anyway.
  if (deliveries > 0) ctx.webhooks.notify();
  return id;
}

/** Creates an application in `draft` and announces it (`previousStatus: null`), in the caller's transaction. */
export async function insertApplicationWithEvent(
  ctx: DomainContext,
  tx: Queryable,
  app: { id: string; partnerId: string; formType: string; step1: Json; securityTokenHash?: string },
): Promise<ApplicationRow> {
  const row = await applications.insertApplication(tx, { ...app, status: 'draft' });
  await announce(ctx, tx, row.partnerId, { applicationId: row.id, status: row.status, previousStatus: null, lastStep: row.lastStep });
  return row;
}

/**
 * Changes an application inside the caller's transaction: locks its row, moves the status forward to `to`
 * (never back: `laterStatus`), raises `lastStep` to at least `lastStep`, and writes a step's data when one
 * is given. When the status moved, `application.status_changed` is written in the same transaction.
 * The row lock makes concurrent changes of one application take turns, so each event names the status
 * its change really left behind, and events are numbered in the order the changes committed.
 *
 * Answers the application as written when a step was given; otherwise undefined (nothing more to read).
 * An application that no longer exists is left alone (undefined).
 */
export async function advanceApplication(
  ctx: DomainContext,
  tx: Queryable,
  change: { applicationId: string; to: ApplicationStatus; lastStep?: number; step?: { number: 2 | 3 | 4; data: Json } },
): Promise<ApplicationRow | undefined> {
  const current = await applications.lockApplication(tx, change.applicationId);
  if (!current) return undefined;
  const status = laterStatus(current.status as ApplicationStatus, change.to);
  const lastStep = Math.max(current.lastStep, change.lastStep ?? 0);
  let row: ApplicationRow | undefined;
  if (change.step) {
    row = await applications.updateStep(tx, change.applicationId, { step: change.step.number, data: change.step.data, status, lastStep });
  } else if (status !== current.status || lastStep !== current.lastStep) {
    await applications.updateStatus(tx, change.applicationId, { status, lastStep });
  }
  if (status !== current.status) {
    await announce(ctx, tx, current.partnerId, { applicationId: change.applicationId, status, previousStatus: current.status, lastStep });
  }
  return row;
}

function announce(ctx: DomainContext, tx: Queryable, partnerId: string, data: StatusChangedData): Promise<string> {
  return enqueueEvent(ctx, tx, { partnerId, applicationId: data.applicationId, type: STATUS_CHANGED_EVENT, data });
}
