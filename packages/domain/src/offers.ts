import { randomUUID } from 'node:crypto';
import type { Json } from '@loanmatch/db';
import type { ScoreBand } from './credit/bureau';
import type { DomainContext } from './context';
import { fail, ok, type Result } from './errors';
import { advanceApplication, recordMatchRun } from './events';
import { canonicalUuid } from './ids';
import { withJsonText } from './json-text';
import { matchOffers, type AcceptedOffer, type MatchResult, type NearMissOffer, type OfferCertainty, type OfferDetails } from './matching';
import { trackingSigner, verifyTrackingToken } from './tracking';
import { stepsForMatching } from './variant-b-intake';

/** Tracking links live about two hours (spec 2.6); CONTRACT.md: 410 after. */
export const TRACKING_LINK_LIFETIME_MS = 2 * 60 * 60 * 1000;

export interface OfferView extends Json {
  offerId: string;
  lender: { id: string; name: string };
  product: { id: string; name: string };
  headline: string;
  /** CONTRACT.md "Offers: certainty": `pre_qualified` or `indicative`. */
  certainty: OfferCertainty;
  offerDetails: Json;
  /** What the lender will need to see (`{field, requirement}`); empty for a pre-qualified offer. */
  conditions: Json[];
  /** Only when the application gave no term: the term the offer assumed. */
  assumedLoanTermMonths?: number;
  expiresAt: string;
  trackingUrl: string;
}

export interface MatchView extends Json {
  applicationId: string;
  matchId: string;
  generatedAt: string;
  degraded_mode: boolean;
  assessment: { basis: 'bureau' | 'self_estimate'; notice?: string };
  acceptedOffers: OfferView[];
  nearMissOffers: Json[];
}

/** What a match run keeps of each accepted offer, to forward and record a click later. */
interface SnapshotOffer {
  offerId: string;
  lenderId: string;
  productId: string;
  lenderUrl: string;
}

/**
 * Matches the application's current data against the catalogue in force. Each call is a new run:
 * stored with a snapshot of its offers, with fresh tracking links; the first moves the status to `matched`.
 */
export async function matchApplication(
  ctx: DomainContext,
  options: {
    partnerId: string;
    applicationId: string;
    /** Variant B: checks the request against the application's security token digest (null: it has none) before anything else. */
    authorize?: (securityTokenHash: string | null) => Result<void>;
  },
): Promise<Result<MatchView>> {
  // The application, its check's result and its token digest, read together; another partner's is NOT_FOUND, as everywhere.
  const id = canonicalUuid(options.applicationId);
  const found = id ? await ctx.repos.applications.findApplicationForMatch(id, options.partnerId) : null;
  if (!found) return fail('NOT_FOUND', 'Application not found');
  const authorized = options.authorize?.(found.securityTokenHash);
  if (authorized && !authorized.ok) return authorized;
  const { row: app, credit } = found;
  if (!credit) return fail('CREDIT_CHECK_REQUIRED', 'Run the credit check before matching: POST /applications/{applicationId}/credit-check');

  const now = ctx.clock();
  const result = matchOffers(
    {
      formType: app.formType as 'personal' | 'car' | 'home',
      steps: await stepsForMatching(ctx, app, found.securityTokenHash !== null),
      credit: { band: (credit.band as ScoreBand | null) ?? null, degradedMode: credit.degradedMode },
      referenceYear: now.getUTCFullYear(),
    },
    await ctx.catalogue.current(),
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
  });

  // The run, the status it moves and the status's event: one statement. The answer is serialised once,
  // for the stored run and for the response alike (`withJsonText`).
  const viewJson = matchViewText(view);
  const written = await recordMatchRun(ctx, app, {
    id: matchId,
    degradedMode: credit.degradedMode,
    offersJson: `{"offers":${JSON.stringify(snapshot)},"view":${viewJson}}`,
    at: now,
  });
  if (!written) return fail('NOT_FOUND', 'Application not found');
  ctx.metrics?.matched(view.acceptedOffers.length, view.nearMissOffers.length);
  return ok(withJsonText(view, viewJson));
}

/**
 * A match's answer, and the snapshot of its accepted offers that a click on a tracking link reads. Each
 * accepted offer gets an id and a signed tracking link; lender and product are the catalogue's own
 * (frozen) objects, so that their text is made once (`matchViewText`).
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
  },
): { view: MatchView; snapshot: SnapshotOffer[] } {
  const snapshot: SnapshotOffer[] = [];
  const expiry = run.expiresAt.toISOString();
  const acceptedOffers = result.acceptedOffers.map((offer: AcceptedOffer): OfferView => {
    const offerId = randomUUID();
    snapshot.push({ offerId, lenderId: offer.lender.id, productId: offer.product.id, lenderUrl: offer.lenderUrl });
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
    assessment: result.assessment.basis === 'bureau' ? { basis: 'bureau' } : { basis: 'self_estimate', notice: result.assessment.notice },
    acceptedOffers,
    nearMissOffers: result.nearMissOffers.map(nearMissView),
  };
  return { view, snapshot };
}

/**
 * `JSON.stringify(view)` for a match's answer: the same characters, made about twice as fast. The offers
 * are most of the answer (8 KB with 8 of them), and V8's stringify spends most of its time on their
 * numbers and on lender and product objects that are the same in every match. Here the keys are written
 * out, numbers go through the engine's number-to-text cache, and the text of a frozen catalogue object
 * is made once. Near misses, which are few, go through `JSON.stringify`. An offer's details with a key
 * this function does not know go through `JSON.stringify` as well. Tested equal to `JSON.stringify` over
 * every loan type, band and repayment type (packages/domain/test/match-text.test.ts). The view's key
 * order must stay the order written here; that test fails if it does not.
 */
export function matchViewText(view: MatchView): string {
  let text = `{"applicationId":${plainText(view.applicationId)},"matchId":${plainText(view.matchId)},"generatedAt":${plainText(view.generatedAt)},"degraded_mode":${view.degraded_mode},"assessment":${JSON.stringify(view.assessment)},"acceptedOffers":[`;
  const offers = view.acceptedOffers;
  for (let i = 0; i < offers.length; i++) {
    const o = offers[i];
    if (i > 0) text += ',';
    const assumed = o.assumedLoanTermMonths === undefined ? '' : `,"assumedLoanTermMonths":${numberText(o.assumedLoanTermMonths)}`;
    const conditions = o.conditions.length === 0 ? '[]' : JSON.stringify(o.conditions);
    text += `{"offerId":${plainText(o.offerId)},"lender":${refText(o.lender)},"product":${refText(o.product)},"headline":${constantText(o.headline)},"certainty":${plainText(o.certainty)},"offerDetails":${detailsText(o.offerDetails as unknown as OfferDetails)},"conditions":${conditions}${assumed},"expiresAt":${plainText(o.expiresAt)},"trackingUrl":${plainText(o.trackingUrl)}}`;
  }
  return `${text}],"nearMissOffers":${JSON.stringify(view.nearMissOffers)}}`;
}

/** A finite number as `JSON.stringify` writes it; the template literal goes through V8's number-to-text cache. */
const numberText = (n: number): string => (Number.isFinite(n) ? `${n}` : 'null');

/** The text of a catalogue's lender or product, kept for frozen objects (the catalogue's are). */
const refTexts = new WeakMap<object, string>();
function refText(ref: object): string {
  let text = refTexts.get(ref);
  if (text === undefined) {
    text = JSON.stringify(ref);
    if (Object.isFrozen(ref)) refTexts.set(ref, text);
  }
  return text;
}

/** Characters `JSON.stringify` escapes in a string: quote, backslash, controls, surrogates (a lone one is escaped). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A string as `JSON.stringify` writes it; ids, times and links have nothing to escape, and are quoted as they are. */
const plainText = (s: string): string => (ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`);

/** The text of a string that recurs from match to match (a catalogue's headline, its benchmark loan, the warning). */
const constantTexts = new Map<string, string>();
function constantText(s: string): string {
  let text = constantTexts.get(s);
  if (text === undefined) {
    if (constantTexts.size >= 4096) constantTexts.clear(); // a catalogue has far fewer; a bound all the same
    constantTexts.set(s, (text = JSON.stringify(s)));
  }
  return text;
}

const isNumber = (v: unknown): boolean => typeof v === 'number';
const optional = (v: unknown, type: 'number' | 'string' | 'boolean'): boolean => v === undefined || typeof v === type;

/**
 * An offer's details, keys in the order the matcher writes them (types.ts's order). Details of another
 * shape go through `JSON.stringify`: a key this function does not know, or a value not of its type (an
 * `undefined` that stringify would leave out, say).
 */
function detailsText(d: OfferDetails): string {
  if (
    !(isNumber(d.interestRate) && isNumber(d.comparisonRate) && isNumber(d.loanAmount) && isNumber(d.loanTermMonths) && isNumber(d.monthlyRepayment)) ||
    !(isNumber(d.establishmentFee) && isNumber(d.monthlyFee) && typeof d.comparisonRateWarning === 'string' && typeof d.comparisonRateExample === 'string') ||
    !(optional(d.balloonAmount, 'number') && optional(d.repaymentType, 'string') && optional(d.interestOnlyMonths, 'number')) ||
    !(optional(d.repaymentAfterInterestOnly, 'number') && optional(d.lvr, 'number') && optional(d.lendersMortgageInsurance, 'boolean'))
  ) {
    return JSON.stringify(d);
  }
  let keys = 9;
  let text = `{"interestRate":${numberText(d.interestRate)},"comparisonRate":${numberText(d.comparisonRate)},"comparisonRateWarning":${constantText(
    d.comparisonRateWarning,
  )},"comparisonRateExample":${constantText(d.comparisonRateExample)},"loanAmount":${numberText(d.loanAmount)},"loanTermMonths":${numberText(
    d.loanTermMonths,
  )},"monthlyRepayment":${numberText(d.monthlyRepayment)},"establishmentFee":${numberText(d.establishmentFee)},"monthlyFee":${numberText(d.monthlyFee)}`;
  if (d.balloonAmount !== undefined) (keys++, (text += `,"balloonAmount":${numberText(d.balloonAmount)}`));
  if (d.repaymentType !== undefined) (keys++, (text += `,"repaymentType":${JSON.stringify(d.repaymentType)}`));
  if (d.interestOnlyMonths !== undefined) (keys++, (text += `,"interestOnlyMonths":${numberText(d.interestOnlyMonths)}`));
  if (d.repaymentAfterInterestOnly !== undefined) (keys++, (text += `,"repaymentAfterInterestOnly":${numberText(d.repaymentAfterInterestOnly)}`));
  if (d.lvr !== undefined) (keys++, (text += `,"lvr":${numberText(d.lvr)}`));
  if (d.lendersMortgageInsurance !== undefined) (keys++, (text += `,"lendersMortgageInsurance":${d.lendersMortgageInsurance}`));
  // A key present with `undefined` counts here and not above: stringify then, which leaves it out.
  return keys === Object.keys(d).length ? `${text}}` : JSON.stringify(d);
}

/**
 * A near-miss as partners see it. A reason about the credit score names the product's minimum but not
 * the applicant's band: bands are derived from the score, and the score never leaves the service.
 */
function nearMissView(offer: NearMissOffer): Json {
  return {
    lender: { ...offer.lender },
    product: { ...offer.product },
    headline: offer.headline,
    reasons: offer.reasons.map((r) => (r.field === 'creditScore' ? { field: r.field, rule: r.rule, actual: 'below the minimum' } : { ...r })),
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
  if (claims.expiresAt.getTime() <= ctx.clock().getTime()) return fail('LINK_EXPIRED', 'This offer link has expired; ask for a new match');
  const run = await ctx.repos.matches.findMatchRun(claims.matchRunId);
  const offer = (run?.offers as { offers?: SnapshotOffer[] } | undefined)?.offers?.find((o) => o.offerId === claims.offerId);
  if (!run || !offer) return fail('NOT_FOUND', 'Unknown link');

  const recorded = await ctx.repos.transaction(async (tx) => {
    const inserted = await tx.matches.insertReferral({
      id: randomUUID(),
      offerId: offer.offerId,
      matchRunId: run.id,
      applicationId: run.applicationId,
      partnerId: run.partnerId,
      lenderId: offer.lenderId,
      productId: offer.productId,
      at: ctx.clock(),
    });
    if (inserted) await advanceApplication(ctx, tx, { applicationId: run.applicationId, to: 'referred' });
    return inserted;
  });
  if (recorded) ctx.metrics?.referralRecorded();
  const location = new URL(offer.lenderUrl);
  location.searchParams.set('lm_ref', offer.offerId);
  return ok({ location: location.toString() });
}

export interface ReferralView extends Json {
  referralId: string;
  applicationId: string;
  offerId: string;
  lender: { id: string; name: string };
  product: { id: string; name: string };
  referredAt: string;
}

/** A partner's referrals, newest first, in pages of `limit` (1-100, default 50) after an opaque cursor. */
export async function listReferrals(
  ctx: DomainContext,
  options: { partnerId: string; limit?: string; cursor?: string },
): Promise<Result<{ referrals: ReferralView[]; nextCursor: string | null }>> {
  const limit = options.limit === undefined ? 50 : /^\d{1,3}$/.test(options.limit) ? Number(options.limit) : NaN;
  if (!(limit >= 1 && limit <= 100)) {
    const message = 'limit: must be a whole number between 1 and 100';
    return fail('VALIDATION_ERROR', message, [{ field: 'limit', rule: 'range', message }]);
  }
  let before: { createdAt: Date; id: string } | undefined;
  if (options.cursor !== undefined) {
    const [ms, id] = Buffer.from(options.cursor, 'base64url').toString('utf8').split('|');
    if (!/^\d{1,15}$/.test(ms ?? '') || !/^[0-9a-f-]{36}$/.test(id ?? '')) {
      const message = 'cursor: is not a cursor this API gave out';
      return fail('VALIDATION_ERROR', message, [{ field: 'cursor', rule: 'format', message }]);
    }
    before = { createdAt: new Date(Number(ms)), id };
  }
  const rows = await ctx.repos.matches.listReferrals({ partnerId: options.partnerId, limit: limit + 1, before });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return ok({
    referrals: page.map((r) => ({
      referralId: r.id,
      applicationId: r.applicationId,
      offerId: r.offerId,
      lender: { id: r.lenderId, name: r.lenderName },
      product: { id: r.productId, name: r.productName },
      referredAt: r.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit && last ? Buffer.from(`${last.createdAt.getTime()}|${last.id}`).toString('base64url') : null,
  });
}
