/** Variant B's hourly request limits by partner tier, changed at run time and cached two seconds per process. */
import { readTiers, updateTierLimit, type Sql, type TierRow } from '@loanmatch/db';
import type { DomainContext } from './context';
import { fail, invalid, objectBody, ok, violation } from './errors';
import { TIERS } from './partners';

const TIER_CACHE_MS = 2000;
const REQUESTS_PER_HOUR_MIN = 1;
const REQUESTS_PER_HOUR_MAX = 10_000_000;

const view = (row: TierRow) => ({
  tier: row.name,
  requestsPerHour: row.requestsPerHour,
  updatedAt: row.updatedAt.toISOString(),
});
const order = (name: string): number => {
  const index = (TIERS as readonly string[]).indexOf(name);
  return index === -1 ? TIERS.length : index;
};

export async function listTiers(ctx: DomainContext) {
  const rows = await readTiers(ctx.db);
  return ok({ tiers: rows.map(view).sort((a, b) => order(a.tier) - order(b.tier)) });
}

export async function setTierLimit(ctx: DomainContext, options: { tier: string; body: unknown }) {
  const body = objectBody(options.body);
  if (!body.ok) return body;
  const perHour = body.value.requestsPerHour;
  if (perHour === undefined) return invalid(violation('requestsPerHour', 'required', 'is required'));
  if (
    !Number.isInteger(perHour) ||
    (perHour as number) < REQUESTS_PER_HOUR_MIN ||
    (perHour as number) > REQUESTS_PER_HOUR_MAX
  ) {
    const text = `must be a whole number between ${REQUESTS_PER_HOUR_MIN} and ${REQUESTS_PER_HOUR_MAX}`;
    return invalid(violation('requestsPerHour', 'range', text));
  }
  const row = await updateTierLimit(ctx.db, options.tier, perHour as number, ctx.clock());
  return row ? ok(view(row)) : fail('NOT_FOUND', `Tier not found; the tiers are ${TIERS.join(', ')}`);
}

/**
 * The limits, read again when older than TIER_CACHE_MS; a failed refresh keeps the last ones. A tier
 * missing from the table gets the smallest limit there is.
 */
export function createTierLimits(db: Sql, options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  let cached: { at: number; limits: Map<string, number> } | undefined;
  let loading: Promise<void> | undefined;

  const load = async () => {
    const rows = await readTiers(db);
    cached = { at: now(), limits: new Map(rows.map((r) => [r.name, r.requestsPerHour])) };
  };
  const refresh = () => (loading ??= load().finally(() => (loading = undefined)));

  return {
    async perHour(tier: string): Promise<number> {
      if (cached === undefined) await refresh();
      else if (now() - cached.at >= TIER_CACHE_MS) await refresh().catch(() => undefined);
      const limits = cached!.limits;
      return limits.get(tier) ?? Math.min(...limits.values());
    },
  };
}

export type TierLimits = ReturnType<typeof createTierLimits>;
