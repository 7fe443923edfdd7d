/**
 * Commission per funded loan, by the product's terms as the offer carried them, in whole cents; a
 * cancellation within the clawback period reverses it.
 */
import { putCatalogue } from '@loanmatch/domain';
import {
  ONE_STORAGE,
  createTestContext,
  defaultCatalogueDocument,
  silentLogger,
  storedRow,
  type TestContext,
} from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { newPartnerKey } from './helpers';
import { lenderKey, makeReferral, minutesAgo, postOutcome, type MadeReferral } from './lifecycle-helpers';

const PRODUCT = 'harbour-personal-fixed'; // $150 + 1.5% of the funded amount, at most $750; clawback 90 days
const DAY = 24 * 60 * 60 * 1000;

describe(`commission on funded referrals on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let partnerKey: string;
  let key: string;

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    partnerKey = (await newPartnerKey(t.ctx, 'Earner')).apiKey;
    key = await lenderKey(t.ctx, 'harbour-bank');
  });
  afterAll(() => t.close());

  const referral = () =>
    makeReferral(app, partnerKey, {
      offer: (offers) => offers.findIndex((o) => o.product.id === PRODUCT),
      // Old enough for a funding 91 days ago, past the clawback period.
      referredAt: { db: t.ctx.db, at: new Date(Date.now() - 100 * 24 * 60 * 60 * 1000) },
    });
  const row = async (r: MadeReferral) => (await storedRow(t.db, 'referrals', { offerId: r.reference }))!;
  let n = 0;
  const fund = (r: MadeReferral, amount: number | string, at: string) =>
    postOutcome(app, key, {
      reference: r.reference,
      eventId: `fund-${++n}`,
      type: 'funded',
      occurredAt: at,
      fundedAmount: amount,
      fundedAt: at,
    });
  const cancel = (r: MadeReferral, at: string) =>
    postOutcome(app, key, { reference: r.reference, eventId: `cancel-${++n}`, type: 'cancelled', occurredAt: at });

  it("when the referral is made, then it keeps the product's terms in cents and basis points", async () => {
    const r = await referral();
    expect(r.productId).toBe(PRODUCT);
    expect((await row(r)).commissionTerms).toEqual({
      fixedCents: 15_000,
      basisPoints: 150,
      capCents: 75_000,
      clawbackDays: 90,
    });
  });

  it('when a loan is funded, then the partner earns fixed plus the percentage to the cent, capped', async () => {
    const small = await referral();
    expect((await fund(small, '12345.67', minutesAgo(5))).status).toBe(201);
    // $150 + 1.5% of $12,345.67 ($185.18505, to the nearest cent $185.19) = $335.19.
    expect(await row(small)).toMatchObject({ commissionCents: 33_519, fundedAmountCents: 1_234_567 });
    const large = await referral();
    await fund(large, 60_000, minutesAgo(5));
    expect((await row(large)).commissionCents).toBe(75_000); // $150 + $900, capped at $750
  });

  it('when the funded loan is cancelled within the clawback period, then the commission is reversed to 0; after it, the commission stays', async () => {
    const early = await referral();
    await fund(early, 20_000, new Date(Date.now() - 10 * DAY).toISOString());
    expect((await row(early)).commissionCents).toBe(45_000);
    expect((await cancel(early, minutesAgo(1))).body.data.status).toBe('cancelled');
    expect(await row(early)).toMatchObject({ commissionCents: 0, fundingStands: false, outcomeStatus: 'cancelled' });

    const late = await referral();
    await fund(late, 20_000, new Date(Date.now() - 91 * DAY).toISOString());
    await cancel(late, minutesAgo(1));
    expect(await row(late)).toMatchObject({
      commissionCents: 45_000,
      fundingStands: true,
      outcomeStatus: 'cancelled',
    });
  });

  it('when the catalogue changes the terms after the offer was made, then the referral is paid by the offer’s terms', async () => {
    const r = await referral();
    const doc = defaultCatalogueDocument() as { effectiveFrom: string; products: Array<Record<string, unknown>> };
    for (const p of doc.products) if (p.id === PRODUCT) p.commission = { fixed: 1, clawbackDays: 1 };
    const put = await putCatalogue(t.ctx, { document: { ...doc, effectiveFrom: '2099-01-01' } });
    expect(put.ok).toBe(true);
    await fund(r, 20_000, minutesAgo(5));
    expect((await row(r)).commissionCents).toBe(45_000);
  });
});
