/**
 * The writes of the busiest requests, each one statement (docs/adr/0061, 0062): a create
 * stores its idempotency key completed with its answer in the statement that makes the application, and
 * a status change is made only on the status it was decided from. On both storages, through the domain.
 */
import { randomUUID } from 'node:crypto';
import { saveStep as writeStep } from '@loanmatch/db';
import {
  createApplication,
  createPartner,
  getApplication,
  matchApplication,
  canonicalJson,
  registerWebhook,
  runCreditCheck,
  saveStep,
  type DomainContext,
} from '../src';
import {
  STORAGES,
  VALID_STEPS,
  createTestContext,
  validApplicant,
  countRows,
  storedRow,
  storedRows,
  type TestContext,
} from '../../../tests/support';

const requestFingerprint = (ctx: DomainContext, request: object) => ctx.personalData.digest(canonicalJson(request));

describe.each(STORAGES)('one-statement writes on %s', (storage) => {
  let t: TestContext;
  let partnerId: string;

  beforeAll(async () => {
    t = await createTestContext(storage);
    const created = await createPartner(t.ctx, { body: { name: 'Statement Partner' } });
    if (!created.ok) throw created.error;
    partnerId = created.value.partnerId;
  });
  afterAll(() => t.close());

  const createBody = { formType: 'personal', data: VALID_STEPS.personal[1] };
  const create = (key: string | undefined, body: unknown = createBody) =>
    createApplication(t.ctx, { partnerId, body, idempotencyKey: key });
  const keyRow = (key: string) => storedRow(t.db, 'idempotency_keys', { partnerId, key });
  /** A new application with steps 2-4 saved and its credit check run: ready to match. */
  const throughCreditCheck = async () => {
    const created = await create(undefined);
    if (!created.ok) throw created.error;
    const id = created.value.value.applicationId;
    for (const step of [2, 3, 4] as const)
      expect(
        (await saveStep(t.ctx, { partnerId, applicationId: id, body: { step, data: VALID_STEPS.personal[step] } })).ok,
      ).toBe(true);
    expect(
      (
        await runCreditCheck(t.ctx, {
          partnerId,
          applicationId: id,
          body: { data: validApplicant() },
          idempotencyKey: `check-${id}`,
          sandboxScore: 'good',
        })
      ).ok,
    ).toBe(true);
    return id;
  };
  const statusEvents = async (applicationId: string) =>
    (await storedRows(t.db, 'webhook_events', { applicationId }, 'seq')).map((e) => {
      const data = e.data as { previousStatus: string | null; status: string; lastStep: number };
      return [data.previousStatus, data.status, data.lastStep];
    });

  it('when a create succeeds under a key, then the key is stored completed with the answer, never left in progress', async () => {
    const key = `done-${randomUUID()}`;
    const created = await create(key);
    if (!created.ok) throw created.error;
    const row = await keyRow(key);
    expect(row).toMatchObject({
      state: 'completed',
      fingerprint: requestFingerprint(t.ctx, { operation: 'create-application', body: createBody }),
    });
    expect(JSON.parse(row!.responseBody!)).toEqual(created.value.value);
    expect(await statusEvents(created.value.value.applicationId)).toEqual([[null, 'draft', 1]]);
  });

  it('when a key has expired, then a create under it replaces it and makes a new application', async () => {
    const key = `expired-${randomUUID()}`;
    const old = await create(key);
    if (!old.ok) throw old.error;
    await t.db.query('UPDATE idempotency_keys SET expires_at = $3 WHERE partner_id = $1 AND key = $2', [
      partnerId,
      key,
      new Date(Date.now() - 1000),
    ]);
    const again = await create(key);
    if (!again.ok) throw again.error;
    expect(again.value.replayed).toBe(false);
    expect(again.value.value.applicationId).not.toBe(old.value.value.applicationId);
    expect(JSON.parse((await keyRow(key))!.responseBody!).applicationId).toBe(again.value.value.applicationId);
  });

  it('when an invalid create comes under a key held by another request, then the key answers first (422), as when keys were claimed before validating', async () => {
    const key = `held-${randomUUID()}`;
    expect((await create(key)).ok).toBe(true);
    const invalid = await create(key, { formType: 'personal', data: { loanAmount: 5 } });
    expect(invalid.ok || invalid.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('when an invalid create comes under a new key, then 400 and no key is stored, so the fixed request can use it', async () => {
    const key = `refused-${randomUUID()}`;
    const invalid = await create(key, { formType: 'personal', data: { loanAmount: 5 } });
    expect(invalid.ok || invalid.error.code).toBe('VALIDATION_ERROR');
    expect(await keyRow(key)).toBeNull();
    const fixed = await create(key);
    expect(fixed.ok && fixed.value.replayed).toBe(false);
  });

  it('when a key is held in progress by a live request, then a create under it is told so and writes nothing', async () => {
    const key = `live-${randomUUID()}`;
    const before = await countRows(t.db, 'applications', { partnerId });
    const release = t.ctx.instance.hold(`idem:${partnerId}:${key}`);
    try {
      await t.db.query(
        `INSERT INTO idempotency_keys (partner_id, key, fingerprint, state, owner_id, expires_at)
         VALUES ($1, $2, $3, 'in_progress', $4, $5)`,
        [
          partnerId,
          key,
          requestFingerprint(t.ctx, { operation: 'create-application', body: createBody }),
          t.ctx.instance.id,
          new Date(Date.now() + 60_000),
        ],
      );
      const res = await create(key);
      expect(res.ok || res.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    } finally {
      release();
    }
    expect(await countRows(t.db, 'applications', { partnerId })).toBe(before);
  });

  it('when a request that read draft saves step 2 after another request moved it on, then the move is announced once, naming what it left', async () => {
    const created = await create(undefined);
    if (!created.ok) throw created.error;
    const id = created.value.value.applicationId;
    // Another request saves step 2 first: draft → in_progress.
    expect(
      (await saveStep(t.ctx, { partnerId, applicationId: id, body: { step: 2, data: VALID_STEPS.personal[2] } })).ok,
    ).toBe(true);
    // This one read `draft`, lastStep 1, before that, and saves step 2 again.
    const row = await writeStep(t.db, {
      id,
      step: 2,
      data: { ...VALID_STEPS.personal[2], loanTerm: 3 },
      sealed: null,
      now: new Date(),
    });
    expect(row).toMatchObject({
      status: 'in_progress',
      lastStep: 2,
      steps: { 2: expect.objectContaining({ loanTerm: 3 }) },
    });
    expect(await statusEvents(id)).toEqual([
      [null, 'draft', 1],
      ['draft', 'in_progress', 2],
    ]);
  });

  it('when matches race, then each stores its run and the status moves and is announced once', async () => {
    const id = await throughCreditCheck();
    const matches = await Promise.all([1, 2, 3].map(() => matchApplication(t.ctx, { partnerId, applicationId: id })));
    expect(matches.every((m) => m.ok)).toBe(true);
    expect(await countRows(t.db, 'match_runs', { applicationId: id })).toBe(3);
    expect((await statusEvents(id)).slice(-2)).toEqual([
      ['in_progress', 'credit_checked', 5],
      ['credit_checked', 'matched', 5],
    ]);
    const read = await getApplication(t.ctx, { partnerId, applicationId: id });
    expect(read.ok && read.value.status).toBe('matched');
  });

  it('when a match is stored, then its run keeps the answer as sent and an offer snapshot per accepted offer', async () => {
    const id = await throughCreditCheck();
    const matched = await matchApplication(t.ctx, { partnerId, applicationId: id });
    if (!matched.ok) throw matched.error;
    expect(matched.value.acceptedOffers.length).toBeGreaterThan(0);
    const run = (await storedRow(t.db, 'match_runs', { id: matched.value.matchId }))!;
    const stored = run.offers as {
      offers: Array<{ offerId: string; lenderId: string; productId: string }>;
      view: unknown;
    };
    expect(stored.view).toEqual(matched.value);
    expect(stored.offers.map((o) => [o.offerId, o.lenderId, o.productId])).toEqual(
      matched.value.acceptedOffers.map((o) => [o.offerId, o.lender.id, o.product.id]),
    );
    expect(run).toMatchObject({ applicationId: id, partnerId, degradedMode: false });
    // Stored as the text it was sent as: the answer's characters, not a re-serialisation of them.
    const [raw] = await t.db.query<{ text: string }>(
      'SELECT offers::text AS text FROM match_runs WHERE id = $1::uuid',
      [matched.value.matchId],
    );
    expect(raw.text).toBe(`{"offers":${JSON.stringify(stored.offers)},"view":${JSON.stringify(matched.value)}}`);
  });

  it('when the partner has an endpoint, then a change writes one pending delivery with its event; without one, the event alone', async () => {
    const other = await createPartner(t.ctx, { body: { name: 'Subscribed Partner' } });
    if (!other.ok) throw other.error;
    const hook = await registerWebhook(t.ctx, {
      partnerId: other.value.partnerId,
      body: { url: 'http://127.0.0.1:9/hooks' },
    });
    if (!hook.ok) throw hook.error;
    const subscribed = await createApplication(t.ctx, {
      partnerId: other.value.partnerId,
      body: createBody,
      idempotencyKey: undefined,
    });
    const alone = await create(undefined);
    if (!subscribed.ok || !alone.ok) throw new Error('create failed');
    const deliveries = (applicationId: string) => storedRows(t.db, 'webhook_deliveries', { applicationId });
    expect(await deliveries(subscribed.value.value.applicationId)).toEqual([
      expect.objectContaining({ webhookId: hook.value.webhookId, state: 'pending', attempts: 0 }),
    ]);
    expect(await deliveries(alone.value.value.applicationId)).toEqual([]);
    expect(await statusEvents(alone.value.value.applicationId)).toEqual([[null, 'draft', 1]]);
  });
});
