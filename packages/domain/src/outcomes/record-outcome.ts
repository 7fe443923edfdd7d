/**
 * `POST /api/lender/v1/outcomes`: an `eventId` already used replays its first answer; with the referral
 * locked, the event is kept with what the events now come to, unless it breaks the lifecycle.
 */
import { randomUUID } from 'node:crypto';
import {
  findOutcomeByEventId,
  findReferralByOfferId,
  lockReferralOutcomes,
  recordOutcomeEvent,
  type StoredOutcomeEvent,
} from '@loanmatch/db';
import type { DomainContext } from '../context';
import { fail, invalid, ok, violation, type Result } from '../errors';
import { canonicalJson, type Replayable } from '../idempotency';
import { canonicalUuid } from '../ids';
import { digest } from '../keys';
import { OCCURRED_AT_TOLERANCE_MS, validateOutcomeEvent, type OutcomeEventRequest } from '../validation';
import type { CommissionTerms } from './commission';
import type { AuthenticatedLender } from './lender-keys';
import { lifecyclePath, summarise, transitionText, type LifecycleEvent, type OutcomeType } from './lifecycle';
import type { Answer } from '../validation/responses';

export const OUTCOME_CHANGED_EVENT = 'referral.outcome_changed';

export type OutcomeRecorded = Answer<'OutcomeRecorded'>;

/** `keyId` null: a sandbox simulation. */
type OutcomeReporter = Omit<AuthenticatedLender, 'keyId'> & { keyId: string | null };

const NOT_FOUND_MESSAGE = 'reference: names no referral of this lender';

export async function recordOutcome(ctx: DomainContext, options: { lender: OutcomeReporter; body: unknown }) {
  const valid = validateOutcomeEvent(options.body, ctx.clock());
  return valid.ok ? recordValidOutcome(ctx, options.lender, valid.value) : valid;
}

/**
 * `POST /admin/v1/sandbox/outcomes`: a sandbox referral's outcome, recorded as its own lender would report
 * it, so reports, webhooks and commission move before any lender reports.
 */
export async function simulateOutcome(ctx: DomainContext, options: { body: unknown }) {
  let body = options.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const event: Record<string, unknown> = {
      eventId: `sim_${randomUUID().replace(/-/g, '')}`,
      occurredAt: ctx.clock().toISOString(),
      ...body,
    };
    if (event.type === 'funded' && event.fundedAt === undefined) event.fundedAt = event.occurredAt;
    body = event;
  }
  const valid = validateOutcomeEvent(body, ctx.clock());
  if (!valid.ok) return valid;
  const offerId = canonicalUuid(valid.value.reference);
  const referral = offerId ? await findReferralByOfferId(ctx.db, offerId) : null;
  if (referral?.partnerEnvironment !== 'sandbox')
    return fail('NOT_FOUND', 'reference: names no referral of a sandbox partner');
  return recordValidOutcome(ctx, { lenderId: referral.lenderId, keyId: null, environment: 'sandbox' }, valid.value);
}

/** An event already validated (a simulation builds its own). */
async function recordValidOutcome(ctx: DomainContext, lender: OutcomeReporter, event: OutcomeEventRequest) {
  const offerId = canonicalUuid(event.reference);
  const fingerprint = fingerprintOf(event, offerId);
  const earlier = await answerEarlier(ctx, lender.lenderId, event.eventId, fingerprint);
  if (earlier) return earlier;

  const referral = offerId ? await findReferralByOfferId(ctx.db, offerId) : null;
  if (!referral || referral.lenderId !== lender.lenderId || referral.partnerEnvironment !== lender.environment)
    return fail('NOT_FOUND', NOT_FOUND_MESSAGE);
  const tooEarly = datedBeforeReferral(event, referral.referredAt);
  if (tooEarly) return tooEarly;

  const outcomeId = randomUUID();
  const written = await ctx.db.transaction(async (tx) => {
    const locked = await lockReferralOutcomes(tx, referral.id);
    if (!locked) return fail('NOT_FOUND', NOT_FOUND_MESSAGE);
    // The same event id, sent again at once, committed first while this waited for the lock: answered below.
    if (locked.events.some((e) => e.eventId === event.eventId)) return ok(null);
    // A funding is never dated before its approval, whichever of the two arrives first.
    const approval = locked.events.find((e) => e.type === 'approved');
    if (event.fundedAt && approval && event.fundedAt < approval.occurredAt) {
      const text = `must not be before the approval (${approval.occurredAt.toISOString()})`;
      return invalid(violation('fundedAt', 'afterApproval', text));
    }
    const fundedAt = locked.events.find((e) => e.type === 'funded')?.fundedAt;
    if (event.type === 'approved' && fundedAt && event.occurredAt > fundedAt) {
      const text = `must not be after the funding (${fundedAt.toISOString()})`;
      return invalid(violation('occurredAt', 'beforeFunding', text));
    }
    const incoming = lifecycleEvent(event, locked.events.length);
    const path = lifecyclePath([...locked.events.map(lifecycleEvent), incoming]);
    if (!path.ok) return fail('OUTCOME_TRANSITION_INVALID', refusalText(path.from, path.to, incoming));
    const summary = summarise(path.events, referral.commissionTerms as CommissionTerms | null);
    // A duplicate's outcomes count as any other's, by the product's terms; it earns no commission.
    if (referral.attribution === 'duplicate') summary.commissionCents = null;
    const answer: OutcomeRecorded = { outcomeId, referralId: referral.id, status: summary.status };
    const previousStatus = (locked.outcomeStatus as OutcomeType | null) ?? null;
    // `referral.outcome_changed`: identifiers, statuses and the partner's own tags; no personal data.
    const data = {
      referralId: referral.id,
      applicationId: referral.applicationId,
      lenderId: referral.lenderId,
      status: summary.status,
      previousStatus,
      clientTags: (referral.clientTags as Record<string, string> | null) ?? {},
    };
    const changed = summary.status !== previousStatus;
    const { partnerId, applicationId } = referral;
    const inserted = await recordOutcomeEvent(
      tx,
      { ...event, id: outcomeId, referralId: referral.id, lenderId: lender.lenderId, keyId: lender.keyId },
      { fingerprint, answer: JSON.stringify(answer), receivedAt: ctx.clock() },
      summary,
      changed ? { partnerId, applicationId, type: OUTCOME_CHANGED_EVENT, data, at: ctx.clock() } : undefined,
    );
    // The lender sent this event id a moment ago (another request): nothing is written; it answers below.
    if (!inserted) return ok(null);
    if (changed) ctx.webhooks.notify();
    return ok(answer);
  });
  if (!written.ok) return written;
  if (written.value) {
    ctx.metrics?.lenderOutcome(event.type);
    return ok({ value: written.value, replayed: false });
  }
  // Another request wrote this event id meanwhile; gone again, its referral was removed.
  return (
    (await answerEarlier(ctx, lender.lenderId, event.eventId, fingerprint)) ?? fail('NOT_FOUND', NOT_FOUND_MESSAGE)
  );
}

/** The first answer to this event id (a replay), 422 for other content under it, or undefined when it is new. */
async function answerEarlier(
  ctx: DomainContext,
  lenderId: string,
  eventId: string,
  fingerprint: string,
): Promise<Result<Replayable<OutcomeRecorded>> | undefined> {
  const earlier = await findOutcomeByEventId(ctx.db, lenderId, eventId);
  if (!earlier) return undefined;
  if (earlier.fingerprint !== fingerprint) {
    const message = 'eventId: was already used for a different event; use a new eventId for a new event';
    return fail('IDEMPOTENCY_KEY_REUSED', message);
  }
  return ok({ value: JSON.parse(earlier.answer) as OutcomeRecorded, replayed: true });
}

/** What makes two events the same: their content, normalised (amounts in cents, times as instants). */
function fingerprintOf(event: OutcomeEventRequest, offerId: string | null): string {
  return digest(
    canonicalJson({
      reference: offerId ?? event.reference,
      type: event.type,
      occurredAt: event.occurredAt.toISOString(),
      fundedAmountCents: event.fundedAmountCents,
      fundedAt: event.fundedAt?.toISOString() ?? null,
      declineReason: event.declineReason,
    }),
  );
}

/** Nothing happens at a lender before the applicant arrives, give or take the clocks' tolerance. */
function datedBeforeReferral(event: OutcomeEventRequest, referredAt: Date) {
  const earliest = referredAt.getTime() - OCCURRED_AT_TOLERANCE_MS;
  const text = `must not be before the referral (${referredAt.toISOString()})`;
  if (event.occurredAt.getTime() < earliest) return invalid(violation('occurredAt', 'afterReferral', text));
  if (event.fundedAt && event.fundedAt.getTime() < earliest)
    return invalid(violation('fundedAt', 'afterReferral', text));
  return undefined;
}

function lifecycleEvent(e: StoredOutcomeEvent | OutcomeEventRequest, seq: number): LifecycleEvent {
  return { ...e, type: e.type as OutcomeType, seq };
}

function refusalText(from: OutcomeType | 'none', at: LifecycleEvent, incoming: LifecycleEvent): string {
  if (at === incoming) return `type: ${transitionText(from, at.type)}`;
  // The new event is allowed where it falls, but an event reported before, which occurred after it, then is not.
  return `type: ${incoming.type} at ${incoming.occurredAt.toISOString()} comes before ${at.type} at ${at.occurredAt.toISOString()}, already reported: ${transitionText(from, at.type)}`;
}
