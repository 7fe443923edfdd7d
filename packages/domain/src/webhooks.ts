/**
 * A partner's webhook endpoints, for both front-ends: register, list, delete, rotate the signing secret,
 * send a test event, read recent attempts. Secrets (`whsec_` + base64 of 32 random bytes) are shown once
 * and kept sealed (`ctx.webhooks.secrets`), since signing reads them again.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  countPendingDeliveries,
  countWebhooks,
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
import { fail, invalid, ok, violation, type Result } from './errors';
import { WEBHOOK_EVENT_TYPES, validateWebhookRequest } from './validation';
import { canonicalUuid } from './ids';
import { parsePageLimit } from './validation/page-query';
import type { Answer } from './validation/responses';

/** The event every status change writes (its data: `applicationId`, `status`, `previousStatus`, `lastStep`). */
export const STATUS_CHANGED_EVENT = 'application.status_changed';
/** The event `POST /webhooks/{id}/test` sends to one endpoint. */
export const TEST_EVENT = 'webhook.test';

export const WEBHOOK_SECRET_PURPOSE = 'webhooks/signing-secret';
/** How long the previous secret keeps signing beside the new one after a rotation. */
const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
export const MAX_WEBHOOKS_PER_PARTNER = 10;

/** `whsec_` and base64 of 32 random bytes: the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A webhook as partners see it: never its secret; `previousSecretExpiresAt` while a rotated-out secret still signs. */
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

/**
 * `POST /webhooks`: `{url, events?}` (events default to every type an endpoint can subscribe to). The URL
 * must pass the environment's destination rules (live: https, public addresses only; the sandbox also
 * takes loopback http). Answers the webhook and its secret, shown this once.
 */
export async function registerWebhook(
  ctx: DomainContext,
  options: WebhookOwner & { body: unknown; events?: readonly string[] },
) {
  const request = validateWebhookRequest(options.body);
  if (!request.ok) return request;
  const destination = await ctx.webhooks.checkDestination(request.value.url);
  if (!destination.ok) return invalid(violation('url', destination.rule, destination.text));
  if ((await countWebhooks(ctx.db, options)) >= MAX_WEBHOOKS_PER_PARTNER) {
    return fail(
      'WEBHOOK_LIMIT_REACHED',
      `A partner may have ${MAX_WEBHOOKS_PER_PARTNER} webhooks; delete one before registering another`,
    );
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

/** `GET /webhooks`: the partner's webhooks, oldest first, never a secret. A disabled one says why. */
export async function listWebhooks(ctx: DomainContext, options: WebhookOwner) {
  const now = ctx.clock();
  return ok({ webhooks: (await listPartnerWebhooks(ctx.db, options)).map((row) => toView(row, now)) });
}

/** The partner's own webhook; another partner's, a deleted, an unknown and a malformed id are all NOT_FOUND. */
async function findOwnWebhook(
  ctx: DomainContext,
  options: WebhookOwner & { webhookId: string },
): Promise<Result<WebhookRow>> {
  const webhookId = canonicalUuid(options.webhookId);
  const row = webhookId ? await findWebhook(ctx.db, webhookId, options) : null;
  return row ? ok(row) : fail('NOT_FOUND', 'Webhook not found');
}

/** `DELETE /webhooks/{id}`: nothing more is sent to it; deliveries still pending are cancelled. */
export async function deleteWebhook(ctx: DomainContext, options: WebhookOwner & { webhookId: string }) {
  const found = await findOwnWebhook(ctx, options);
  if (!found.ok) return found;
  const deleted = await removeWebhook(ctx.db, found.value.id, options, ctx.clock());
  return deleted ? ok({ webhookId: found.value.id, deleted: true }) : fail('NOT_FOUND', 'Webhook not found');
}

/**
 * `POST /webhooks/{id}/rotate-secret`: a new secret, shown once. The one it replaces keeps signing beside
 * it for 24 hours (two signatures in `webhook-signature`), so the partner can switch without losing an
 * event. A second rotation within those hours drops the oldest secret at once.
 */
export async function rotateWebhookSecret(ctx: DomainContext, options: { partnerId: string; webhookId: string }) {
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

/**
 * `POST /webhooks/{id}/test`: queues a `webhook.test` event for this endpoint alone, delivered, signed
 * and retried like any other. A disabled endpoint is refused (409 `WEBHOOK_DISABLED`).
 */
export async function sendTestEvent(ctx: DomainContext, options: { partnerId: string; webhookId: string }) {
  const found = await findOwnWebhook(ctx, options);
  if (!found.ok) return found;
  const webhook = found.value;
  if (webhook.status !== 'active') {
    return fail(
      'WEBHOOK_DISABLED',
      `This webhook is disabled (${webhook.disabledReason ?? 'no reason recorded'}); register the endpoint again once it is fixed`,
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

/** `error` is a fixed code (`timeout`, `http_500`, …); `nextRetryAt` when this failure's retry is due. */
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

/** `GET /webhooks/{id}/deliveries?limit=1..100`: the endpoint's recent attempts, newest first (default 50). */
export async function listWebhookDeliveries(
  ctx: DomainContext,
  options: { partnerId: string; webhookId: string; limit?: string },
) {
  const found = await findOwnWebhook(ctx, options);
  if (!found.ok) return found;
  const parsed = parsePageLimit(options.limit);
  if (!parsed.ok) return parsed;
  const limit = parsed.value;
  const [rows, pending] = await Promise.all([
    listAttempts(ctx.db, found.value.id, limit),
    countPendingDeliveries(ctx.db, found.value.id),
  ]);
  return ok({ webhookId: found.value.id, pending, deliveries: rows.map(attemptView) });
}
