/**
 * Variant B's requests and refusals per tier over the last hour, in one-minute buckets, for the console.
 * With Redis every process adds its counts to shared hashes (one a minute, kept two hours), written once a
 * second in one MULTI, never on a request's path; a write refused unsent is tried again with the next.
 */
import type { Redis } from 'ioredis';
import { errorText, type Logger } from './logger';
import { periodicWrite } from './periodic-write';

const MINUTE_MS = 60_000;
const WINDOW_MINUTES = 60;

type TierCounts = { requests: number; refused: number };

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

export function createTierUsage(
  options: { redis?: Redis; redisPrefix?: string; logger?: Logger; now?: () => number; flushMs?: number } = {},
): TierUsage {
  const { redis } = options;
  // minute → `<tier>:requests` or `<tier>:refused` → count: the counts, or with Redis those not yet written.
  const buckets = new Map<number, Map<string, number>>();
  const add = (minute: number, field: string, n: number) => {
    const bucket = buckets.get(minute) ?? new Map<string, number>();
    buckets.set(minute, bucket.set(field, (bucket.get(field) ?? 0) + n));
  };
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
    add(minute, `${tier}:requests`, 1);
    if (refused) add(minute, `${tier}:refused`, 1);
  };
  const report = (first: number, shared: boolean, fields: Array<[string, number]>): UsageReport => {
    const tiers = new Map<string, TierCounts>();
    for (const [field, n] of fields) {
      const cut = field.lastIndexOf(':');
      const counts = tiers.get(field.slice(0, cut)) ?? { requests: 0, refused: 0 };
      counts[field.slice(cut + 1) === 'refused' ? 'refused' : 'requests'] += n;
      tiers.set(field.slice(0, cut), counts);
    }
    return { since: new Date(first * MINUTE_MS), shared, tiers };
  };

  if (!redis) {
    return {
      record,
      async lastHour() {
        const first = firstMinute();
        const counted = [...buckets].filter(([minute]) => minute >= first).flatMap(([, bucket]) => [...bucket]);
        return report(first, false, counted);
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
      multi.expire(keyOf(minute), 2 * WINDOW_MINUTES * 60);
    }
    // Refused before it was sent (no connection, no offline queue), a MULTI applied nothing: its counts wait
    // for the next write. Sent and then failed (timed out), it may still apply once Redis answers: sending
    // it again could count it twice, so its counts are given up (the console may miss a second, never double).
    const sent = redis.status === 'ready';
    try {
      await multi.exec();
    } catch (err) {
      if (!sent) for (const [minute, bucket] of pending) for (const [field, n] of bucket) add(minute, field, n);
      forgetOld();
      options.logger?.debug('tier usage not written to redis', { error: errorText(err), sent });
    }
  };
  const { flush, stop } = periodicWrite(write, options.flushMs ?? 1000);

  return {
    record,
    async lastHour() {
      await flush();
      const first = firstMinute();
      const read = redis.pipeline();
      for (let minute = first; minute < first + WINDOW_MINUTES; minute++) read.hgetall(keyOf(minute));
      const fields: Array<[string, number]> = [];
      for (const [err, hash] of (await read.exec()) ?? []) {
        if (err) throw err;
        for (const [field, n] of Object.entries(hash as Record<string, string>)) fields.push([field, Number(n)]);
      }
      return report(first, true, fields);
    },
    close: stop,
  };
}
