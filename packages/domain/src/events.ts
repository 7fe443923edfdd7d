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
import type { ApplicationRow, CheckCompletion, CompletedKey, Json, OutboxEvent, Repositories } from '@loanmatch/db';
import type { DomainContext } from './context';
import { DomainError } from './errors';
import { PERSONAL_DATA_ERASED_MESSAGE } from './personal-data';
import { sealStep } from './sealed-fields';
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

/** What a new application holds besides its step 1. */
export const NEW_APPLICATION: { readonly status: ApplicationStatus; readonly lastStep: number } = {
  status: 'draft',
  lastStep: 1,
};

/** Event ids are the `webhook-id` of every attempt: stable across retries, unique across events. */
export const newEventId = (): string => `evt_${randomUUID().replace(/-/g, '')}`;

/**
 * Writes an event to the outbox inside `tx`, with a delivery for each of the partner's active endpoints
 * subscribed to its type (or for `webhookId` alone). The body is fixed now, `{type, timestamp, data}`,
 * and sent unchanged on every attempt. Answers the event's id.
 */
export async function enqueueEvent(
  ctx: DomainContext,
  tx: Repositories,
  event: { partnerId: string; applicationId: string | null; type: string; data: Json; webhookId?: string },
): Promise<string> {
  const outbox = outboxEvent(ctx, event);
  const deliveries = await tx.webhooks.insertEvent(outbox);
  // Before the commit, so the nudge is a hint: the dispatcher looks again shortly, and polls anyway.
  if (deliveries > 0) ctx.webhooks.notify();
  return outbox.id;
}

/** The event as the outbox keeps it: a new id, and the body `{type, timestamp, data}` fixed now. */
function outboxEvent(
  ctx: DomainContext,
  event: { partnerId: string; applicationId: string | null; type: string; data: Json; webhookId?: string },
): OutboxEvent {
  const at = ctx.clock();
  const body = JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data });
  return {
    id: newEventId(),
    partnerId: event.partnerId,
    applicationId: event.applicationId,
    type: event.type,
    body,
    at,
    webhookId: event.webhookId,
  };
}

function statusEvent(ctx: DomainContext, partnerId: string, data: StatusChangedData): OutboxEvent {
  return outboxEvent(ctx, { partnerId, applicationId: data.applicationId, type: STATUS_CHANGED_EVENT, data });
}

/** Creates an application in `draft` and announces it (`previousStatus: null`), in the caller's transaction. */
export async function insertApplicationWithEvent(
  ctx: DomainContext,
  tx: Repositories,
  app: {
    id: string;
    partnerId: string;
    formType: string;
    step1: Json;
    securityTokenHash?: string;
    clientTags?: Record<string, string>;
  },
): Promise<ApplicationRow> {
  const row = await tx.applications.insertApplication({ ...app, status: 'draft' });
  await announce(ctx, tx, row.partnerId, {
    applicationId: row.id,
    status: row.status,
    previousStatus: null,
    lastStep: row.lastStep,
  });
  return row;
}

/**
 * Changes an application inside the caller's transaction: locks its row, moves the status forward to `to`
 * (never back: `laterStatus`), raises `lastStep` to at least `lastStep`, and writes a step's data when one
 * is given. When the status moved, `application.status_changed` is written in the same transaction.
 * The row lock makes concurrent changes of one application take turns, so each event names the status
 * its change really left behind, and events are numbered in the order the changes committed. The
 * change and its event are one statement (`changeReadApplication`'s).
 *
 * Answers the application as written; undefined when it no longer exists (it is then left alone).
 */
export async function advanceApplication(
  ctx: DomainContext,
  tx: Repositories,
  change: { applicationId: string; to: ApplicationStatus; lastStep?: number; step?: { number: 2 | 3 | 4; data: Json } },
): Promise<ApplicationRow | undefined> {
  const current = await tx.applications.lockApplication(change.applicationId);
  if (!current) return undefined;
  const written = await writeChange(ctx, tx, { id: change.applicationId, ...current }, change, true);
  return written ? written.row! : undefined;
}

/**
 * `insertApplicationWithEvent` as one statement of its own, outside any transaction: the application in
 * `draft`, its event and, under an idempotency key, the key completed (`withIdempotentWrite`). False,
 * with nothing written, when the key is already held.
 */
export async function createAnnouncedApplication(
  ctx: DomainContext,
  app: { id: string; partnerId: string; formType: string; step1: Json; clientTags?: Record<string, string> },
  key: CompletedKey | undefined,
): Promise<boolean> {
  const created = {
    id: app.id,
    partnerId: app.partnerId,
    formType: app.formType,
    step1: app.step1,
    clientTags: app.clientTags,
    status: NEW_APPLICATION.status,
    lastStep: NEW_APPLICATION.lastStep,
  };
  const event = statusEvent(ctx, app.partnerId, {
    applicationId: app.id,
    status: created.status,
    previousStatus: null,
    lastStep: created.lastStep,
  });
  const { inserted, deliveries } = await ctx.repos.statusChanges.insertApplication({ app: created, event, key });
  if (deliveries > 0) ctx.webhooks.notify();
  return inserted;
}

/**
 * `advanceApplication` in one statement, for an application the caller has read (`app`, with the
 * status and last step it read): the step's data, the status moved forward to `to`, `lastStep`
 * raised, a match run, and the event when the status moved, written together. Nothing is
 * locked in advance: the statement moves the status only if the application still holds what was
 * read, and when another change came first the decision is made again on what it holds now, so each
 * event names the status its change really left. Answers the application as written, or undefined
 * when it no longer exists.
 */
export async function changeReadApplication(
  ctx: DomainContext,
  app: { id: string; partnerId: string; status: string; lastStep: number },
  change: { to: ApplicationStatus; lastStep?: number; step?: { number: 2 | 3 | 4; data: Json } },
  /** A transaction of the caller's to make the change in; by default the statement is a transaction of its own. */
  repos: Repositories = ctx.repos,
): Promise<ApplicationRow | undefined> {
  const written = await writeChange(ctx, repos, app, change, true);
  return written ? written.row! : undefined;
}

/**
 * A match run stored with the move to `matched` (and its event), as `changeReadApplication` makes a
 * change, in one statement of its own. `offersJson` is the run's `offers` as JSON text. Answers whether
 * it was written (false: the application no longer exists); the application is not read back.
 */
export async function recordMatchRun(
  ctx: DomainContext,
  app: { id: string; partnerId: string; status: string; lastStep: number },
  run: { id: string; degradedMode: boolean; offersJson: string; at: Date },
): Promise<boolean> {
  return (await writeChange(ctx, ctx.repos, app, { to: 'matched', matchRun: run }, false)) !== undefined;
}

/**
 * A credit check completed with the move to `credit_checked` and last step 5 (and its event), as
 * `changeReadApplication` makes a change, in one statement of its own: the check's result, step 5, its
 * consent record and its idempotency key are written with the move or not at all. Answers whether it
 * was written (false: the application no longer exists). Personal data erased meanwhile throws
 * PERSONAL_DATA_ERASED, with nothing written.
 */
export async function recordCreditCheck(
  ctx: DomainContext,
  app: { id: string; partnerId: string; status: string; lastStep: number },
  check: CheckCompletion,
): Promise<boolean> {
  return (await writeChange(ctx, ctx.repos, app, { to: 'credit_checked', lastStep: 5, check }, false)) !== undefined;
}

/**
 * The change, decided on the status and last step the caller read, made again on newer ones until it
 * holds. Answers the application as written (`row`, when `withRow`), or undefined when it no longer exists.
 */
async function writeChange(
  ctx: DomainContext,
  repos: Repositories,
  app: { id: string; partnerId: string; status: string; lastStep: number },
  change: {
    to: ApplicationStatus;
    lastStep?: number;
    step?: { number: 2 | 3 | 4; data: Json };
    matchRun?: { id: string; degradedMode: boolean; offersJson: string; at: Date };
    check?: CheckCompletion;
  },
  withRow: boolean,
): Promise<{ row: ApplicationRow | null } | undefined> {
  let current = { status: app.status, lastStep: app.lastStep };
  // The step's personal fields sealed once, apart from the rest (`sealed-fields.ts`).
  const step = change.step && {
    number: change.step.number,
    ...sealStep(ctx, app.id, change.step.number, change.step.data),
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    const status = laterStatus(current.status as ApplicationStatus, change.to);
    const lastStep = Math.max(current.lastStep, change.lastStep ?? 0);
    const moves = status !== current.status || lastStep !== current.lastStep;
    const event =
      status !== current.status
        ? statusEvent(ctx, app.partnerId, { applicationId: app.id, status, previousStatus: current.status, lastStep })
        : undefined;
    const outcome = await repos.statusChanges.changeApplication({
      id: app.id,
      move: moves ? { from: current, status, lastStep, event } : undefined,
      step,
      matchRun: change.matchRun && {
        id: change.matchRun.id,
        partnerId: app.partnerId,
        degradedMode: change.matchRun.degradedMode,
        offersJson: change.matchRun.offersJson,
        at: change.matchRun.at,
      },
      check: change.check,
      withRow,
    });
    if (outcome.changed) {
      if (outcome.deliveries > 0) ctx.webhooks.notify();
      return { row: outcome.row };
    }
    if (!outcome.current) return undefined;
    // Erased after the caller read the application (a step save and a check look first): refused, nothing written.
    if ((change.step || change.check) && outcome.current.erased)
      throw new DomainError('PERSONAL_DATA_ERASED', PERSONAL_DATA_ERASED_MESSAGE);
    // The check's own claim, held since it began: gone means something is badly wrong.
    if (change.check && !outcome.current.checkRunning)
      throw new Error(`credit check of ${app.id} to complete was not found`);
    current = outcome.current;
  }
  throw new Error(`application ${app.id}: concurrent changes did not settle`);
}

function announce(ctx: DomainContext, tx: Repositories, partnerId: string, data: StatusChangedData): Promise<string> {
  return enqueueEvent(ctx, tx, { partnerId, applicationId: data.applicationId, type: STATUS_CHANGED_EVENT, data });
}
