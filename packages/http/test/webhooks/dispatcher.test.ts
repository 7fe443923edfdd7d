import { Webhook as StandardWebhook } from 'standardwebhooks';
import {
  claimWebhookDeliveries,
  createApplication,
  createPartner,
  followTrackingLink,
  listWebhookDeliveries,
  listWebhooks,
  matchApplication,
  newWebhookSecret,
  registerWebhook,
  rotateWebhookSecret,
  runCreditCheck,
  saveStep,
  sendTestEvent,
  type DomainContext,
  webhookBody,
} from '@loanmatch/domain';
import { openDatabase, saveStep as writeStep } from '@loanmatch/db';
import {
  STORAGES,
  VALID_STEPS,
  createTestContext,
  eventually,
  startWebhookReceiver,
  validApplicant,
  countRows,
  storedRow,
  storedRows,
  type TestContext,
  type WebhookReceiver,
} from '../../../../tests/support';
import { createDispatcher, type Dispatcher } from '../../src';

jest.setTimeout(30_000);

const FAST = { retryDelaysMs: [100, 100, 100], disableAfterMs: 5 * 24 * 3600_000, random: () => 0.5 };
const bodyOf = (r: { body: string }) => JSON.parse(r.body);

describe.each(STORAGES)('webhook dispatcher on %s', (storage) => {
  let t: TestContext & { url?: string };
  let ctx: DomainContext;
  let receiver: WebhookReceiver;
  let dispatcher: Dispatcher | undefined;
  let wake: () => void = () => undefined;

  beforeAll(async () => {
    t = await createTestContext(storage, { notify: () => wake() });
    ctx = t.ctx;
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  afterEach(async () => {
    await dispatcher?.stop();
    dispatcher = undefined;
    receiver.reply(() => ({ status: 204 }));
    receiver.received.length = 0;
  });

  function startDispatcher(options: Partial<Parameters<typeof createDispatcher>[0]> = {}): Dispatcher {
    const d = createDispatcher({ ctx, pollMs: 50, retry: FAST, timeoutMs: 2000, ...options });
    wake = () => d.wake();
    d.start();
    dispatcher = d;
    return d;
  }

  async function partnerWithWebhook(path: string) {
    const partner = await createPartner(ctx, { body: { name: `P ${path}`, environment: 'sandbox' } });
    if (!partner.ok) throw partner.error;
    const hook = await registerWebhook(ctx, {
      partnerId: partner.value.partnerId,
      body: { url: `${receiver.origin}${path}` },
    });
    if (!hook.ok) throw hook.error;
    return { partnerId: partner.value.partnerId, webhookId: hook.value.webhookId, secret: hook.value.secret };
  }

  async function create(partnerId: string): Promise<string> {
    const created = await createApplication(ctx, {
      partnerId,
      body: { formType: 'personal', data: VALID_STEPS.personal[1] },
      idempotencyKey: undefined,
    });
    if (!created.ok) throw created.error;
    return created.value.value.applicationId;
  }

  async function step(partnerId: string, applicationId: string, n: 2 | 3 | 4) {
    const saved = await saveStep(ctx, { partnerId, applicationId, body: { step: n, data: VALID_STEPS.personal[n] } });
    if (!saved.ok) throw saved.error;
  }

  const at = (path: string) => (r: { path: string }) => r.path === path;

  /**
   * The webhook's delivery log once nothing is pending: every attempt made is then recorded (after its
   * answer arrived), so the receiver holds all there will be, and no retry can follow. Read again once
   * nothing is pending, so that both of its statements see the last attempt.
   */
  async function settled(partnerId: string, webhookId: string) {
    const read = async () => {
      const listed = await listWebhookDeliveries(ctx, { partnerId, webhookId });
      if (!listed.ok) throw listed.error;
      return listed.value;
    };
    await eventually(read, (log) => log.pending === 0);
    return read();
  }

  it('when an application moves through every status, then the endpoint gets each change once, in order, signed, and without personal data', async () => {
    const { partnerId, webhookId, secret } = await partnerWithWebhook('/all');
    startDispatcher();
    const id = await create(partnerId);
    for (const n of [2, 3, 4] as const) await step(partnerId, id, n);
    const checked = await runCreditCheck(ctx, {
      partnerId,
      applicationId: id,
      body: { data: validApplicant() },
      idempotencyKey: `wh-${id}`,
      sandboxScore: 'excellent',
    });
    expect(checked.ok).toBe(true);
    const matched = await matchApplication(ctx, { partnerId, applicationId: id });
    if (!matched.ok) throw matched.error;
    await matchApplication(ctx, { partnerId, applicationId: id }); // matched again: no new status, no event
    const token = new URL(matched.value.acceptedOffers[0].trackingUrl).pathname.slice(3);
    expect((await followTrackingLink(ctx, { token })).ok).toBe(true);

    const got = await receiver.waitFor(5, { filter: at('/all') });
    expect((await settled(partnerId, webhookId)).pending).toBe(0);
    expect(receiver.received.filter(at('/all'))).toHaveLength(5);
    expect(got.map((r) => bodyOf(r).data)).toEqual([
      { applicationId: id, status: 'draft', previousStatus: null, lastStep: 1 },
      { applicationId: id, status: 'in_progress', previousStatus: 'draft', lastStep: 2 },
      { applicationId: id, status: 'credit_checked', previousStatus: 'in_progress', lastStep: 5 },
      { applicationId: id, status: 'matched', previousStatus: 'credit_checked', lastStep: 5 },
      { applicationId: id, status: 'referred', previousStatus: 'matched', lastStep: 5 },
    ]);
    const verifier = new StandardWebhook(secret);
    for (const r of got) {
      const body = bodyOf(r);
      expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
      expect(body.type).toBe('application.status_changed');
      expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(verifier.verify(r.body, r.headers as Record<string, string>)).toEqual(body);
      for (const secretText of ['Jordan', 'Citizen', 'jordan.citizen@example.com', '0412345678', '1988-07-14'])
        expect(r.body).not.toContain(secretText);
      expect(r.body).not.toMatch(/score|band/i);
    }
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(5);
  });

  it('when the endpoint fails twice and then succeeds, then it gets the event three times and no more, under one webhook-id', async () => {
    const { partnerId, webhookId } = await partnerWithWebhook('/flaky');
    let n = 0;
    receiver.reply(() => (++n <= 2 ? { status: 500, body: 'not yet' } : { status: 200 }));
    startDispatcher();
    await create(partnerId);
    const got = await receiver.waitFor(3, { filter: at('/flaky') });
    // Three retries are allowed; none may follow a success.
    const log = await settled(partnerId, webhookId);
    expect(log.pending).toBe(0);
    expect(receiver.received.filter(at('/flaky'))).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);

    expect(log.deliveries.map((d) => [d.attempt, d.status, d.responseStatus])).toEqual([
      [3, 'succeeded', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(log.deliveries[0]).toMatchObject({
      eventType: 'application.status_changed',
      error: null,
      nextRetryAt: null,
      durationMs: expect.any(Number),
    });
    expect(log.deliveries[1]).toMatchObject({ error: 'http_500', nextRetryAt: expect.any(String) });
  });

  it('when every attempt fails, then the schedule is followed to its end and the delivery is given up', async () => {
    const { partnerId, webhookId } = await partnerWithWebhook('/down');
    receiver.reply(() => ({ status: 503 }));
    startDispatcher();
    await create(partnerId);
    await receiver.waitFor(4, { filter: at('/down') }); // the first attempt and three retries
    const log = await settled(partnerId, webhookId);
    expect(log.pending).toBe(0);
    expect(receiver.received.filter(at('/down'))).toHaveLength(4);
    expect(log.deliveries[0]).toMatchObject({ attempt: 4, status: 'failed', nextRetryAt: null });
    expect((await listWebhooks(ctx, { partnerId })).ok && (await listWebhooks(ctx, { partnerId }))).toMatchObject({
      value: { webhooks: [{ status: 'active', failingSince: expect.any(String) }] },
    });
  });

  it('when the endpoint answers Retry-After, then the next attempt waits at least that long', async () => {
    const { partnerId } = await partnerWithWebhook('/later');
    let n = 0;
    receiver.reply(() => (++n === 1 ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 204 }));
    startDispatcher();
    await create(partnerId);
    const [first, second] = await receiver.waitFor(2, { filter: at('/later') });
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('when an event of an application is still pending, then its later events wait, while other applications go on', async () => {
    const { partnerId, webhookId } = await partnerWithWebhook('/order');
    const slow = await create(partnerId);
    await step(partnerId, slow, 2);
    const other = await create(partnerId);
    let slowDrafts = 0;
    receiver.reply((_n, r) => {
      const { data } = bodyOf(r);
      return data.applicationId === slow && data.status === 'draft' && ++slowDrafts === 1
        ? { status: 500 }
        : { status: 204 };
    });
    startDispatcher({ retry: { ...FAST, retryDelaysMs: [400, 400, 400] } });
    await receiver.waitFor(4, { filter: at('/order') });
    expect((await settled(partnerId, webhookId)).pending).toBe(0);
    const got = receiver.received
      .filter(at('/order'))
      .map((r) => [bodyOf(r).data.applicationId, bodyOf(r).data.status]);
    expect(got.filter(([a]) => a === slow).map(([, s]) => s)).toEqual(['draft', 'draft', 'in_progress']);
    // The other application's event went out while the slow one's draft waited for its retry.
    expect(got.findIndex(([a]) => a === other)).toBeLessThan(
      got.findIndex(([a, s], i) => a === slow && s === 'draft' && i > 0),
    );
  });

  it('when a status change rolls back, then no event exists for it', async () => {
    const { partnerId } = await partnerWithWebhook('/rollback');
    const id = await create(partnerId);
    const events = () => countRows(t.db, 'webhook_events', { applicationId: id });
    expect(await events()).toBe(1);
    await expect(
      ctx.db.transaction(async (tx) => {
        await writeStep(tx, { id, step: 2, data: VALID_STEPS.personal[2], sealed: null, now: new Date() });
        throw new Error('something after the change failed');
      }),
    ).rejects.toThrow('something after the change failed');
    expect(await events()).toBe(1);
    expect((await storedRow(t.db, 'applications', { id }))?.status).toBe('draft');
    expect(await countRows(t.db, 'webhook_deliveries', { applicationId: id })).toBe(1);
  });

  it('when several requests change one application at once, then each transition is announced once, naming the status it left', async () => {
    const { partnerId } = await partnerWithWebhook('/race');
    const id = await create(partnerId);
    const saves = await Promise.all(
      [2, 2, 2, 2].map(() =>
        saveStep(ctx, { partnerId, applicationId: id, body: { step: 2, data: VALID_STEPS.personal[2] } }),
      ),
    );
    expect(saves.every((r) => r.ok)).toBe(true);
    for (const n of [3, 4] as const) await step(partnerId, id, n);
    expect(
      (
        await runCreditCheck(ctx, {
          partnerId,
          applicationId: id,
          body: { data: validApplicant() },
          idempotencyKey: `race-${id}`,
          sandboxScore: 'excellent',
        })
      ).ok,
    ).toBe(true);
    // Concurrent matches insert match runs (a key-share lock on the application) and then lock it for the status.
    const matches = await Promise.all([1, 2, 3, 4].map(() => matchApplication(ctx, { partnerId, applicationId: id })));
    expect(matches.every((r) => r.ok)).toBe(true);
    const events = await storedRows(t.db, 'webhook_events', { applicationId: id }, 'seq');
    expect(
      events.map((e) => [JSON.parse(webhookBody(e)).data.previousStatus, JSON.parse(webhookBody(e)).data.status]),
    ).toEqual([
      [null, 'draft'],
      ['draft', 'in_progress'],
      ['in_progress', 'credit_checked'],
      ['credit_checked', 'matched'],
    ]);
  });

  it('when the endpoint answers 410 Gone, then it is disabled, says why, and receives nothing more', async () => {
    const { partnerId, webhookId } = await partnerWithWebhook('/gone');
    receiver.reply(() => ({ status: 410 }));
    const d = startDispatcher();
    await create(partnerId);
    await receiver.waitFor(1, { filter: at('/gone') });
    const hook = await eventually(
      async () => {
        const listed = await listWebhooks(ctx, { partnerId });
        if (!listed.ok) throw listed.error;
        return listed.value.webhooks[0];
      },
      (h) => h.status === 'disabled',
    );
    expect(hook).toMatchObject({
      webhookId,
      status: 'disabled',
      disabledReason: expect.stringContaining('410 Gone'),
      disabledAt: expect.any(String),
    });
    await create(partnerId);
    await d.runOnce(); // sends whatever is due, and waits for it
    expect(receiver.received.filter(at('/gone'))).toHaveLength(1);
    const test = await sendTestEvent(ctx, { partnerId, webhookId });
    expect(!test.ok && test.error.code).toBe('WEBHOOK_DISABLED');
  });

  it('when an endpoint has failed for five days, then its next failure disables it and GET /webhooks says why', async () => {
    let now = Date.now();
    const clocked: DomainContext = { ...ctx, clock: () => new Date(now) };
    const partner = await createPartner(clocked, { body: { name: 'Failing', environment: 'sandbox' } });
    if (!partner.ok) throw partner.error;
    const { partnerId } = partner.value;
    const hook = await registerWebhook(clocked, { partnerId, body: { url: `${receiver.origin}/failing` } });
    if (!hook.ok) throw hook.error;
    receiver.reply(() => ({ status: 500 }));
    const d = createDispatcher({ ctx: clocked, retry: { retryDelaysMs: [1000], disableAfterMs: 5 * 24 * 3600_000 } });
    dispatcher = d;
    const createAt = async () => {
      const c = await createApplication(clocked, {
        partnerId,
        body: { formType: 'personal', data: VALID_STEPS.personal[1] },
        idempotencyKey: undefined,
      });
      if (!c.ok) throw c.error;
    };
    await createAt();
    await d.runOnce();
    now += 2 * 24 * 3600_000;
    await d.runOnce(); // the retry, two days on: still failing, still active
    let listed = await listWebhooks(clocked, { partnerId });
    expect(listed.ok && listed.value.webhooks[0].status).toBe('active');
    now += 3 * 24 * 3600_000 + 1000;
    await createAt();
    await d.runOnce();
    listed = await listWebhooks(clocked, { partnerId });
    if (!listed.ok) throw listed.error;
    expect(listed.value.webhooks[0]).toMatchObject({
      status: 'disabled',
      disabledReason: expect.stringMatching(/^No 2xx answer since .+ \(5 days\)/),
    });
    expect(receiver.received.filter(at('/failing'))).toHaveLength(3);
  });

  it('when the secret is rotated, then both secrets sign for 24 hours and only the new one after', async () => {
    let now = Date.now();
    const clocked: DomainContext = { ...ctx, clock: () => new Date(now) };
    const { partnerId, webhookId, secret: oldSecret } = await partnerWithWebhook('/rotate');
    const rotated = await rotateWebhookSecret(clocked, { partnerId, webhookId });
    if (!rotated.ok) throw rotated.error;
    expect(rotated.value.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.value.secret).not.toBe(oldSecret);
    const d = createDispatcher({ ctx: clocked, retry: FAST });
    dispatcher = d;
    expect((await sendTestEvent(clocked, { partnerId, webhookId })).ok).toBe(true);
    await d.runOnce();
    const [during] = await receiver.waitFor(1, { filter: at('/rotate') });
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    for (const s of signatures) expect(s).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // Each secret alone verifies the message, with the reference implementation of Standard Webhooks.
    for (const s of [rotated.value.secret, oldSecret]) {
      expect(new StandardWebhook(s).verify(during.body, during.headers as Record<string, string>)).toEqual(
        bodyOf(during),
      );
    }
    expect(() =>
      new StandardWebhook(newWebhookSecret()).verify(during.body, during.headers as Record<string, string>),
    ).toThrow(); // a stranger's secret does not
    expect(bodyOf(during)).toMatchObject({ type: 'webhook.test', data: { webhookId } });

    now += 24 * 3600_000 + 1000;
    expect((await sendTestEvent(clocked, { partnerId, webhookId })).ok).toBe(true);
    await d.runOnce();
    const after = (await receiver.waitFor(2, { filter: at('/rotate') }))[1];
    const single = String(after.headers['webhook-signature']).split(' ');
    expect(single).toHaveLength(1);
    const ts = Number(after.headers['webhook-timestamp']);
    expect(
      new StandardWebhook(rotated.value.secret).sign(
        String(after.headers['webhook-id']),
        new Date(ts * 1000),
        after.body,
      ),
    ).toBe(single[0]);
  });

  it('when a dispatcher died mid-attempt, then its claim runs out and another sends the delivery', async () => {
    const { partnerId } = await partnerWithWebhook('/lease');
    const id = await create(partnerId);
    const stolen = await claimWebhookDeliveries(ctx, { limit: 10, leaseMs: 400 });
    expect(stolen.map((j) => JSON.parse(j.body).data.applicationId)).toContain(id);
    // That dispatcher never records anything. Another one finds nothing due while the lease runs …
    const d = createDispatcher({ ctx, retry: FAST });
    dispatcher = d;
    await d.runOnce();
    expect(receiver.received.filter(at('/lease'))).toHaveLength(0);
    // … and takes it over once it ran out.
    expect(
      await eventually(
        () => d.runOnce(),
        (claimed) => claimed > 0,
      ),
    ).toBeGreaterThan(0);
    const [got] = await receiver.waitFor(1, { filter: at('/lease') });
    expect(got.headers['webhook-id']).toBe(stolen.find((j) => JSON.parse(j.body).data.applicationId === id)!.eventId);
  });

  if (storage === 'postgresql') {
    it('when two dispatchers on separate connections share one PostgreSQL, then every event is sent exactly once, each application in order', async () => {
      const second = await openDatabase({ url: t.url!, poolSize: 4 });
      try {
        const { partnerId, webhookId } = await partnerWithWebhook('/shared');
        receiver.reply(() => ({ status: 204, delayMs: 60 }));
        const ids: string[] = [];
        for (let i = 0; i < 10; i++) ids.push(await create(partnerId));
        for (const id of ids) await step(partnerId, id, 2);
        const counts = [0, 0];
        // Another process: its own connections, the same sealing key (as WEBHOOK_SEALING_SECRET would give it).
        const otherCtx: DomainContext = { ...ctx, db: second };
        const a = createDispatcher({ ctx, pollMs: 20, concurrency: 2, retry: FAST, onAttempt: () => counts[0]++ });
        const b = createDispatcher({
          ctx: otherCtx,
          pollMs: 20,
          concurrency: 2,
          retry: FAST,
          onAttempt: () => counts[1]++,
        });
        a.start();
        b.start();
        try {
          const got = await receiver.waitFor(20, { filter: at('/shared'), timeoutMs: 20_000 });
          expect((await settled(partnerId, webhookId)).pending).toBe(0);
          expect(receiver.received.filter(at('/shared'))).toHaveLength(20);
          expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(20);
          for (const id of ids) {
            expect(got.filter((r) => bodyOf(r).data.applicationId === id).map((r) => bodyOf(r).data.status)).toEqual([
              'draft',
              'in_progress',
            ]);
          }
          expect(counts[0]).toBeGreaterThan(0);
          expect(counts[1]).toBeGreaterThan(0);
        } finally {
          await Promise.all([a.stop(), b.stop()]);
        }
      } finally {
        await second.close();
      }
    });
  }
});
