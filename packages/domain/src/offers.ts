import { randomUUID } from 'node:crypto';
import {
  findApplicationForMatch,
  findMatchRun,
  insertMatchRun,
  insertReferral,
  type ApplicationForMatch,
  type Json,
} from '@loanmatch/db';
import type { ScoreBand } from './credit/bureau';
import type { DomainContext } from './context';
import { fail, ok, type Result } from './errors';
import { canonicalUuid } from './ids';
import { matchOffers, type AcceptedOffer, type MatchResult, type NearMissOffer, type OfferDetails } from './matching';
import { trackingSigner, verifyTrackingToken } from './tracking';
import { commissionTermsOf, type CommissionTerms } from './outcomes/commission';
import { stepsForMatching } from './variant-b/intake';
import type { Answer } from './validation/responses';

/** Tracking links live about two hours (spec 2.6); CONTRACT.md: 410 after. */
export const TRACKING_LINK_LIFETIME_MS = 2 * 60 * 60 * 1000;

export type OfferView = Answer<'Offer'>;
export type MatchView = Answer<'MatchResult'>;

/** What a match run keeps of each accepted offer, to forward and record a click later. */
interface SnapshotOffer {
  offerId: string;
  lenderId: string;
  productId: string;
  lenderUrl: string;
  /** The product's commission terms when the offer was made; absent when it states none. */
  commission?: CommissionTerms;
}

/** `POST /applications/{id}/match`: the application's offers as its data stands now. */
export async function matchApplication(
  ctx: DomainContext,
  options: { partnerId: string; applicationId: string },
): Promise<Result<MatchView>> {
  const found = await findForMatch(ctx, options);
  return found.ok ? matchFound(ctx, found.value) : found;
}

/** The partner's application with what matching reads of its check; another partner's is NOT_FOUND, as everywhere. */
export async function findForMatch(
  ctx: DomainContext,
  options: { partnerId: string; applicationId: string },
): Promise<Result<ApplicationForMatch>> {
  const id = canonicalUuid(options.applicationId);
  const found = id ? await findApplicationForMatch(ctx.db, id, options.partnerId) : null;
  return found ? ok(found) : fail('NOT_FOUND', 'Application not found');
}

/**
 * Matches the application's current data against the catalogue in force. Each call is a new run: stored
 * with a snapshot of its offers, with fresh tracking links; the first moves the status to `matched`.
 */
export async function matchFound(ctx: DomainContext, app: ApplicationForMatch): Promise<Result<MatchView>> {
  if (app.creditCheck?.status !== 'completed')
    return fail(
      'CREDIT_CHECK_REQUIRED',
      'Run the credit check before matching: POST /applications/{applicationId}/credit-check',
    );
  const credit = { band: app.band as ScoreBand | null, degradedMode: app.creditCheck.degradedMode };

  const now = ctx.clock();
  const catalogue = await ctx.catalogue.current();
  const result = matchOffers(
    {
      formType: app.formType as 'personal' | 'car' | 'home',
      steps: await stepsForMatching(ctx, app, app.securityTokenHash !== null),
      credit,
      referenceYear: now.getUTCFullYear(),
    },
    catalogue,
  );
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
    commissionOf: commissionTermsOf(catalogue),
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

/**
 * A match's answer, and the snapshot of its accepted offers that a click on a tracking link reads. Each
 * accepted offer gets an id and a signed tracking link; lender and product are the catalogue's own
 * (frozen) objects.
 */
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
    /** The commission terms of a product, kept with its offer; none by default. */
    commissionOf?: (productId: string) => CommissionTerms | null;
  },
): { view: MatchView; snapshot: SnapshotOffer[] } {
  const snapshot: SnapshotOffer[] = [];
  const expiry = run.expiresAt.toISOString();
  const acceptedOffers = result.acceptedOffers.map((offer: AcceptedOffer): OfferView => {
    const offerId = randomUUID();
    const commission = run.commissionOf?.(offer.product.id);
    snapshot.push({
      offerId,
      lenderId: offer.lender.id,
      productId: offer.product.id,
      lenderUrl: offer.lenderUrl,
      ...(commission ? { commission } : {}),
    });
    return {
      offerId,
      lender: offer.lender,
      product: offer.product,
      headline: offer.headline,
      certainty: offer.certainty,
      offerDetails: offer.offerDetails as OfferDetails & Json,
      conditions: offer.conditions.map((c) => ({ field: c.field, requirement: c.requirement })),
      ...(offer.assumedLoanTermMonths === undefined ? {} : { assumedLoanTermMonths: offer.assumedLoanTermMonths }),
      expiresAt: expiry,
      trackingUrl: `${run.publicBaseUrl}/r/${run.signToken(offerId)}`,
    };
  });
  const view: MatchView = {
    applicationId: run.applicationId,
    matchId: run.matchId,
    generatedAt: run.now.toISOString(),
    degraded_mode: run.degradedMode,
    assessment:
      result.assessment.basis === 'bureau'
        ? { basis: 'bureau' }
        : { basis: 'self_estimate', notice: result.assessment.notice },
    acceptedOffers,
    nearMissOffers: result.nearMissOffers.map(nearMissView),
  };
  return { view, snapshot };
}

/**
 * A near-miss as partners see it. Its words are matching's own, which never name a band or a score (a
 * credit reason says only that the lender's criteria were not met: matching/near-miss-wording.ts).
 */
function nearMissView(offer: NearMissOffer): MatchView['nearMissOffers'][number] {
  return {
    lender: { ...offer.lender },
    product: { ...offer.product },
    headline: offer.headline,
    reasons: offer.reasons.map((r) => ({ ...r })),
    wouldQualifyIf: offer.wouldQualifyIf.map((w) => ({ ...w })),
  };
}

export type LinkOutcome = { location: string };

/**
 * A click on a tracking link: verified by its signature, recorded once per offer, and forwarded to
 * the lender. A forged or unknown token is NOT_FOUND; an expired one LINK_EXPIRED.
 */
export async function followTrackingLink(ctx: DomainContext, options: { token: string }): Promise<Result<LinkOutcome>> {
  const claims = verifyTrackingToken(ctx.tracking.secret, options.token);
  if (!claims) return fail('NOT_FOUND', 'Unknown link');
  if (claims.expiresAt.getTime() <= ctx.clock().getTime())
    return fail('LINK_EXPIRED', 'This offer link has expired; ask for a new match');
  const run = await findMatchRun(ctx.db, claims.matchRunId);
  const offer = (run?.offers as { offers?: SnapshotOffer[] } | undefined)?.offers?.find(
    (o) => o.offerId === claims.offerId,
  );
  if (!run || !offer) return fail('NOT_FOUND', 'Unknown link');

  const recorded = await insertReferral(ctx.db, {
    id: randomUUID(),
    offerId: offer.offerId,
    matchRunId: run.id,
    applicationId: run.applicationId,
    partnerId: run.partnerId,
    lenderId: offer.lenderId,
    productId: offer.productId,
    commissionTerms: (offer.commission as Json | undefined) ?? null,
    now: ctx.clock(),
  });
  if (recorded) {
    ctx.metrics?.referralRecorded();
    ctx.webhooks.notify();
  }
  const location = new URL(offer.lenderUrl);
  location.searchParams.set('lm_ref', offer.offerId);
  return ok({ location: location.toString() });
}
