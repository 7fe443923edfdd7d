/**
 * Lead ownership as referrals are recorded (`insertReferral`): over generated applicants, partners and
 * times, the owners of each lender's leads are exactly the first introducer per applicant per window; and
 * referrals of one applicant racing on two database pools (two processes) leave exactly one owner.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  insertApplication,
  insertMatchRun,
  insertReferral,
  openDatabase,
  writeDetails,
  type Database,
  type Sql,
} from '@loanmatch/db';
import { createPartner, putCatalogue, sealApplicantDetails } from '../src';
import { ONE_STORAGE, createTestContext, defaultCatalogueDocument, type TestContext } from '../../../tests/support';

const LENDERS = ['harbour-bank', 'southern-cross-mutual'] as const;
/** The windows the catalogue below states: 30 days for the first lender, the default 90 for the second. */
const WINDOW_DAYS = { 'harbour-bank': 30, 'southern-cross-mutual': 90 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

describe(`lead ownership on ${ONE_STORAGE}`, () => {
  let t: TestContext & { url?: string };
  const partners: string[] = [];

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    const document = defaultCatalogueDocument() as { lenders: Array<{ id: string; ownershipDays?: number }> };
    for (const lender of document.lenders) if (lender.id === LENDERS[0]) lender.ownershipDays = WINDOW_DAYS[LENDERS[0]];
    const put = await putCatalogue(t.ctx, { document });
    if (!put.ok) throw put.error;
    for (const name of ['One', 'Two', 'Three']) {
      const created = await createPartner(t.ctx, { body: { name } });
      if (!created.ok) throw created.error;
      partners.push(created.value.partnerId);
    }
  });
  afterAll(() => t.close());

  /** An application of the partner with these step-5 details, matched: what a tracking link names. */
  async function matchedApplication(partnerId: string, details: Record<string, string>, at: Date) {
    const applicationId = randomUUID();
    const matchRunId = randomUUID();
    await insertApplication(t.db, { id: applicationId, partnerId, formType: 'personal', step1: {}, now: at });
    await writeDetails(t.db, applicationId, sealApplicantDetails(t.ctx, applicationId, details));
    await insertMatchRun(t.db, {
      id: matchRunId,
      applicationId,
      partnerId,
      degradedMode: false,
      offers: '{}',
      now: at,
    });
    return { applicationId, matchRunId, partnerId };
  }

  /** Records the followed link on `db`; answers the referral's reference (its offer id). */
  async function refer(
    db: Database,
    app: { applicationId: string; matchRunId: string; partnerId: string },
    lenderId: string,
    at: Date,
  ) {
    const offerId = randomUUID();
    const recorded = await insertReferral(db, {
      id: randomUUID(),
      offerId,
      ...app,
      lenderId,
      productId: `${lenderId}-product`,
      commissionTerms: null,
      now: at,
    });
    expect(recorded).toBe(true);
    return offerId;
  }

  const attributions = (db: Sql, references: string[]) =>
    db.query<{ reference: string; attribution: string; duplicateOf: string | null }>(
      `SELECT offer_id::text AS reference, attribution, duplicate_of::text AS "duplicateOf"
         FROM referrals WHERE offer_id = ANY($1::uuid[])`,
      [references],
    );

  /**
   * One click: a partner's application of person `person`, its e-mail written one of three ways or the
   * person's other address, its number one of three ways or as text that is no number.
   */
  const click = fc.record({
    partner: fc.integer({ min: 0, max: 2 }),
    person: fc.integer({ min: 0, max: 2 }),
    lender: fc.constantFrom(...LENDERS),
    email: fc.constantFrom('plain', 'upper', 'spaced', 'other'),
    mobile: fc.constantFrom('national', 'e164', 'spaced', 'text'),
    hoursAfterPrevious: fc.integer({ min: 1, max: 40 * 24 }),
  });
  type Click = typeof click extends fc.Arbitrary<infer T> ? T : never;

  let run = 0;
  it('when partners refer applicants to lenders over time, then the owners are exactly the first introducer per applicant per window', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(click, { minLength: 1, maxLength: 12 }), async (clicks) => {
        run += 1;
        const start = Date.UTC(2026, 0, 1) + run * 1000 * DAY_MS;
        const emailOf = (c: Click) =>
          ({
            plain: `person${c.person}.run${run}@example.com`,
            upper: `Person${c.person}.RUN${run}@Example.com`,
            spaced: `  person${c.person}.run${run}@example.com `,
            other: `other${c.person}.run${run}@example.com`,
          })[c.email];
        const mobileOf = (c: Click) => {
          const n = `4${String(run).padStart(6, '0')}${c.person}5`; // nine digits after the 0 or +61
          return {
            national: `0${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`,
            e164: `+61${n}`,
            spaced: `+61 ${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`,
            text: 'call me after five',
          }[c.mobile];
        };
        // The model: what identifies the person in each click (null when it does not), and the rule.
        const identity = (c: Click) => ({
          email: c.email === 'other' ? `other-${c.person}` : `email-${c.person}`,
          mobile: c.mobile === 'text' ? null : `mobile-${c.person}`,
        });
        const expected: Array<{ attribution: string; duplicateOf: string | null }> = [];
        const made: Array<Click & { at: number; reference: string }> = [];
        let at = start;
        for (const c of clicks) {
          at += c.hoursAfterPrevious * 60 * 60 * 1000;
          const app = await matchedApplication(
            partners[c.partner],
            { email: emailOf(c), mobileNumber: mobileOf(c) },
            new Date(at),
          );
          const reference = await refer(t.db, app, c.lender, new Date(at));
          const me = identity(c);
          const owner = made.find(
            (o, i) =>
              expected[i].attribution === 'owner' &&
              o.lender === c.lender &&
              o.partner !== c.partner &&
              o.at > at - WINDOW_DAYS[c.lender] * DAY_MS &&
              (identity(o).email === me.email || (me.mobile !== null && identity(o).mobile === me.mobile)),
          );
          expected.push(
            owner
              ? { attribution: 'duplicate', duplicateOf: owner.reference }
              : { attribution: 'owner', duplicateOf: null },
          );
          made.push({ ...c, at, reference });
        }
        const stored = new Map(
          (
            await attributions(
              t.db,
              made.map((m) => m.reference),
            )
          ).map((r) => [r.reference, r]),
        );
        expect(
          made.map((m) => ({
            attribution: stored.get(m.reference)?.attribution,
            duplicateOf: stored.get(m.reference)?.duplicateOf,
          })),
        ).toEqual(expected);
        // Within an owner's window, no other partner owns the same person at the same lender.
        made.forEach((o, i) => {
          if (expected[i].attribution !== 'owner') return;
          const rival = made.find(
            (r, j) =>
              j > i &&
              expected[j].attribution === 'owner' &&
              r.lender === o.lender &&
              r.partner !== o.partner &&
              r.at < o.at + WINDOW_DAYS[o.lender] * DAY_MS &&
              identity(r).email === identity(o).email,
          );
          expect(rival).toBeUndefined();
        });
      }),
      { numRuns: 40 },
    );
  });

  it('when a sandbox partner referred the applicant first, then a live partner still owns the lead', async () => {
    const live = randomUUID();
    await t.db.query(`INSERT INTO partners (id, name, tier, environment) VALUES ($1, 'Live', 'standard', 'live')`, [
      live,
    ]);
    const details = { email: 'both.worlds@example.com', mobileNumber: '0499 111 222' };
    const at = new Date(Date.UTC(2028, 0, 1));
    const later = new Date(at.getTime() + DAY_MS);
    const sandbox = await refer(t.db, await matchedApplication(partners[0], details, at), LENDERS[1], at);
    const owner = await refer(t.db, await matchedApplication(live, details, later), LENDERS[1], later);
    expect(await attributions(t.db, [sandbox, owner])).toEqual(
      expect.arrayContaining([
        { reference: sandbox, attribution: 'owner', duplicateOf: null },
        { reference: owner, attribution: 'owner', duplicateOf: null },
      ]),
    );
  });

  it('when applications have neither an e-mail nor a mobile number that normalises, then none is a duplicate', async () => {
    const at = new Date(Date.UTC(2029, 0, 1));
    const unknown = { email: 'not an address', mobileNumber: 'call me later' };
    const references = [
      await refer(t.db, await matchedApplication(partners[0], unknown, at), LENDERS[1], at),
      await refer(t.db, await matchedApplication(partners[1], unknown, at), LENDERS[1], at),
      await refer(t.db, await matchedApplication(partners[2], {}, at), LENDERS[1], at),
    ];
    expect((await attributions(t.db, references)).map((r) => r.attribution)).toEqual(['owner', 'owner', 'owner']);
  });

  it('when several partners refer one applicant to one lender at the same moment on two pools, then exactly one owns it', async () => {
    if (!t.url) return; // PostgreSQL only: PGlite is one process
    const other = await openDatabase({ url: t.url, poolSize: 4 });
    try {
      for (let round = 0; round < 25; round++) {
        const at = new Date(Date.UTC(2027, 5, 1) + round * 1000);
        const details = { email: `racer${round}@example.com`, mobileNumber: `04${String(round).padStart(8, '0')}` };
        const apps = await Promise.all(partners.map((p) => matchedApplication(p, details, at)));
        const references = await Promise.all(apps.map((app, i) => refer(i % 2 ? other : t.db, app, LENDERS[1], at)));
        const rows = await attributions(t.db, references);
        const owners = rows.filter((r) => r.attribution === 'owner');
        expect(owners).toHaveLength(1);
        for (const r of rows.filter((r) => r.attribution === 'duplicate'))
          expect(r.duplicateOf).toBe(owners[0].reference);
      }
    } finally {
      await other.close();
    }
  });
});
