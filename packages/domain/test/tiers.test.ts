import type { Sql } from '@loanmatch/db';
import { createTierLimits, listTiers, setTierLimit } from '../src';
import { ONE_STORAGE, createTestContext, type TestContext } from '../../../tests/support';

describe('tier limits', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
  });
  afterAll(() => t.close());

  /** The real database behind a switch that makes every read fail, and a count of reads. */
  function flakyDb() {
    const state = { down: false, reads: 0 };
    const db: Sql = {
      query: <R>(text: string, values?: readonly unknown[]) => {
        state.reads++;
        return state.down ? Promise.reject(new Error('database down')) : t.db.query<R>(text, values);
      },
    };
    return { db, state };
  }

  it('when nothing was changed, then the seeded defaults: free 100, standard 1000, enterprise 10000, in that order', async () => {
    const listed = await listTiers(t.ctx);
    expect(listed.ok && listed.value.tiers.map((x) => [x.tier, x.requestsPerHour])).toEqual([
      ['free', 100],
      ['standard', 1000],
      ['enterprise', 10000],
    ]);
  });

  it('when limits are asked within two seconds, then the database is read once; after, it is read again and a change is seen', async () => {
    let now = 0;
    const { db, state } = flakyDb();
    const limits = createTierLimits(db, { now: () => now });
    const [a, b] = await Promise.all([limits.perHour('standard'), limits.perHour('standard')]);
    expect([a, b]).toEqual([1000, 1000]);
    expect(state.reads).toBe(1);
    await setTierLimit(t.ctx, { tier: 'standard', body: { requestsPerHour: 1500 } });
    now = 1999;
    expect(await limits.perHour('standard')).toBe(1000);
    expect(state.reads).toBe(1);
    now = 2000;
    expect(await limits.perHour('standard')).toBe(1500);
    expect(state.reads).toBe(2);
    await setTierLimit(t.ctx, { tier: 'standard', body: { requestsPerHour: 1000 } });
  });

  it('when a refresh fails, then the last limits stay in force; with none read yet, the failure propagates', async () => {
    let now = 0;
    const { db, state } = flakyDb();
    const limits = createTierLimits(db, { now: () => now });
    expect(await limits.perHour('enterprise')).toBe(10_000);
    state.down = true;
    now = 10_000;
    expect(await limits.perHour('enterprise')).toBe(10_000);
    await expect(createTierLimits(db).perHour('free')).rejects.toThrow('database down');
  });

  it('when a partner’s tier is not in the table, then the smallest limit applies', async () => {
    expect(await createTierLimits(t.db).perHour('platinum')).toBe(100);
  });

  it.each([
    [{}, 'requestsPerHour: is required'],
    [{ requestsPerHour: 0 }, 'requestsPerHour: must be a whole number between 1 and 10000000'],
    [{ requestsPerHour: 2.5 }, 'requestsPerHour: must be a whole number between 1 and 10000000'],
    [{ requestsPerHour: '100' }, 'requestsPerHour: must be a whole number between 1 and 10000000'],
    [{ requestsPerHour: 10_000_001 }, 'requestsPerHour: must be a whole number between 1 and 10000000'],
  ])('when the limit is set with %j, then VALIDATION_ERROR "%s" and nothing changes', async (body, message) => {
    const set = await setTierLimit(t.ctx, { tier: 'free', body });
    expect(set.ok).toBe(false);
    expect(!set.ok && set.error).toMatchObject({ code: 'VALIDATION_ERROR', message });
    expect(await createTierLimits(t.db).perHour('free')).toBe(100);
  });
});
