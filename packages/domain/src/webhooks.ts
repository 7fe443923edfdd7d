/** A partner's webhook endpoints, for both front-ends. Secrets are shown once and kept sealed, since signing reads them. */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  countPendingDeliveries,
  findWebhook,
  insertEvent,
  insertWebhook,
  listAttempts,
  listPartnerWebhooks,
  removeWebhook,
  rotateSecret,
  type AttemptRow,
  type WebhookOwner,
  type WebhookRow,
} from '@loanmatch/db';
import type { DomainContext } from './context';
import { fail, invalid, ok, violation } from './errors';
import { WEBHOOK_EVENT_TYPES, validateWebhookRequest } from './validation';
import { canonicalUuid } from './ids';
import { parsePageLimit } from './validation/page-query';
import type { Answer } from './validation/responses';

export const STATUS_CHANGED_EVENT = 'application.status_changed';
export const TEST_EVENT = 'webhook.test';

export const WEBHOOK_SECRET_PURPOSE = 'webhooks/signing-secret';
const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
export const MAX_WEBHOOKS_PER_PARTNER = 10;

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

type WebhookView = Answer<'Webhook'>;
type AttemptView = Answer<'DeliveryAttempt'>;

function toView(row: WebhookRow, now: Date) {
  const overlap =
    row.previousSecretSealed && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now
      ? row.previousSecretExpiresAt
      : null;
  return {
    webhookId: row.id,
    url: row.url,
    events: [...row.events] as WebhookView['events'],
    status: row.status as WebhookView['status'],
    disabledReason: row.disabledReason,
    disabledAt: iso(row.disabledAt),
    failingSince: iso(row.failingSince),
    lastSuccessAt: iso(row.lastSuccessAt),
    previousSecretExpiresAt: iso(overlap),
    createdAt: row.createdAt.toISOString(),
  };
}

/** `POST /webhooks`: the URL must pass the environment's destination rules; answers the secret this once. */
export async function registerWebhook(
  ctx: DomainContext,
  options: WebhookOwner & { body: unknown; events?: readonly string[] },
) {
  const request = validateWebhookRequest(options.body);
  if (!request.ok) return request;
  const destination = await ctx.webhooks.checkDestination(request.value.url);
  if (!destination.ok) return invalid(violation('url', destination.rule, destination.text));
  if ((await listPartnerWebhooks(ctx.db, options)).length >= MAX_WEBHOOKS_PER_PARTNER) {
    const who = 'partnerId' in options ? 'A partner' : 'A lender';
    const message = `${who} may have ${MAX_WEBHOOKS_PER_PARTNER} webhooks; delete one before registering another`;
    return fail('WEBHOOK_LIMIT_REACHED', message);
  }
  const secret = newWebhookSecret();
  const now = ctx.clock();
  const row = await insertWebhook(ctx.db, {
    id: randomUUID(),
    owner: options,
    url: destination.url,
    events: [...new Set(options.events ?? request.value.events ?? WEBHOOK_EVENT_TYPES)],
    secretSealed: ctx.webhooks.secrets.seal(secret),
    at: now,
  });
  return ok({ ...toView(row, now), secret });
}

export async function listWebhooks(ctx: DomainContext, options: WebhookOwner) {
  const now = ctx.clock();
  return ok({ webhooks: (await listPartnerWebhooks(ctx.db, options)).map((row) => toView(row, now)) });
}

type WebhookRef = { partnerId: string; webhookId: string };

async function findOwnWebhook(ctx: DomainContext, options: WebhookOwner & { webhookId: string }) {
  const webhookId = canonicalUuid(options.webhookId);
  const row = webhookId ? await findWebhook(ctx.db, webhookId, options) : null;
  return row ? ok(row) : fail('NOT_FOUND', 'Webhook not found');
}

/** `DELETE /webhooks/{id}`: deliveries still pending are cancelled. */
export async function deleteWebhook(ctx: DomainContext, options: WebhookOwner & { webhookId: string }) {
  const webhookId = canonicalUuid(options.webhookId);
  const deleted = webhookId && (await removeWebhook(ctx.db, webhookId, options, ctx.clock()));
  return deleted ? ok({ webhookId, deleted: true }) : fail('NOT_FOUND', 'Webhook not found');
}

/**
 * `POST /webhooks/{id}/rotate-secret`: the secret it replaces keeps signing beside it for 24 hours, so the
 * partner can switch without losing an event; a second rotation within those hours drops the oldest.
 */
export async function rotateWebhookSecret(ctx: DomainContext, options: WebhookRef) {
  const found = await findOwnWebhook(ctx, options);
  if (!found.ok) return found;
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = new Date(ctx.clock().getTime() + SECRET_ROTATION_OVERLAP_MS);
  await rotateSecret(ctx.db, found.value.id, {
    secretSealed: ctx.webhooks.secrets.seal(secret),
    previousSecretSealed: found.value.secretSealed,
    previousSecretExpiresAt,
  });
  return ok({ webhookId: found.value.id, secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() });
}

/** `POST /webhooks/{id}/test`: a `webhook.test` event for this endpoint alone, delivered like any other. */
export async function sendTestEvent(ctx: DomainContext, options: WebhookRef) {
  const found = await findOwnWebhook(ctx, options);
  if (!found.ok) return found;
  const webhook = found.value;
  if (webhook.status !== 'active') {
    const reason = webhook.disabledReason ?? 'no reason recorded';
    return fail(
      'WEBHOOK_DISABLED',
      `This webhook is disabled (${reason}); register the endpoint again once it is fixed`,
    );
  }
  const eventId = await insertEvent(ctx.db, {
    partnerId: options.partnerId,
    applicationId: null,
    type: TEST_EVENT,
    data: { webhookId: webhook.id },
    webhookId: webhook.id,
    at: ctx.clock(),
  });
  ctx.webhooks.notify();
  return ok({ webhookId: webhook.id, eventId, type: TEST_EVENT });
}

function attemptView(row: AttemptRow) {
  return {
    eventId: row.eventId,
    eventType: row.eventType,
    attempt: row.attempt,
    attemptedAt: row.attemptedAt.toISOString(),
    status: row.outcome as AttemptView['status'],
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    error: row.error,
    nextRetryAt: iso(row.nextAttemptAt),
  };
}

export async function listWebhookDeliveries(ctx: DomainContext, options: WebhookRef & { limit?: string }) {
  const found = await findOwnWebhook(ctx, options);
  if (!found.ok) return found;
  const limit = parsePageLimit(options.limit);
  if (!limit.ok) return limit;
  const [rows, pending] = await Promise.all([
    listAttempts(ctx.db, found.value.id, limit.value),
    countPendingDeliveries(ctx.db, found.value.id),
  ]);
  return ok({ webhookId: found.value.id, pending, deliveries: rows.map(attemptView) });
}
