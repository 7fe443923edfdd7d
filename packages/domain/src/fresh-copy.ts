/**
 * A process's copy of what operators change at run time (rate tiers, contract schedules), read again once
 * it is `maxAgeMs` old: the request that finds it old waits for the read, so nothing is decided on a copy
 * older than that. One read at a time; a failed read keeps the last copy (the first one's failure throws).
 */
export function freshCopy<T>(load: (at: number) => Promise<T>, maxAgeMs: number, now: () => number = Date.now) {
  let cached: { at: number; value: T } | undefined;
  let loading: Promise<void> | undefined;
  const read = async () => {
    const at = now();
    cached = { at, value: await load(at) };
  };
  const refresh = () => (loading ??= read().finally(() => (loading = undefined)));
  return {
    /** Reads it now. */
    refresh,
    async get(): Promise<T> {
      if (cached === undefined) await refresh();
      else if (now() - cached.at >= maxAgeMs) await refresh().catch(() => undefined);
      return cached!.value;
    },
  };
}
