/**
 * This process's Prometheus metrics: one registry, fed by the listeners (`HttpMetrics`) and the domain
 * (`DomainObserver`). Labels are fixed words, contracts, route templates, statuses and tiers: never an id,
 * a key or anything about an applicant, so no series identifies a person and their number stays bounded.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { OUTCOME_TYPES, type DomainObserver } from '@loanmatch/domain';

export type ServiceMetrics = ReturnType<typeof createMetrics>;
/** What the listeners feed. */
export type HttpMetrics = Pick<ServiceMetrics, 'requests' | 'rateLimited' | 'rateLimitFallback'>;
export type RequestObserver = ReturnType<HttpMetrics['requests']>;
/** The Prometheus text of this process's metrics. */
export type MetricsSource = Pick<ServiceMetrics, 'contentType' | 'render'>;

type PoolStats = Record<'total' | 'idle' | 'waiting' | 'max', number>;

/** Request durations, in seconds: from a cached GET to a slow bureau answer. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(
  options: {
    /** The database's kind, and for PostgreSQL its pool's use, read at each scrape. */
    database?: { kind: string; pool?: () => PoolStats };
    /** prom-client's process and Node.js metrics; on by default. */
    processMetrics?: boolean;
  } = {},
) {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name, help, labelNames, registers });
  const histogram = (name: string, help: string, labelNames: string[] = []) =>
    new Histogram({ name, help, labelNames, buckets: DURATION_BUCKETS, registers });
  /** A counter with one label, each of whose values is exported from the start at 0, for rates and alerts. */
  const counters = <V extends string>(name: string, help: string, label: string, values: readonly V[]) => {
    const labelled = counter(name, help, [label]);
    for (const v of values) labelled.inc({ [label]: v }, 0);
    return Object.fromEntries(values.map((v) => [v, labelled.labels(v)])) as Record<V, Counter.Internal>;
  };

  const duration = histogram(
    'loanmatch_http_request_duration_seconds',
    'Requests by contract (A, B, admin), route template and status; "unmatched" when refused before a route matched (401, 429) or when no route matched (404)',
    ['contract', 'route', 'status'],
  );
  const checks = counters(
    'loanmatch_credit_checks_total',
    'Credit checks run, by outcome: completed (the bureau answered), degraded (it did not: matching uses the estimate), failed (an unexpected error)',
    'outcome',
    ['completed', 'degraded', 'failed'],
  );
  const matches = counters(
    'loanmatch_matches_total',
    'Match runs stored, by whether they returned an accepted offer',
    'result',
    ['offers', 'no_offers'],
  );
  const offers = counters(
    'loanmatch_offers_returned_total',
    'Offers returned by match runs, by kind: accepted or near_miss',
    'kind',
    ['accepted', 'near_miss'],
  );
  const referrals = counter(
    'loanmatch_referrals_total',
    'Referrals recorded: tracking links followed for the first time',
  );
  const outcomes = counters(
    'loanmatch_lender_outcomes_total',
    'Outcome events lenders reported about referrals, by type (a replayed event id is not counted)',
    'type',
    OUTCOME_TYPES,
  );
  const attempts = counters(
    'loanmatch_webhook_attempts_total',
    'Webhook delivery attempts, by result: delivered, retry_scheduled, failed (no retry left), disabled (the endpoint was disabled), unrecorded',
    'result',
    ['delivered', 'retry_scheduled', 'failed', 'disabled', 'unrecorded'],
  );
  const attemptSeconds = histogram(
    'loanmatch_webhook_attempt_duration_seconds',
    'Duration of webhook attempts, connection to last byte read',
  );
  const refusals = counter(
    'loanmatch_rate_limit_refusals_total',
    "Requests refused with 429, by limiter: a (per API key, per minute), lender (per lender key, per minute) or b (per partner, per hour, with the partner's tier)",
    ['limiter', 'tier'],
  );
  const fallbacks = counter(
    'loanmatch_rate_limit_local_counts_total',
    "Requests a limiter counted in this process's memory because Redis failed, by limiter",
    ['limiter'],
  );
  // The limiters' fixed series from 0; b's refusals appear by tier, tiers being set at run time.
  for (const limiter of ['a', 'lender']) refusals.inc({ limiter }, 0);
  for (const limiter of ['a', 'lender', 'b']) fallbacks.inc({ limiter }, 0);
  if (options.database) databaseGauges(registers, options.database);

  const observer: DomainObserver = {
    creditCheck: (outcome) => checks[outcome].inc(),
    matched(accepted, nearMisses) {
      matches[accepted > 0 ? 'offers' : 'no_offers'].inc();
      offers.accepted.inc(accepted);
      offers.near_miss.inc(nearMisses);
    },
    referralRecorded: () => referrals.inc(),
    lenderOutcome: (type) => outcomes[type].inc(),
    webhookAttempt(result, durationMs) {
      attempts[result].inc();
      attemptSeconds.observe(durationMs / 1000);
    },
  };
  return {
    ...observer,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    /** The observer of one listener's requests; asked once, when the listener is built. */
    requests(contract: string) {
      // Each route and status's child made once: observing allocates nothing after the first request.
      const children = new Map<string, Histogram.Internal<string>>();
      return {
        observe(route: string, status: number, seconds: number) {
          const key = `${status} ${route}`;
          const child = children.get(key) ?? duration.labels(contract, route, String(status));
          children.set(key, child);
          child.observe(seconds);
        },
      };
    },
    /** A 429 of `limiter`, with the partner's tier where the limit is a tier's. */
    rateLimited: (limiter: string, tier?: string) => refusals.inc(tier === undefined ? { limiter } : { limiter, tier }),
    /** A request counted in this process's memory because Redis failed. */
    rateLimitFallback: (limiter: string) => fallbacks.inc({ limiter }),
  };
}

/** The database in use and, for PostgreSQL, its pool (embedded PGlite has none), read when scraped. */
function databaseGauges(registers: Registry[], database: { kind: string; pool?: () => PoolStats }) {
  new Gauge({
    name: 'loanmatch_db_info',
    help: 'The database in use: kind is pglite (embedded) or postgresql',
    labelNames: ['kind'] as const,
    registers,
  }).set({ kind: database.kind }, 1);
  const { pool } = database;
  if (!pool) return;
  const gauge = (name: string, help: string, stat: keyof PoolStats) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(pool()[stat]);
      },
    });
  gauge('loanmatch_db_pool_connections', 'Connections open in the PostgreSQL pool', 'total');
  gauge('loanmatch_db_pool_idle_connections', 'Open connections not in use', 'idle');
  gauge('loanmatch_db_pool_waiting_requests', 'Queries waiting for a connection', 'waiting');
  gauge('loanmatch_db_pool_max_connections', "The pool's size (DB_POOL_SIZE)", 'max');
}
