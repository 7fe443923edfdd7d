import fc from 'fast-check';
import {
  commissionCents,
  commissionTerms,
  commissionViolations,
  withinClawback,
  type CommissionDefinition,
} from '../../src/outcomes/commission';
import { formatCents, isWholeCents, toCents } from '../../src/outcomes/money';
import { summarise } from '../../src/outcomes/lifecycle';
import type { LifecycleEvent } from '../../src/outcomes/lifecycle';
import { loadCatalogue } from '../../src/matching';
import { defaultCatalogueDocument } from '../../../../tests/support';

const DAY = 24 * 60 * 60 * 1000;
const terms = (d: CommissionDefinition) => commissionTerms(d);

describe('commission in whole cents', () => {
  it('when a loan is funded, then fixed plus the percentage, rounded to the nearest cent (halves up), capped', () => {
    const t = terms({ fixed: 150, percent: 1.5, cap: 750, clawbackDays: 90 });
    expect(commissionCents(t, toCents(15000))).toBe(15_000 + 22_500); // $150 + $225
    expect(commissionCents(t, toCents(100_000))).toBe(75_000); // capped at $750
    // 1% of $10.50 is 10.5 cents: a half, up to 11; 1.5% of $10.33 is 15.495 cents: 15; of $10.37, 15.555: 16.
    expect(commissionCents(terms({ percent: 1, cap: 100, clawbackDays: 0 }), 1050)).toBe(11);
    expect(commissionCents(terms({ percent: 1.5, cap: 100, clawbackDays: 0 }), 1033)).toBe(15);
    expect(commissionCents(terms({ percent: 1.5, cap: 100, clawbackDays: 0 }), 1037)).toBe(16);
    expect(commissionCents(terms({ fixed: 90, clawbackDays: 30 }), toCents(2500))).toBe(9_000);
  });

  it('when amounts are added up, then no float error creeps in: a thousand commissions of $0.10 sum to exactly $100.00', () => {
    const t = terms({ fixed: 0.1, clawbackDays: 0 });
    let sum = 0;
    for (let i = 0; i < 1000; i++) sum += commissionCents(t, 100);
    expect(formatCents(sum)).toBe('100.00');
  });

  it('when any funded amount and terms are given, then the commission is a whole number of cents, never above the cap nor below the fixed part (unless capped)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        (funded, basisPoints, fixedCents, capCents) => {
          const c = commissionCents({ fixedCents, basisPoints, capCents, clawbackDays: 0 }, funded);
          expect(Number.isSafeInteger(c)).toBe(true);
          expect(c).toBeLessThanOrEqual(capCents);
          expect(c).toBe(Math.min(capCents, fixedCents + Math.round((funded * basisPoints) / 10_000 + 1e-9)));
        },
      ),
    );
  });

  it('when dollars are read, then only whole cents pass, and they convert exactly', () => {
    for (const ok of [0.29, 15000.5, 1, 0.01, 9_999_999.99]) expect(isWholeCents(ok)).toBe(true);
    for (const bad of [1.005, 0.001, Number.NaN, Number.POSITIVE_INFINITY]) expect(isWholeCents(bad)).toBe(false);
    expect(toCents(0.29)).toBe(29);
    expect(toCents(9_999_999.99)).toBe(999_999_999);
    expect(formatCents(1_500_050)).toBe('15000.50');
    expect(formatCents(7)).toBe('0.07');
  });

  it('when a cancellation falls on the last day of the clawback period, then it is within it; a moment later, not', () => {
    const t = terms({ fixed: 100, clawbackDays: 90 });
    const funded = new Date('2026-01-01T00:00:00Z');
    expect(withinClawback(t, funded, new Date(funded.getTime() + 90 * DAY))).toBe(true);
    expect(withinClawback(t, funded, new Date(funded.getTime() + 90 * DAY + 1))).toBe(false);
  });

  const at = (iso: string) => new Date(iso);
  const ev = (type: LifecycleEvent['type'], iso: string, seq: number, amount?: number): LifecycleEvent => ({
    type,
    occurredAt: at(iso),
    fundedAmountCents: amount ?? null,
    fundedAt: amount === undefined ? null : at(iso),
    seq,
  });

  it('when a funded loan is cancelled within the clawback period, then the commission is reversed to 0 and the funding no longer stands; after it, both stay', () => {
    const t = terms({ fixed: 100, percent: 1, cap: 600, clawbackDays: 90 });
    const funded = ev('funded', '2026-01-01T00:00:00Z', 0, 2_000_000);
    expect(summarise([funded], t)).toMatchObject({ status: 'funded', fundingStands: true, commissionCents: 30_000 });
    expect(summarise([funded, ev('cancelled', '2026-02-01T00:00:00Z', 1)], t)).toMatchObject({
      status: 'cancelled',
      fundingStands: false,
      commissionCents: 0,
      fundedAmountCents: 2_000_000,
    });
    expect(summarise([funded, ev('cancelled', '2026-06-01T00:00:00Z', 1)], t)).toMatchObject({
      status: 'cancelled',
      fundingStands: true,
      commissionCents: 30_000,
    });
    expect(summarise([ev('approved', '2026-01-01T00:00:00Z', 0)], t)).toMatchObject({
      approved: true,
      commissionCents: null,
    });
    expect(summarise([funded], null)).toMatchObject({ fundingStands: true, commissionCents: null });
  });
});

describe("the catalogue's commission", () => {
  const rules = (c: CommissionDefinition) => {
    const found: string[] = [];
    commissionViolations(c, (field, rule) => found.push(`${field}:${rule}`));
    return found;
  };

  it('when terms break a rule between their values, then each is named', () => {
    expect(rules({ clawbackDays: 30 })).toEqual(['commission:fixedOrPercent']);
    expect(rules({ fixed: 1.005, clawbackDays: 30 })).toEqual(['commission.fixed:twoDecimals']);
    expect(rules({ percent: 1, clawbackDays: 30 })).toEqual(['commission.cap:capWithPercent']);
    expect(rules({ fixed: 500, percent: 1, cap: 400, clawbackDays: 30 })).toEqual(['commission.cap:capNotBelowFixed']);
    expect(rules({ fixed: 100, percent: 1.25, cap: 600, clawbackDays: 90 })).toEqual([]);
  });

  it("when the repository's catalogue loads, then every product states its commission", () => {
    const loaded = loadCatalogue(defaultCatalogueDocument());
    if (!loaded.ok) throw loaded.error;
    const without = loaded.value.products.filter((p) => p.definition.commission === undefined);
    expect(without.map((p) => p.definition.id)).toEqual([]);
  });

  it('when a product states a commission the catalogue rules refuse, then the catalogue is refused naming the product', () => {
    const doc = defaultCatalogueDocument() as { products: Array<Record<string, unknown>> };
    doc.products[0].commission = { percent: 1.5, clawbackDays: 90 };
    doc.products[1].commission = { fixed: 100, clawbackDays: -1 };
    const loaded = loadCatalogue(doc);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error.details?.map((d) => d.message)).toEqual([
      expect.stringMatching(/^product \S+: commission.clawbackDays: /),
    ]);
    doc.products[1].commission = { fixed: 100, clawbackDays: 30 };
    const second = loadCatalogue(doc);
    expect(!second.ok && second.error.details?.map((d) => d.message)).toEqual([
      `product ${doc.products[0].id}: commission.cap: is required when percent is given`,
    ]);
  });
});
