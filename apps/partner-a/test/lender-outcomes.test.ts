/**
 * The lender API on the Variant A listener: a lender reports outcomes for the referrals it received,
 * identified by the `lm_ref` its tracking redirect carried.
 */
import request from 'supertest';
import { issueLenderKey, revokeKey, webhookBody } from '@loanmatch/domain';
import {
  STORAGES,
  createTestContext,
  silentLogger,
  storedRow,
  storedRows,
  type TestContext,
} from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { newPartnerKey } from './helpers';
import { LENDER_BASE, lenderKey, makeReferral, minutesAgo, postOutcome, type MadeReferral } from './lifecycle-helpers';

describe.each(STORAGES)('lenders report outcomes through the Variant A listener on %s', (storage) => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let partnerKey: string;

  beforeAll(async () => {
    t = await createTestContext(storage);
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    partnerKey = (await newPartnerKey(t.ctx, 'Referrer')).apiKey;
  });
  afterAll(() => t.close());

  /** A fresh referral and a key of its lender. */
  async function referral(): Promise<MadeReferral & { key: string }> {
    // Referred before the oldest event these tests report (5 January 2026).
    const made = await makeReferral(app, partnerKey, {
      referredAt: { db: t.ctx.db, at: new Date('2026-01-01T00:00:00Z') },
    });
    return { ...made, key: await lenderKey(t.ctx, made.lenderId) };
  }
  /** The referral with its lender's events. */
  const stored = async (reference: string): Promise<{ [field: string]: any; outcomes: any[] }> => {
    const row = await storedRow(t.db, 'referrals', { offerId: reference });
    return { ...row, outcomes: await storedRows(t.db, 'referral_outcomes', { referralId: row.id }) };
  };
  let n = 0;
  const eventId = () => `evt-${++n}-${Date.now()}`;

  it('when the lender reports started, approved and funded for its referral, then each answers 201 with the referral and its outcome', async () => {
    const r = await referral();
    const started = await postOutcome(app, r.key, {
      reference: r.reference,
      eventId: eventId(),
      type: 'application_started',
      occurredAt: minutesAgo(30),
    });
    expect(started.status).toBe(201);
    const referralId = (await stored(r.reference)).id;
    expect(started.body).toEqual({
      success: true,
      data: { outcomeId: expect.stringMatching(/^[0-9a-f-]{36}$/), referralId, status: 'application_started' },
    });
    const approved = await postOutcome(app, r.key, {
      reference: r.reference,
      eventId: eventId(),
      type: 'approved',
      occurredAt: minutesAgo(20),
    });
    expect(approved.body.data.status).toBe('approved');
    const funded = await postOutcome(app, r.key, {
      reference: r.reference.toUpperCase(),
      eventId: eventId(),
      type: 'funded',
      occurredAt: minutesAgo(10),
      fundedAmount: '15000.50',
      fundedAt: minutesAgo(10),
    });
    expect(funded.status).toBe(201);
    expect(funded.body.data).toMatchObject({ referralId, status: 'funded' });
    const row = await stored(r.reference);
    expect(row.outcomes).toHaveLength(3);
    expect(row).toMatchObject({
      outcomeStatus: 'funded',
      outcomeStarted: true,
      outcomeApproved: true,
      fundingStands: true,
      fundedAmountCents: 1500050,
    });
  });

  it('when an event is sent again, then the first answer is replayed with Idempotency-Replayed and nothing is added; other content under its id is 422', async () => {
    const r = await referral();
    const id = eventId();
    const event = { reference: r.reference, eventId: id, type: 'approved', occurredAt: '2026-01-05T10:00:00+10:00' };
    const first = await postOutcome(app, r.key, event);
    expect(first.status).toBe(201);
    const again = await postOutcome(app, r.key, { ...event, occurredAt: '2026-01-05T00:00:00Z' }); // the same instant
    expect(again.status).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(first.headers['idempotency-replayed']).toBeUndefined();

    const reused = await postOutcome(app, r.key, { ...event, type: 'application_started' });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({
      success: false,
      error: 'IDEMPOTENCY_KEY_REUSED',
      message: 'eventId: was already used for a different event; use a new eventId for a new event',
    });
    expect((await stored(r.reference)).outcomes).toHaveLength(1);
  });

  it('when the same event is sent several times at once, then one is recorded and every answer is its 201', async () => {
    const r = await referral();
    const event = {
      reference: r.reference,
      eventId: eventId(),
      type: 'application_started',
      occurredAt: minutesAgo(1),
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => postOutcome(app, r.key, event)));
    expect(answers.map((a) => [a.status, a.body.error])).toEqual(Array(10).fill([201, undefined]));
    expect(new Set(answers.map((a) => a.body.data.outcomeId)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotency-replayed'] === undefined)).toHaveLength(1);
    expect((await stored(r.reference)).outcomes).toHaveLength(1);
  });

  it("when the reference is another lender's or unknown, then 404; not a reference at all, 400 naming it; nothing is stored", async () => {
    const mine = await referral();
    const otherLender = mine.lenderId === 'harbour-bank' ? 'greenfield-bank' : 'harbour-bank';
    const stranger = await lenderKey(t.ctx, otherLender);
    const malformed = await postOutcome(app, stranger, {
      reference: 'not-a-reference',
      eventId: eventId(),
      type: 'application_started',
      occurredAt: minutesAgo(1),
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: 'reference: must be the lm_ref of a referral (a UUID)',
    });
    for (const reference of [mine.reference, '00000000-0000-4000-8000-000000000000']) {
      const res = await postOutcome(app, stranger, {
        reference,
        eventId: eventId(),
        type: 'application_started',
        occurredAt: minutesAgo(1),
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        error: 'NOT_FOUND',
        message: 'reference: names no referral of this lender',
      });
    }
    expect((await stored(mine.reference)).outcomes).toHaveLength(0);
  });

  it('when an event or a funding is dated before the referral (beyond 5 minutes of clock skew), or a funding before its approval, then 400 naming the field and nothing is stored', async () => {
    const made = await makeReferral(app, partnerKey); // referred now
    const key = await lenderKey(t.ctx, made.lenderId);
    const send = (body: object) => postOutcome(app, key, { reference: made.reference, eventId: eventId(), ...body });
    const yearsAgo = '2000-01-01T00:00:00Z';
    const refusals: Array<[object, string]> = [
      [{ type: 'approved', occurredAt: '1971-01-01T00:00:00Z' }, 'occurredAt'],
      [{ type: 'funded', occurredAt: minutesAgo(0), fundedAmount: 9000, fundedAt: yearsAgo }, 'fundedAt'],
      [{ type: 'approved', occurredAt: minutesAgo(6) }, 'occurredAt'],
    ];
    for (const [body, field] of refusals) {
      const res = await send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: expect.stringMatching(new RegExp(`^${field}: must not be before the referral \\(`)),
        details: [{ field, rule: 'afterReferral' }],
      });
    }
    expect((await stored(made.reference)).outcomes).toHaveLength(0);

    // Within the clocks' tolerance: accepted. A funding dated before that approval: refused.
    expect((await send({ type: 'approved', occurredAt: minutesAgo(2) })).status).toBe(201);
    const early = await send({
      type: 'funded',
      occurredAt: minutesAgo(0),
      fundedAmount: 9000,
      fundedAt: minutesAgo(3),
    });
    expect(early.status).toBe(400);
    expect(early.body.details).toEqual([
      expect.objectContaining({
        field: 'fundedAt',
        rule: 'afterApproval',
        message: expect.stringMatching(/^fundedAt: must not be before the approval/),
      }),
    ]);
    expect(
      (await send({ type: 'funded', occurredAt: minutesAgo(0), fundedAmount: 9000, fundedAt: minutesAgo(1) })).status,
    ).toBe(201);
    expect((await stored(made.reference)).outcomes.map((o) => o.type)).toEqual(['approved', 'funded']);
  });

  it('when the approval arrives after a funding dated before it, then 400 naming occurredAt and nothing is stored', async () => {
    const made = await makeReferral(app, partnerKey);
    const key = await lenderKey(t.ctx, made.lenderId);
    const send = (body: object) => postOutcome(app, key, { reference: made.reference, eventId: eventId(), ...body });
    const funding = { type: 'funded', occurredAt: minutesAgo(0), fundedAmount: 9000, fundedAt: minutesAgo(3) };
    expect((await send(funding)).status).toBe(201);

    const late = await send({ type: 'approved', occurredAt: minutesAgo(2) });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^occurredAt: must not be after the funding \(/),
      details: [{ field: 'occurredAt', rule: 'beforeFunding' }],
    });
    // An approval dated at or before the funding, reported late, is kept and moves nothing.
    const kept = await send({ type: 'approved', occurredAt: minutesAgo(4) });
    expect(kept.status).toBe(201);
    expect(kept.body.data.status).toBe('funded');
    expect((await stored(made.reference)).outcomes.map((o) => o.type)).toEqual(['approved', 'funded']);
  });

  it('when a partner key, no key, a revoked or a live lender key is sent to the lender route, then 401', async () => {
    const r = await referral();
    const event = { reference: r.reference, eventId: eventId(), type: 'approved', occurredAt: minutesAgo(1) };
    const revoked = await issueLenderKey(t.ctx, { lenderId: r.lenderId, body: {} });
    if (!revoked.ok) throw revoked.error;
    expect((await revokeKey(t.ctx, { keyId: revoked.value.keyId })).ok).toBe(true);
    const live = await lenderKey(t.ctx, r.lenderId, 'live');
    for (const key of [partnerKey, undefined, 'lm_lender_sandbox_short', revoked.value.apiKey, live]) {
      const res = await postOutcome(app, key, event);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    // The lender key on every partner route is refused, as the partner key is here.
    expect((await request(app).get('/api/partner/v1/referrals').set('Authorization', `Bearer ${r.key}`)).status).toBe(
      401,
    );
    expect((await stored(r.reference)).outcomes).toHaveLength(0);
  });

  it('when events arrive out of order, then each is kept and the outcome is the latest by occurredAt', async () => {
    const r = await referral();
    const funded = await postOutcome(app, r.key, {
      reference: r.reference,
      eventId: eventId(),
      type: 'funded',
      occurredAt: minutesAgo(5),
      fundedAmount: 12000,
      fundedAt: minutesAgo(5),
    });
    expect(funded.body.data.status).toBe('funded');
    for (const [type, at] of [
      ['approved', 15],
      ['application_started', 25],
    ] as const) {
      const late = await postOutcome(app, r.key, {
        reference: r.reference,
        eventId: eventId(),
        type,
        occurredAt: minutesAgo(at),
      });
      expect(late.status).toBe(201);
      expect(late.body.data.status).toBe('funded');
    }
    const row = await stored(r.reference);
    expect(row.outcomes.map((o) => o.type).sort()).toEqual(['application_started', 'approved', 'funded']);
    expect(row).toMatchObject({ outcomeStatus: 'funded', outcomeStarted: true, outcomeApproved: true });
  });

  it('when an event breaks the lifecycle where it falls in time, then 409 OUTCOME_TRANSITION_INVALID and nothing is stored; a funded loan may be cancelled', async () => {
    const r = await referral();
    expect(
      (
        await postOutcome(app, r.key, {
          reference: r.reference,
          eventId: eventId(),
          type: 'funded',
          occurredAt: minutesAgo(10),
          fundedAmount: 9000,
          fundedAt: minutesAgo(10),
        })
      ).status,
    ).toBe(201);
    const before = await stored(r.reference);
    const declinedLater = await postOutcome(app, r.key, {
      reference: r.reference,
      eventId: eventId(),
      type: 'declined',
      declineReason: 'affordability',
      occurredAt: minutesAgo(5),
    });
    expect(declinedLater.status).toBe(409);
    expect(declinedLater.body).toEqual({
      success: false,
      error: 'OUTCOME_TRANSITION_INVALID',
      message: 'type: a funded referral cannot become declined; a funded referral may only become cancelled',
    });
    const declinedEarlier = await postOutcome(app, r.key, {
      reference: r.reference,
      eventId: eventId(),
      type: 'declined',
      declineReason: 'policy',
      occurredAt: minutesAgo(20),
    });
    expect(declinedEarlier.status).toBe(409);
    expect(declinedEarlier.body.message).toMatch(/^type: declined at .+ comes before funded at .+, already reported: /);
    expect(await stored(r.reference)).toEqual(before);

    const cancelled = await postOutcome(app, r.key, {
      reference: r.reference,
      eventId: eventId(),
      type: 'cancelled',
      occurredAt: minutesAgo(1),
    });
    expect(cancelled.status).toBe(201);
    expect(cancelled.body.data.status).toBe('cancelled');
  });

  it.each([
    [
      'an unknown type',
      { type: 'refinanced' },
      'type: must be one of application_started, approved, declined, funded, withdrawn, cancelled',
    ],
    [
      'an unknown decline reason',
      { type: 'declined', declineReason: 'vibes' },
      'declineReason: must be one of credit_history, affordability, employment, identity, policy, other',
    ],
    ['a decline without its reason', { type: 'declined' }, 'declineReason: is required when type is declined'],
    [
      'a funding without its amount',
      { type: 'funded', fundedAt: '2026-01-01T00:00:00Z' },
      'fundedAmount: is required when type is funded',
    ],
    [
      'a fraction of a cent',
      { type: 'funded', fundedAmount: 100.005, fundedAt: '2026-01-01T00:00:00Z' },
      'fundedAmount: must be an amount with at most two decimal places',
    ],
    [
      'a funded amount of 0',
      { type: 'funded', fundedAmount: 0, fundedAt: '2026-01-01T00:00:00Z' },
      'fundedAmount: must be between 0.01 and 10000000',
    ],
    ['an amount on an approval', { type: 'approved', fundedAmount: 100 }, 'fundedAmount: is only for type funded'],
    [
      'a time that is no time',
      { type: 'approved', occurredAt: 'yesterday' },
      'occurredAt: must be a date and time with its offset, such as 2026-11-20T10:00:00Z',
    ],
    [
      'a time without its offset',
      { type: 'approved', occurredAt: '2026-01-05T10:00:00' },
      'occurredAt: must be a date and time with its offset, such as 2026-11-20T10:00:00Z',
    ],
    [
      'a time an hour ahead',
      { type: 'approved', occurredAt: new Date(Date.now() + 3_600_000).toISOString() },
      'occurredAt: must not be in the future',
    ],
    [
      'an event id with spaces',
      { type: 'approved', eventId: 'has spaces' },
      'eventId: must be printable ASCII without spaces',
    ],
    ['a reference that is a number', { type: 'approved', reference: 42 }, 'reference: must be a string'],
    ['a field the event does not have', { type: 'approved', amount: 5 }, 'amount: is not a field of an outcome event'],
  ])(
    'when the event has %s, then 400 VALIDATION_ERROR naming the field, and nothing is stored',
    async (_case, change, message) => {
      const r = await referral();
      const res = await postOutcome(app, r.key, {
        reference: r.reference,
        eventId: eventId(),
        occurredAt: minutesAgo(1),
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_ERROR');
      expect(res.body.message).toBe(message);
      expect(res.body.details[0]).toMatchObject({ field: message.split(':')[0], message });
      expect((await stored(r.reference)).outcomes).toHaveLength(0);
    },
  );

  it('when the body is not JSON or not an object, then 400 and nothing is stored', async () => {
    const r = await referral();
    const bad = await request(app)
      .post(`${LENDER_BASE}/outcomes`)
      .set('Authorization', `Bearer ${r.key}`)
      .set('Content-Type', 'application/json')
      .send('{"reference":');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_JSON');
    expect((await postOutcome(app, r.key, [1, 2])).body.message).toBe('body: must be a JSON object');
    expect((await stored(r.reference)).outcomes).toHaveLength(0);
  });

  it('when the status moves, then referral.outcome_changed is queued with identifiers and statuses only; an earlier event that moves nothing queues none', async () => {
    const r = await referral();
    const events = () =>
      storedRows(t.db, 'webhook_events', { applicationId: r.applicationId, type: 'referral.outcome_changed' }, 'seq');
    await postOutcome(app, r.key, {
      reference: r.reference,
      eventId: eventId(),
      type: 'approved',
      occurredAt: minutesAgo(10),
    });
    await postOutcome(app, r.key, {
      reference: r.reference,
      eventId: eventId(),
      type: 'application_started',
      occurredAt: minutesAgo(20),
    });
    const queued = await events();
    expect(queued).toHaveLength(1);
    const body = JSON.parse(webhookBody(queued[0]));
    const referralId = (await stored(r.reference)).id;
    expect(body).toEqual({
      type: 'referral.outcome_changed',
      timestamp: expect.any(String),
      data: {
        referralId,
        applicationId: r.applicationId,
        lenderId: r.lenderId,
        status: 'approved',
        previousStatus: null,
        clientTags: {},
      },
    });
  });

  it("when a sandbox key reports on a live partner's referral, then 404: a sandbox key reaches sandbox referrals only", async () => {
    const r = await referral();
    const partner = (await storedRow(t.db, 'referrals', { offerId: r.reference }))!;
    await t.db.query(`UPDATE partners SET environment = 'live' WHERE id = $1`, [partner.partnerId]);
    try {
      const res = await postOutcome(app, r.key, {
        reference: r.reference,
        eventId: eventId(),
        type: 'approved',
        occurredAt: minutesAgo(1),
      });
      expect(res.status).toBe(404);
    } finally {
      await t.db.query(`UPDATE partners SET environment = 'sandbox' WHERE id = $1`, [partner.partnerId]);
    }
  });
});
