/**
 * This process's Prometheus metrics, with prom-client: one registry, fed by the listeners
 * (`HttpMetrics`) and the domain (`DomainObserver`, on the domain context), and read as text at
 * `GET /metrics` (metrics-routes.ts). Labels are fixed words, contracts, route templates, status codes and
 * tiers: never an id, a key, a score or anything about an applicant, so that no series can identify a
 * person and the number of series stays bounded.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  OUTCOME_TYPES,
  type CreditCheckOutcome,
  type DomainObserver,
  type WebhookAttemptResult,
} from '@loanmatch/domain';

/** What the listeners report about their requests. */
export interface HttpMetrics {
  /** The observer of one listener's requests; asked once, when the listener is built. */
  requests(contract: string): RequestObserver;
  /** A request refused by a rate limiter (`a`, `b`), with the partner's tier where the limit is a tier's. */
  rateLimited(limiter: string, tier?: string): void;
}

export interface RequestObserver {
  observe(route: string, status: number, seconds: number): void;
}

/** The Prometheus text of this process's metrics. */
export interface MetricsSource {
  readonly contentType: string;
  render(): Promise<string>;
}

/** A connection pool's use at one moment (pg's `Pool`: `totalCount`, `idleCount`, `waitingCount`, `options.max`). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface ServiceMetrics extends HttpMetrics, DomainObserver, MetricsSource {
  readonly registry: Registry;
}

export interface MetricsOptions {
  /** The database: its kind, and for a PostgreSQL server its pool's use, read at each scrape. */
  database?: { kind: string; pool?: () => PoolStats | undefined };
  /** prom-client's process and Node.js metrics (CPU, memory, event loop, handles); default on. */
  processMetrics?: boolean;
}

/** Request durations, in seconds: from a cached GET to a slow bureau answer. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const CHECK_OUTCOMES: readonly CreditCheckOutcome[] = ['completed', 'degraded', 'failed'];
const ATTEMPT_RESULTS: readonly WebhookAttemptResult[] = [
  'delivered',
  'retry_scheduled',
  'failed',
  'disabled',
  'unrecorded',
];

export function createMetrics(options: MetricsOptions = {}): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'loanmatch_http_request_duration_seconds',
    help: 'Requests by contract (A, B, admin), route template and status; "unmatched" when refused before a route matched (401, 429) or when no route matched (404)',
    labelNames: ['contract', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const checkBy = countersBy(registers, 'outcome', CHECK_OUTCOMES, {
    name: 'loanmatch_credit_checks_total',
    help: 'Credit checks run, by outcome: completed (the bureau answered), degraded (it did not: matching uses the estimate), failed (an unexpected error)',
  });
  const matches = new Counter({
    name: 'loanmatch_matches_total',
    help: 'Match runs stored, by whether they returned an accepted offer',
    labelNames: ['result'] as const,
    registers,
  });
  const matchedWith = zero(matches.labels('offers'));
  const matchedWithout = zero(matches.labels('no_offers'));
  const offers = new Counter({
    name: 'loanmatch_offers_returned_total',
    help: 'Offers returned by match runs, by kind: accepted or near_miss',
    labelNames: ['kind'] as const,
    registers,
  });
  const accepted = zero(offers.labels('accepted'));
  const nearMisses = zero(offers.labels('near_miss'));
  const referrals = new Counter({
    name: 'loanmatch_referrals_total',
    help: 'Referrals recorded: tracking links followed for the first time',
    registers,
  });
  const outcomeBy = countersBy(registers, 'type', OUTCOME_TYPES, {
    name: 'loanmatch_lender_outcomes_total',
    help: 'Outcome events lenders reported about referrals, by type (a replayed event id is not counted)',
  });
  const attemptBy = countersBy(registers, 'result', ATTEMPT_RESULTS, {
    name: 'loanmatch_webhook_attempts_total',
    help: 'Webhook delivery attempts, by result: delivered, retry_scheduled, failed (no retry left), disabled (the endpoint was disabled), unrecorded',
  });
  const attemptSeconds = new Histogram({
    name: 'loanmatch_webhook_attempt_duration_seconds',
    help: 'Duration of webhook attempts, connection to last byte read',
    buckets: DURATION_BUCKETS,
    registers,
  });
  const refusals = new Counter({
    name: 'loanmatch_rate_limit_refusals_total',
    help: "Requests refused with 429, by limiter: a (per API key, per minute), lender (per lender key, per minute) or b (per partner, per hour, with the partner's tier)",
    labelNames: ['limiter', 'tier'] as const,
    registers,
  });
  if (options.database) databaseGauges(registers, options.database);

  return {
    registry,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    requests(contract: string): RequestObserver {
      // One child per route and status, made once: observing allocates nothing after the first request.
      const byRoute = new Map<string, Map<number, Histogram.Internal<'contract' | 'route' | 'status'>>>();
      return {
        observe(route, status, seconds) {
          let byStatus = byRoute.get(route);
          if (!byStatus) {
            byStatus = new Map();
            byRoute.set(route, byStatus);
          }
          let child = byStatus.get(status);
          if (!child) {
            child = duration.labels(contract, route, String(status));
            byStatus.set(status, child);
          }
          child.observe(seconds);
        },
      };
    },
    rateLimited(limiter, tier) {
      refusals.inc(tier === undefined ? { limiter } : { limiter, tier });
    },
    creditCheck(outcome) {
      checkBy[outcome].inc();
    },
    matched(acceptedCount, nearMissCount) {
      (acceptedCount > 0 ? matchedWith : matchedWithout).inc();
      accepted.inc(acceptedCount);
      nearMisses.inc(nearMissCount);
    },
    referralRecorded() {
      referrals.inc();
    },
    lenderOutcome(type) {
      outcomeBy[type].inc();
    },
    webhookAttempt(result, durationMs) {
      attemptBy[result].inc();
      attemptSeconds.observe(durationMs / 1000);
    },
  };
}

/** A series exported from the start, at 0, so that rates and alerts see it before its first event. */
function zero(child: Counter.Internal): Counter.Internal {
  child.inc(0);
  return child;
}

/** A counter with one label, and its child for each of the label's values, each shown from zero. */
function countersBy<V extends string>(
  registers: Registry[],
  label: string,
  values: readonly V[],
  metric: { name: string; help: string },
): Record<V, Counter.Internal> {
  const counter = new Counter({ ...metric, labelNames: [label], registers });
  return Object.fromEntries(values.map((v) => [v, zero(counter.labels(v))])) as Record<V, Counter.Internal>;
}

/**
 * The database in use, and for PostgreSQL its pool, read when scraped. Embedded PGlite is one
 * connection inside the process, with no pool to report: only `loanmatch_db_info{kind="pglite"}`.
 */
function databaseGauges(registers: Registry[], database: NonNullable<MetricsOptions['database']>): void {
  new Gauge({
    name: 'loanmatch_db_info',
    help: 'The database in use: kind is pglite (embedded) or postgresql',
    labelNames: ['kind'] as const,
    registers,
  }).set({ kind: database.kind }, 1);
  const { pool } = database;
  if (!pool) return;
  const gauge = (name: string, help: string, read: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const stats = pool();
        if (stats) this.set(read(stats));
      },
    });
  gauge('loanmatch_db_pool_connections', 'Connections open in the PostgreSQL pool', (s) => s.total);
  gauge('loanmatch_db_pool_idle_connections', 'Open connections not in use', (s) => s.idle);
  gauge('loanmatch_db_pool_waiting_requests', 'Queries waiting for a connection', (s) => s.waiting);
  gauge('loanmatch_db_pool_max_connections', "The pool's size (DB_POOL_SIZE)", (s) => s.max);
}
