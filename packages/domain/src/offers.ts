import { randomUUID } from 'node:crypto';
import { findMatchRun, insertMatchRun, insertReferral, type ApplicationRow } from '@loanmatch/db';
import { findOwnApplication, type ApplicationRef } from './applications/view';
import type { ScoreBand } from './credit/bureau';
import type { DomainContext } from './context';
import { fail, ok } from './errors';
import { matchOffers, type MatchResult } from './matching';
import type { CommissionTerms } from './outcomes/commission';
import { trackingSigner, verifyTrackingToken } from './tracking';
import { stepsForMatching } from './variant-b/intake';

export const TRACKING_LINK_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** What a match run keeps of each accepted offer, to forward and record a click later. */
interface SnapshotOffer {
  offerId: string;
  lenderId: string;
  productId: string;
  lenderUrl: string;
  commission?: CommissionTerms;
}

export async function matchApplication(ctx: DomainContext, options: ApplicationRef) {
  const found = await findOwnApplication(ctx, options);
  return found.ok ? matchFound(ctx, found.value) : found;
}

/** Each call is a new run, stored with a snapshot of its offers and fresh tracking links. */
export async function matchFound(ctx: DomainContext, app: ApplicationRow) {
  if (app.creditCheck?.status !== 'completed') return fail('CREDIT_CHECK_REQUIRED');
  const credit = { band: app.band as ScoreBand | null, degradedMode: app.creditCheck.degradedMode };
  const now = ctx.clock();
  const input = {
    formType: app.formType as 'personal' | 'car' | 'home',
    steps: await stepsForMatching(ctx, app),
    credit,
    referenceYear: now.getUTCFullYear(),
  };
  const result = matchOffers(input, await ctx.catalogue.current());
  if (result.outcome === 'incomplete_application') {
    const missing = result.missing.map((m) => `step ${m.step} ${m.field}`).join(', ');
    return fail('STEPS_INCOMPLETE', `Matching needs more of the application: ${missing}`);
  }

  const matchId = randomUUID();
  const expiresAt = new Date(now.getTime() + ctx.tracking.lifetimeMs);
  const { view, snapshot } = matchView(result, {
    applicationId: app.id,
    matchId,
    now,
    expiresAt,
    degradedMode: credit.degradedMode,
    signToken: trackingSigner(ctx.tracking.secret, matchId, expiresAt),
    publicBaseUrl: ctx.tracking.publicBaseUrl,
  });
  await insertMatchRun(ctx.db, {
    id: matchId,
    applicationId: app.id,
    partnerId: app.partnerId,
    degradedMode: credit.degradedMode,
    offers: JSON.stringify({ offers: snapshot, view }),
    now,
  });
  if (app.status !== 'matched' && app.status !== 'referred') ctx.webhooks.notify();
  ctx.metrics?.matched(view.acceptedOffers.length, view.nearMissOffers.length);
  return ok(view);
}

/** A match's answer, and the snapshot of its accepted offers that a click on a tracking link reads. */
export function matchView(
  result: Extract<MatchResult, { outcome: 'assessed' }>,
  run: {
    applicationId: string;
    matchId: string;
    now: Date;
    expiresAt: Date;
    degradedMode: boolean;
    signToken: (offerId: string) => string;
    publicBaseUrl: string;
  },
) {
  const snapshot: SnapshotOffer[] = [];
  const expiresAt = run.expiresAt.toISOString();
  const acceptedOffers = result.acceptedOffers.map(({ lenderUrl, commission, ...offer }) => {
    const offerId = randomUUID();
    snapshot.push({
      offerId,
      lenderId: offer.lender.id,
      productId: offer.product.id,
      lenderUrl,
      ...(commission && { commission }),
    });
    return { offerId, ...offer, expiresAt, trackingUrl: `${run.publicBaseUrl}/r/${run.signToken(offerId)}` };
  });
  const view = {
    applicationId: run.applicationId,
    matchId: run.matchId,
    generatedAt: run.now.toISOString(),
    degraded_mode: run.degradedMode,
    assessment:
      result.assessment.basis === 'bureau'
        ? { basis: 'bureau' as const }
        : { basis: 'self_estimate' as const, notice: result.assessment.notice },
    acceptedOffers,
    nearMissOffers: result.nearMissOffers,
  };
  return { view, snapshot };
}

/**
 * A click on a tracking link: verified by its signature, recorded once per offer, forwarded to the lender.
 * A `HEAD` (a link checker's or a chat preview's) is answered as the click would be and records nothing.
 */
export async function followTrackingLink(ctx: DomainContext, options: { token: string; head?: boolean }) {
  const claims = verifyTrackingToken(ctx.tracking.secret, options.token);
  if (!claims) return fail('NOT_FOUND', 'Unknown link');
  if (claims.expiresAt.getTime() <= ctx.clock().getTime()) return fail('LINK_EXPIRED');
  const run = await findMatchRun(ctx.db, claims.matchRunId, claims.offerId);
  const offer = run?.offer as SnapshotOffer | null | undefined;
  if (!run || !offer) return fail('NOT_FOUND', 'Unknown link');

  const recorded =
    !options.head &&
    (await insertReferral(ctx.db, {
      id: randomUUID(),
      offerId: offer.offerId,
      matchRunId: run.id,
      applicationId: run.applicationId,
      partnerId: run.partnerId,
      lenderId: offer.lenderId,
      productId: offer.productId,
      commissionTerms: offer.commission ?? null,
      now: ctx.clock(),
    }));
  if (recorded) {
    ctx.metrics?.referralRecorded();
    ctx.webhooks.notify();
  }
  const location = new URL(offer.lenderUrl);
  location.searchParams.set('lm_ref', offer.offerId);
  return ok({ location: location.toString() });
}
