/**
 * Each process's copy of the contracts' schedules and brownouts, read from the database again when older
 * than two seconds (one read at a time, as the rate tiers are): what a partner's request is told, or
 * refused with, is decided in memory. A failed read keeps the last copy.
 */
import {
  EVERY_PARTNER,
  readBrownouts,
  readLifecycles,
  type BrownoutRow,
  type LifecycleRow,
  type Sql,
} from '@loanmatch/db';

export const CONTRACTS = ['A', 'B'] as const;
export type Contract = (typeof CONTRACTS)[number];

/** How long a process may use the schedules it read from the database. */
const SNAPSHOT_MAX_AGE_MS = 2000;

export const otherContract = (contract: Contract): Contract => (contract === 'A' ? 'B' : 'A');

export type ContractLifecycles = ReturnType<typeof createContractLifecycles>;

/** The copy of one process. */
export function createContractLifecycles(db: Sql) {
  let cached: { at: number; schedules: Map<string, LifecycleRow>; brownouts: BrownoutRow[] } | undefined;
  let loading: Promise<void> | undefined;

  const load = async () => {
    const at = Date.now();
    const [schedules, brownouts] = await Promise.all([readLifecycles(db), readBrownouts(db, new Date(at))]);
    cached = { at, schedules: new Map(schedules.map((s) => [`${s.contract}:${s.partnerId}`, s])), brownouts };
  };
  const refresh = () => (loading ??= load().finally(() => (loading = undefined)));
  const snapshot = async () => {
    if (cached === undefined) await refresh();
    else if (Date.now() - cached.at >= SNAPSHOT_MAX_AGE_MS) await refresh().catch(() => undefined);
    return cached!;
  };

  return {
    /** Reads the database now. */
    refresh,
    /** The every-partner schedule of a contract, when one is set. */
    async scheduleOf(contract: Contract): Promise<LifecycleRow | undefined> {
      return (await snapshot()).schedules.get(`${contract}:${EVERY_PARTNER}`);
    },
    /** Headers to add to a partner's request at `at` (ms), and a refusal message when the contract is gone. */
    async statusOf(contract: Contract, partnerId: string, at: number) {
      const { schedules, brownouts } = await snapshot();
      const schedule = schedules.get(`${contract}:${partnerId}`) ?? schedules.get(`${contract}:${EVERY_PARTNER}`);
      const brownout = brownouts.find(
        (b) =>
          b.contract === contract &&
          (b.partnerId === null || b.partnerId === partnerId) &&
          b.startsAt.getTime() <= at &&
          at < b.endsAt.getTime(),
      );
      const { deprecatedAt, sunsetAt, link } = schedule ?? {};
      const headers: Array<[string, string]> = [];
      if (deprecatedAt && deprecatedAt.getTime() <= at) {
        headers.push(['Deprecation', `@${Math.floor(deprecatedAt.getTime() / 1000)}`]);
        if (link) headers.push(['Link', `<${link}>; rel="deprecation"`]);
      }
      if (sunsetAt) headers.push(['Sunset', sunsetAt.toUTCString()]);
      const retired =
        sunsetAt && sunsetAt.getTime() <= at
          ? `was retired on ${sunsetAt.toISOString()}`
          : brownout && `is in a scheduled brownout until ${brownout.endsAt.toISOString()} as it is being retired`;
      if (!retired) return { headers };
      const guide = link ? `; see ${link}` : '';
      return { headers, retired: `Variant ${contract} ${retired}: move to Variant ${otherContract(contract)}${guide}` };
    },
  };
}
