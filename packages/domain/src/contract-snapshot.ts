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

/** What a partner's request on a contract gets: headers to add, and a refusal message when the contract is gone. */
export interface ContractStatus {
  headers: Array<[string, string]>;
  retired?: string;
}

/** A schedule with its header values written once, when read. */
type Schedule = LifecycleRow & { deprecation: Array<[string, string]>; sunset?: [string, string] };
type Snapshot = { at: number; schedules: Map<string, Schedule>; brownouts: BrownoutRow[] };

function withHeaders(row: LifecycleRow): Schedule {
  const deprecation: Array<[string, string]> = [];
  if (row.deprecatedAt) deprecation.push(['Deprecation', `@${Math.floor(row.deprecatedAt.getTime() / 1000)}`]);
  if (row.deprecatedAt && row.link) deprecation.push(['Link', `<${row.link}>; rel="deprecation"`]);
  return { ...row, deprecation, sunset: row.sunsetAt ? ['Sunset', row.sunsetAt.toUTCString()] : undefined };
}

export type ContractLifecycles = ReturnType<typeof createContractLifecycles>;

/** The copy of one process; `statusOf` answers what a partner's request at `at` (ms) gets. */
export function createContractLifecycles(db: Sql) {
  let cached: Snapshot | undefined;
  let loading: Promise<void> | undefined;

  const load = async () => {
    const at = Date.now();
    const [schedules, brownouts] = await Promise.all([readLifecycles(db), readBrownouts(db, new Date(at))]);
    const keyed = schedules.map((s): [string, Schedule] => [`${s.contract}:${s.partnerId}`, withHeaders(s)]);
    cached = { at, schedules: new Map(keyed), brownouts };
  };
  const refresh = () => (loading ??= load().finally(() => (loading = undefined)));
  const snapshot = async (): Promise<Snapshot> => {
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
    async statusOf(contract: Contract, partnerId: string, at: number): Promise<ContractStatus> {
      const { schedules, brownouts } = await snapshot();
      const schedule = schedules.get(`${contract}:${partnerId}`) ?? schedules.get(`${contract}:${EVERY_PARTNER}`);
      const brownout = brownouts.find(
        (b) =>
          b.contract === contract &&
          (b.partnerId === null || b.partnerId === partnerId) &&
          b.startsAt.getTime() <= at &&
          at < b.endsAt.getTime(),
      );
      return statusAt(contract, schedule, brownout, at);
    },
  };
}

function statusAt(
  contract: Contract,
  schedule: Schedule | undefined,
  brownout: BrownoutRow | undefined,
  at: number,
): ContractStatus {
  const { deprecatedAt, sunsetAt, link, deprecation = [], sunset } = schedule ?? {};
  const headers = deprecatedAt && deprecatedAt.getTime() <= at ? [...deprecation] : [];
  if (sunset) headers.push(sunset);
  const guide = link ? `; see ${link}` : '';
  const move = `move to Variant ${otherContract(contract)}${guide}`;
  if (sunsetAt && sunsetAt.getTime() <= at)
    return { headers, retired: `Variant ${contract} was retired on ${sunsetAt.toISOString()}: ${move}` };
  if (brownout)
    return {
      headers,
      retired: `Variant ${contract} is in a scheduled brownout until ${brownout.endsAt.toISOString()} as it is being retired: ${move}`,
    };
  return { headers };
}
