/**
 * Many requests reading at once, on both storages: each gets exactly what a read of its own would give
 * (its own application, NOT_FOUND for another partner's or an unknown one), a value the statement
 * refuses fails its own read only, and a read inside a transaction sees that transaction's writes.
 */
import { randomUUID } from 'node:crypto';
import { findApplication, saveStep as writeStep } from '@loanmatch/db';
import { createApplication, createPartner, getApplication, matchApplication, runCreditCheck, saveStep } from '../src';
import { STORAGES, VALID_STEPS, createTestContext, validApplicant, type TestContext } from '../../../tests/support';

describe.each(STORAGES)('concurrent reads on %s', (storage) => {
  let t: TestContext;
  const partners: string[] = [];
  /** Two applications per partner, the first taken through its credit check. */
  const ids = new Map<string, string[]>();

  beforeAll(async () => {
    t = await createTestContext(storage);
    for (const name of ['Batch One', 'Batch Two']) {
      const created = await createPartner(t.ctx, { body: { name } });
      if (!created.ok) throw created.error;
      const partnerId = created.value.partnerId;
      partners.push(partnerId);
      const own: string[] = [];
      for (const formType of ['personal', 'car'] as const) {
        const app = await createApplication(t.ctx, {
          partnerId,
          body: { formType, data: VALID_STEPS[formType][1] },
          idempotencyKey: undefined,
        });
        if (!app.ok) throw app.error;
        own.push(app.value.value.applicationId);
      }
      const [checked] = own;
      for (const step of [2, 3, 4] as const) {
        const saved = await saveStep(t.ctx, {
          partnerId,
          applicationId: checked!,
          body: { step, data: VALID_STEPS.personal[step] },
        });
        if (!saved.ok) throw saved.error;
      }
      const check = await runCreditCheck(t.ctx, {
        partnerId,
        applicationId: checked!,
        body: { data: validApplicant() },
        idempotencyKey: `c-${checked}`,
        sandboxScore: 'good',
      });
      if (!check.ok) throw check.error;
      ids.set(partnerId, own);
    }
  });
  afterAll(() => t.close());

  it('when many reads of several partners come at once, then each gets its own application, and another partner’s or an unknown id is NOT_FOUND', async () => {
    const [a, b] = partners as [string, string];
    const asks = [
      ...ids.get(a)!.map((id) => ({ partnerId: a, applicationId: id, expect: id })),
      ...ids.get(b)!.map((id) => ({ partnerId: b, applicationId: id, expect: id })),
      ...ids.get(b)!.map((id) => ({ partnerId: a, applicationId: id, expect: 'NOT_FOUND' })),
      { partnerId: a, applicationId: randomUUID(), expect: 'NOT_FOUND' },
      { partnerId: b, applicationId: 'not-a-uuid', expect: 'NOT_FOUND' },
    ];
    const repeated = [...asks, ...asks, ...asks];
    const answers = await Promise.all(repeated.map((ask) => getApplication(t.ctx, ask)));
    expect(answers.map((r) => (r.ok ? r.value.applicationId : r.error.code))).toEqual(
      repeated.map((ask) => ask.expect),
    );
    const checked = answers[0]!;
    expect(checked.ok && checked.value).toMatchObject({
      status: 'credit_checked',
      lastStep: 5,
      creditCheckComplete: true,
    });
    const unchecked = answers[1]!;
    expect(unchecked.ok && unchecked.value).toMatchObject({
      formType: 'car',
      status: 'draft',
      lastStep: 1,
      creditCheckComplete: false,
      creditCheckedAt: null,
    });
  });

  it('when an application is read again after a write, then the later read sees the write (an answer is never reused for a later read)', async () => {
    const [a] = partners as [string];
    const [, id] = ids.get(a)! as [string, string];
    const before = getApplication(t.ctx, { partnerId: a, applicationId: id });
    const saved = await saveStep(t.ctx, {
      partnerId: a,
      applicationId: id,
      body: { step: 2, data: VALID_STEPS.car[2] },
    });
    if (!saved.ok) throw saved.error;
    const [after] = await Promise.all([getApplication(t.ctx, { partnerId: a, applicationId: id }), before]);
    expect(after.ok && after.value.lastStep).toBe(2);
  });

  it('when matches of several partners run at once, then each reads its own application and check (or is refused as before)', async () => {
    const [a, b] = partners as [string, string];
    const asks = [
      { partnerId: a, applicationId: ids.get(a)![0]!, expect: 'ok' },
      { partnerId: b, applicationId: ids.get(b)![0]!, expect: 'ok' },
      { partnerId: a, applicationId: ids.get(b)![0]!, expect: 'NOT_FOUND' },
      { partnerId: b, applicationId: ids.get(b)![1]!, expect: 'CREDIT_CHECK_REQUIRED' },
    ];
    const answers = await Promise.all([...asks, ...asks].map((ask) => matchApplication(t.ctx, ask)));
    expect(answers.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual([...asks, ...asks].map((ask) => ask.expect));
    for (const [i, r] of answers.entries())
      if (r.ok) expect(r.value.applicationId).toBe([...asks, ...asks][i]!.applicationId);
  });

  it('when one read’s value is refused by the statement, then only that read fails and the others are answered', async () => {
    const [a] = partners as [string];
    const [id] = ids.get(a)! as [string];
    const reads = await Promise.allSettled([
      findApplication(t.db, id, a),
      findApplication(t.db, 'not-a-uuid', a),
      findApplication(t.db, id, a),
    ]);
    expect(reads.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(reads[0]!.status === 'fulfilled' && reads[0]!.value?.id).toBe(id);
  });

  it('when a read is made inside a transaction, then it runs on the transaction at once and sees its uncommitted write', async () => {
    const [a] = partners as [string];
    const [, id] = ids.get(a)! as [string, string];
    const rolledBack = new Error('rolled back on purpose');
    const seen: unknown[] = [];
    const before = await findApplication(t.db, id, a);
    await expect(
      t.db.transaction(async (tx) => {
        // A write no other connection can see before it commits: step 3 saved.
        await writeStep(tx, { id, step: 3, data: VALID_STEPS.car[3], sealed: null, now: new Date() });
        seen.push(Object.keys((await findApplication(tx, id, a))?.steps ?? {}));
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(seen).toEqual([[...Object.keys(before!.steps), '3']]);
    expect((await findApplication(t.db, id, a))?.steps).toEqual(before!.steps);
  });
});
