/**
 * Variant B's requests and refusals per tier over the last hour, for the operator console. Counts are
 * kept in one-minute buckets; "the last hour" is the current minute and the 59 before it. With Redis,
 * every process adds its counts to shared hashes (one per minute, kept two hours), so the admin
 * listener sees the traffic of every B process; without Redis they stay in this process's memory.
 *
 * A request costs a map increment: counts are added up in memory and written to Redis once a second
 * (one MULTI of HINCRBYs), never on the request's path. They are figures for a person, not a limit:
 * what a failed write held is tried again with the next one, and dropped after an hour.
 */
import type { Redis } from 'ioredis';
import type { Logger } from './logger';

const MINUTE_MS = 60_000;
const WINDOW_MINUTES = 60;
/** Redis keeps a minute's hash this long after its last write, past the hour it is read for. */
const BUCKET_TTL_SECONDS = 2 * 60 * 60;
const FLUSH_MS = 1000;

export interface TierCounts {
  requests: number;
  refused: number;
}

export interface UsageReport {
  /** Start of the oldest minute counted. */
  since: Date;
  /** Whether the counts are those of every process sharing Redis, or of this process only. */
  shared: boolean;
  tiers: Map<string, TierCounts>;
}

export interface TierUsage {
  /** One Variant B request of a partner of `tier`, counted against its limit; `refused` when it was refused. */
  record(tier: string, refused: boolean): void;
  lastHour(): Promise<UsageReport>;
  /** Writes what is pending and stops the timer. */
  close(): Promise<void>;
}

/** minute → tier → counts */
type Buckets = Map<number, Map<string, TierCounts>>;

function add(buckets: Buckets, minute: number, tier: string, requests: number, refused: number): void {
  let bucket = buckets.get(minute);
  if (!bucket) {
    bucket = new Map();
    buckets.set(minute, bucket);
  }
  const counts = bucket.get(tier);
  if (counts) {
    counts.requests += requests;
    counts.refused += refused;
  } else bucket.set(tier, { requests, refused });
}

function forget(buckets: Buckets, before: number): void {
  for (const minute of buckets.keys()) if (minute < before) buckets.delete(minute);
}

export function createTierUsage(
  options: { redis?: Redis; redisPrefix?: string; logger?: Logger; now?: () => number; flushMs?: number } = {},
): TierUsage {
  const now = options.now ?? Date.now;
  const minuteNow = () => Math.floor(now() / MINUTE_MS);
  // Without Redis: the counts themselves. With Redis: what is not yet written.
  const buckets: Buckets = new Map();
  let lastMinute = 0;
  const record = (tier: string, refused: boolean) => {
    const minute = minuteNow();
    if (minute !== lastMinute) {
      forget(buckets, minute - WINDOW_MINUTES + 1);
      lastMinute = minute;
    }
    add(buckets, minute, tier, 1, refused ? 1 : 0);
  };

  const { redis } = options;
  if (!redis) {
    return {
      record,
      async lastHour() {
        const first = minuteNow() - WINDOW_MINUTES + 1;
        const tiers = new Map<string, TierCounts>();
        for (const [minute, bucket] of buckets) {
          if (minute < first) continue;
          for (const [tier, counts] of bucket) addTo(tiers, tier, counts);
        }
        return { since: new Date(first * MINUTE_MS), shared: false, tiers };
      },
      async close() {},
    };
  }

  const keyOf = (minute: number) => `${options.redisPrefix ?? 'loanmatch:'}usage:b:${minute}`;
  let writing: Promise<void> | undefined;
  const write = async () => {
    if (buckets.size === 0) return;
    const pending = new Map(buckets);
    buckets.clear();
    const multi = redis.multi();
    for (const [minute, bucket] of pending) {
      for (const [tier, counts] of bucket) {
        multi.hincrby(keyOf(minute), `${tier}:requests`, counts.requests);
        if (counts.refused) multi.hincrby(keyOf(minute), `${tier}:refused`, counts.refused);
      }
      multi.expire(keyOf(minute), BUCKET_TTL_SECONDS);
    }
    try {
      await multi.exec();
    } catch (err) {
      // A MULTI that failed applied nothing: keep the counts for the next write, for as long as they matter.
      for (const [minute, bucket] of pending)
        for (const [tier, c] of bucket) add(buckets, minute, tier, c.requests, c.refused);
      forget(buckets, minuteNow() - WINDOW_MINUTES + 1);
      options.logger?.debug('tier usage not written to redis', { error: String((err as Error)?.message ?? err) });
    }
  };
  const flush = () => (writing ??= write().finally(() => (writing = undefined)));
  const timer = setInterval(() => void flush(), options.flushMs ?? FLUSH_MS);
  timer.unref();

  return {
    record,
    async lastHour() {
      await flush();
      const first = minuteNow() - WINDOW_MINUTES + 1;
      const read = redis.pipeline();
      for (let minute = first; minute < first + WINDOW_MINUTES; minute++) read.hgetall(keyOf(minute));
      const tiers = new Map<string, TierCounts>();
      for (const [err, hash] of (await read.exec()) ?? []) {
        if (err) throw err;
        for (const [field, value] of Object.entries(hash as Record<string, string>)) {
          const cut = field.lastIndexOf(':');
          const tier = field.slice(0, cut);
          const n = Number(value);
          if (field.endsWith(':refused')) addTo(tiers, tier, { requests: 0, refused: n });
          else addTo(tiers, tier, { requests: n, refused: 0 });
        }
      }
      return { since: new Date(first * MINUTE_MS), shared: true, tiers };
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

function addTo(into: Map<string, TierCounts>, tier: string, counts: TierCounts): void {
  const sum = into.get(tier) ?? { requests: 0, refused: 0 };
  sum.requests += counts.requests;
  sum.refused += counts.refused;
  into.set(tier, sum);
}
