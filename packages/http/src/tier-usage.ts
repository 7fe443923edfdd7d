/**
 * Variant B's requests and refusals per tier over the last hour (the current minute and the 59 before),
 * for the operator console, in one-minute buckets. With Redis every process adds its counts to shared
 * hashes (one a minute, kept two hours), written once a second in one MULTI, never on a request's path;
 * what a failed write held is tried again with the next, and dropped after the hour.
 */
import type { Redis } from 'ioredis';
import type { Logger } from './logger';

const MINUTE_MS = 60_000;
const WINDOW_MINUTES = 60;
const BUCKET_TTL_SECONDS = 2 * 60 * 60;

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
  record(tier: string, refused: boolean): void;
  lastHour(): Promise<UsageReport>;
  /** Writes what is pending and stops the timer. */
  close(): Promise<void>;
}

/** minute → `<tier>:requests` or `<tier>:refused` → count: the counts, or with Redis those not yet written. */
type Buckets = Map<number, Map<string, number>>;

function add(buckets: Buckets, minute: number, field: string, n: number): void {
  const bucket = buckets.get(minute) ?? new Map<string, number>();
  buckets.set(minute, bucket.set(field, (bucket.get(field) ?? 0) + n));
}

function tally(into: Map<string, TierCounts>, fields: Iterable<[string, number]>): void {
  for (const [field, n] of fields) {
    const cut = field.lastIndexOf(':');
    const counts = into.get(field.slice(0, cut)) ?? { requests: 0, refused: 0 };
    counts[field.slice(cut + 1) === 'refused' ? 'refused' : 'requests'] += n;
    into.set(field.slice(0, cut), counts);
  }
}

export function createTierUsage(
  options: { redis?: Redis; redisPrefix?: string; logger?: Logger; now?: () => number; flushMs?: number } = {},
): TierUsage {
  const { redis } = options;
  const buckets: Buckets = new Map();
  const minuteNow = () => Math.floor((options.now ?? Date.now)() / MINUTE_MS);
  const firstMinute = () => minuteNow() - WINDOW_MINUTES + 1;
  const forgetOld = () => {
    const first = firstMinute();
    for (const minute of buckets.keys()) if (minute < first) buckets.delete(minute);
  };
  let lastMinute = 0;
  const record = (tier: string, refused: boolean) => {
    const minute = minuteNow();
    if (minute !== lastMinute) forgetOld();
    lastMinute = minute;
    add(buckets, minute, `${tier}:requests`, 1);
    if (refused) add(buckets, minute, `${tier}:refused`, 1);
  };

  if (!redis) {
    return {
      record,
      async lastHour() {
        const first = firstMinute();
        const tiers = new Map<string, TierCounts>();
        for (const [minute, bucket] of buckets) if (minute >= first) tally(tiers, bucket);
        return { since: new Date(first * MINUTE_MS), shared: false, tiers };
      },
      async close() {},
    };
  }

  const keyOf = (minute: number) => `${options.redisPrefix ?? 'loanmatch:'}usage:b:${minute}`;
  const write = async () => {
    if (buckets.size === 0) return;
    const pending = new Map(buckets);
    buckets.clear();
    const multi = redis.multi();
    for (const [minute, bucket] of pending) {
      for (const [field, n] of bucket) multi.hincrby(keyOf(minute), field, n);
      multi.expire(keyOf(minute), BUCKET_TTL_SECONDS);
    }
    try {
      await multi.exec();
    } catch (err) {
      // A MULTI that failed applied nothing: keep its counts for the next write.
      for (const [minute, bucket] of pending) for (const [field, n] of bucket) add(buckets, minute, field, n);
      forgetOld();
      options.logger?.debug('tier usage not written to redis', { error: String((err as Error)?.message ?? err) });
    }
  };
  let writing: Promise<void> | undefined;
  const flush = () => (writing ??= write().finally(() => (writing = undefined)));
  const timer = setInterval(() => void flush(), options.flushMs ?? 1000);
  timer.unref();

  return {
    record,
    async lastHour() {
      await flush();
      const first = firstMinute();
      const read = redis.pipeline();
      for (let minute = first; minute < first + WINDOW_MINUTES; minute++) read.hgetall(keyOf(minute));
      const tiers = new Map<string, TierCounts>();
      for (const [err, hash] of (await read.exec()) ?? []) {
        if (err) throw err;
        tally(
          tiers,
          Object.entries(hash as Record<string, string>).map(([field, n]) => [field, Number(n)]),
        );
      }
      return { since: new Date(first * MINUTE_MS), shared: true, tiers };
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
