/** Referrals made through Variant A, and lender keys, for the tests of the referral's life after the click. */
import request from 'supertest';
import type { Express } from 'express';
import { issueLenderKey, type DomainContext } from '@loanmatch/domain';
import { VALID_STEPS } from '../../../tests/support';
import { BASE, applicantBody, applicationThroughStep4, client, type Client } from './helpers';

export const LENDER_BASE = '/api/lender/v1';

export interface MadeReferral {
  applicationId: string;
  /** The `lm_ref` the tracking redirect gave the lender. */
  reference: string;
  lenderId: string;
  productId: string;
  offerId: string;
}

/**
 * A personal application (steps 1-4, an excellent check) of the partner with `apiKey`, matched, and its
 * first offer followed. `create` is the create body's extra fields (`clientTags`). A lender may report no
 * event dated before its referral: `referredAt` dates the referral back, for tests whose events are older.
 */
export async function makeReferral(
  app: Express,
  apiKey: string,
  options: {
    create?: Record<string, unknown>;
    offer?: (offers: Array<{ lender: { id: string }; product: { id: string } }>) => number;
    referredAt?: { db: DomainContext['db']; at: Date };
  } = {},
): Promise<MadeReferral> {
  const c: Client = client(app, apiKey);
  let applicationId: string;
  if (options.create) {
    const created = await c.create({ formType: 'personal', data: { loanAmount: 15000 }, ...options.create });
    if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
    applicationId = created.body.data.applicationId;
    for (const step of [2, 3, 4] as const) await c.patch(applicationId, { step, data: VALID_STEPS.personal[step] });
  } else {
    applicationId = await applicationThroughStep4(c, 'personal');
  }
  const checked = await c.check(applicationId, applicantBody(), `check-${applicationId}`, 'excellent');
  if (checked.status !== 200) throw new Error(`check failed: ${JSON.stringify(checked.body)}`);
  const offers = (await c.match(applicationId)).body.data.acceptedOffers;
  const offer = offers[options.offer ? options.offer(offers) : 0];
  const followed = await request(app).get(new URL(offer.trackingUrl).pathname);
  const reference = new URL(followed.headers.location).searchParams.get('lm_ref');
  if (followed.status !== 302 || !reference) throw new Error(`follow failed: ${followed.status}`);
  if (options.referredAt)
    await options.referredAt.db.query('UPDATE referrals SET created_at = $2 WHERE offer_id = $1', [
      reference,
      options.referredAt.at,
    ]);
  return { applicationId, reference, lenderId: offer.lender.id, productId: offer.product.id, offerId: offer.offerId };
}

export async function lenderKey(
  ctx: DomainContext,
  lenderId: string,
  environment?: 'sandbox' | 'live',
): Promise<string> {
  const issued = await issueLenderKey(ctx, { lenderId, body: environment ? { environment } : {} });
  if (!issued.ok) throw issued.error;
  return issued.value.apiKey;
}

/** Posts an outcome event with `key` (a lender key, or anything else a test sends). */
export const postOutcome = (app: Express, key: string | undefined, body: unknown) => {
  const req = request(app).post(`${LENDER_BASE}/outcomes`);
  if (key !== undefined) req.set('Authorization', `Bearer ${key}`);
  return req.send(body as object);
};

export const referrals = (app: Express, apiKey: string, query = '') =>
  request(app).get(`${BASE}/referrals${query}`).set('Authorization', `Bearer ${apiKey}`);

/** An ISO time `minutes` before now. */
export const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();
