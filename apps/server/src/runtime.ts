/** Builds the running service from its configuration and mode; `stop()` drains and closes everything. */
import type { AddressInfo } from 'node:net';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { deleteExpiredKeys, openDatabase } from '@loanmatch/db';
import {
  createContractUsage,
  createDispatcher,
  createLiveBureau,
  createLogger,
  createMetrics,
  createMetricsApp,
  createTierUsage,
  createWebhookServices,
  drain,
  listen,
  type Dispatcher,
  type Listener,
  type Logger,
} from '@loanmatch/http';
import {
  TRACKING_LINK_LIFETIME_MS,
  createApplicantHasher,
  createCatalogueSource,
  createContractLifecycles,
  createInstanceRegistry,
  createPersonalDataBox,
  createSandboxBureau,
  createUnconfiguredBureau,
  ensureDemoPartner,
  getDataKeyStatus,
  matching,
  randomSecret,
  seedCatalogue,
  sweepWebhookHistory,
  type DomainContext,
} from '@loanmatch/domain';
import { BASE_PATH_A, createPartnerAApp } from '@loanmatch/partner-a';
import { BASE_PATH_B, createPartnerBApp } from '@loanmatch/partner-b';
import { createAdminApp } from './admin/app';
import { ConfigError, parseDataKey, type Config } from './config';

export const MODES = ['all', 'a', 'b', 'admin'] as const;
export type Mode = (typeof MODES)[number];

/** What the other processes cannot do when a process on PostgreSQL made a secret of its own. */
const OWN_SECRET_WARNINGS: Readonly<Record<string, string>> = {
  'webhook-sealing-secret':
    "WEBHOOK_SEALING_SECRET is unset: webhook secrets are sealed with this process's own secret and only it can sign with them; set WEBHOOK_SEALING_SECRET when several processes run",
  'data-key':
    "DATA_KEY is unset: applicant details are sealed with this process's own key and only it can read them; set DATA_KEY when several processes run",
  'applicant-hash-secret':
    "APPLICANT_HASH_SECRET is unset: this process hashes applicants for lead ownership with its own secret, so other processes' referrals of the same applicant are not recognised; set APPLICANT_HASH_SECRET when several processes run",
  'jwt-secret':
    "JWT_SECRET is unset: access tokens are signed with this process's own secret and only it accepts them; set JWT_SECRET when several processes serve Variant B",
};

export interface Runtime {
  listeners: Listener[];
  logger: Logger;
  /** Shown once: the demo partner's key on first start, the admin token when it was just made. */
  firstStart: { demoApiKey?: string; adminToken?: string };
  stop(): Promise<void>;
}

export async function startRuntime(config: Config, mode: Mode): Promise<Runtime> {
  const logger = createLogger({ level: config.logLevel, service: `loanmatch-${mode}`, format: config.logFormat });
  const db = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    connectionTimeoutMs: config.dbConnectTimeoutMs,
    queryTimeoutMs: config.dbQueryTimeoutMs,
  });
  const applied = await db.migrate();
  if (applied.length) logger.info('migrations applied', { migrations: applied });
  const registry = createInstanceRegistry({
    db,
    embedded: db.kind === 'pglite',
    heartbeatMs: config.instanceHeartbeatMs,
    staleAfterMs: config.instanceStaleMs,
  });
  await registry.start();
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const metrics = createMetrics({ database: { kind: db.kind, pool: db.poolStats } });
  const usage = createTierUsage({ redis, redisPrefix: config.redisPrefix, logger });
  const clock = () => new Date();
  // Start-up work, sweeps and operator jobs use `db.jobs`, whose statements may outlast DB_QUERY_TIMEOUT_MS.
  const seeded = await seedCatalogue(
    { db: db.jobs, clock },
    { document: JSON.parse(readFileSync(matching.CATALOGUE_PATH, 'utf8')) },
  );
  if (!seeded.ok) throw new Error(`the repository's catalogue file is invalid: ${seeded.error.message}`);
  if (seeded.value) logger.info('catalogue loaded', { ...seeded.value });
  // A secret left unset is made once and kept in DATA_DIR: the other processes on PostgreSQL lack it.
  const secret = (file: string, configured: string | undefined) => {
    if (config.databaseUrl && !configured && file in OWN_SECRET_WARNINGS) logger.warn(OWN_SECRET_WARNINGS[file]);
    return loadOrCreateSecret(config.dataDir, file, configured).value;
  };
  let dispatcher: Dispatcher | undefined;
  const listeners: Listener[] = [];
  const configuredPorts = [config.portA, config.portB, config.portAdmin, config.metricsPort ?? 0].filter((p) => p > 0);
  const webhooks = createWebhookServices({
    env: config.env,
    sealingSecrets: [
      secret('webhook-sealing-secret', config.webhookSealingSecret),
      ...config.webhookSealingPreviousSecrets,
    ],
    sandboxLoopbackPorts: config.webhookSandboxLoopbackPorts,
    ownPorts: () => [...configuredPorts, ...listeners.map((l) => (l.server.address() as AddressInfo).port)],
    notify: () => dispatcher?.wake(),
  });
  const dataKey = config.dataKey ?? parseDataKey(secret('data-key', undefined));
  if (!dataKey)
    throw new ConfigError(`${config.dataDir}/data-key does not hold a data key; set DATA_KEY or restore the file`);
  const ctx: DomainContext = {
    db,
    env: config.env,
    clock,
    instance: registry,
    bureau: bureauFor(config, logger),
    catalogue: createCatalogueSource(db),
    tracking: {
      secret: Buffer.from(secret('tracking-secret', config.trackingSecret), 'utf8'),
      publicBaseUrl: config.publicBaseUrl,
      lifetimeMs: TRACKING_LINK_LIFETIME_MS,
    },
    webhooks,
    metrics,
    personalData: createPersonalDataBox([dataKey, ...config.dataPreviousKeys]),
    leadRetentionDays: config.leadRetentionDays,
    applicantHashes: createApplicantHasher(secret('applicant-hash-secret', config.applicantHashSecret)),
  };
  const jobs: DomainContext = { ...ctx, db: db.jobs };
  await warnOfMissingDataKeys(jobs, logger);

  const firstStart: Runtime['firstStart'] = { demoApiKey: (await ensureDemoPartner(jobs))?.apiKey };

  // The contracts' schedules, shared by both front-ends, and each partner's requests per contract and day.
  const contracts = { lifecycles: createContractLifecycles(db), contractUsage: createContractUsage(db, { logger }) };
  const shared = { ctx, logger, ping: () => db.ping(), metrics, redis, redisPrefix: config.redisPrefix, ...contracts };
  if (mode === 'all' || mode === 'a') {
    const app = createPartnerAApp({ ...shared, rateLimitPerMinute: config.rateLimitAPerMinute });
    listeners.push(await listen('Variant A', app, config.portA, config.host, BASE_PATH_A));
  }
  if (mode === 'all' || mode === 'b') {
    const app = createPartnerBApp({
      ...shared,
      jwt: { secret: secret('jwt-secret', config.jwtSecret), previousSecrets: config.jwtPreviousSecrets },
      usage,
      publicBaseUrl: config.publicBaseUrlB,
    });
    listeners.push(await listen('Variant B', app, config.portB, config.host, BASE_PATH_B));
  }
  if (mode === 'all' || mode === 'admin') {
    const token = loadOrCreateSecret(config.dataDir, 'admin-token', config.adminToken, 'lm_admin_');
    if (token.created) firstStart.adminToken = token.value;
    const app = createAdminApp({
      ...shared,
      adminToken: token.value,
      jobs,
      allowRemote: config.adminAllowRemote,
      metricsToken: config.metricsToken,
      usage,
    });
    listeners.push(await listen('Admin API', app, config.portAdmin, config.adminHost, '/admin/v1'));
  }
  if (config.metricsPort !== undefined) {
    const app = createMetricsApp({ source: metrics, token: config.metricsToken, logger, ping: shared.ping });
    listeners.push(await listen('Metrics', app, config.metricsPort, config.metricsHost, '/metrics'));
  }

  if (config.webhookDispatcher) {
    dispatcher = createDispatcher({
      ctx,
      destinations: webhooks.destinations,
      pollMs: config.webhookPollMs,
      timeoutMs: config.webhookTimeoutMs,
      concurrency: config.webhookConcurrency,
      retry: { retryDelaysMs: config.webhookRetryDelaysMs, disableAfterMs: config.webhookDisableAfterMs },
      logger,
    });
    dispatcher.start();
  }

  // Keys are kept 24 hours, webhook history 30 days; sweep what expired now and then.
  const sweep = setInterval(() => {
    deleteExpiredKeys(db.jobs, new Date()).catch((err) =>
      logger.warn('idempotency sweep failed', { error: String(err) }),
    );
    sweepWebhookHistory(jobs).catch((err) => logger.warn('webhook history sweep failed', { error: String(err) }));
  }, 10 * 60_000);
  sweep.unref();

  return {
    listeners,
    logger,
    firstStart,
    async stop() {
      clearInterval(sweep);
      // A delivery cut short is sent again after its lease: at least once.
      await Promise.all([drain(listeners, config.shutdownGraceMs), dispatcher?.stop()]);
      await registry.stop();
      await usage.close();
      await contracts.contractUsage.close();
      await redis?.quit().catch(() => undefined);
      await db.close();
    },
  };
}

/** The configured secret, or one made on first start and kept in DATA_DIR (mode 0600); `created` on that start. */
function loadOrCreateSecret(
  dataDir: string,
  file: string,
  configured: string | undefined,
  prefix = '',
): { value: string; created: boolean } {
  if (configured) return { value: configured, created: false };
  const path = join(dataDir, file);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), created: false };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // private, as the secrets and the database in it
  const value = `${prefix}${randomSecret()}`;
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return { value, created: true };
}

/** Warns of values sealed under data keys this process lacks: their reads would fail. */
async function warnOfMissingDataKeys(ctx: DomainContext, logger: Logger): Promise<void> {
  const status = await getDataKeyStatus(ctx);
  if (!status.ok) return;
  const missing = status.value.keys.filter((k) => !k.configured);
  if (missing.length) {
    logger.warn('personal data is sealed under data keys this process does not have; add them to DATA_PREVIOUS_KEYS', {
      keys: missing.map((k) => ({ keyId: k.keyId, rows: k.rows })),
    });
  }
  const unmatched = status.value.idempotencyKeys.filter((k) => !k.configured);
  if (unmatched.length) {
    logger.warn(
      'live idempotency keys were stored under data keys this process does not have: their retries cannot be compared; add the keys to DATA_PREVIOUS_KEYS',
      { keys: unmatched.map((k) => ({ keyId: k.keyId, live: k.live })) },
    );
  }
}

/**
 * Connects to Redis, waiting up to two seconds; the service starts without it. With no offline queue and
 * a command timeout, no request waits on a Redis that is down or hung: rate limiting fails open.
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 500,
    enableAutoPipelining: true,
  });
  let lastError = 0;
  redis.on('error', (err) => {
    if (Date.now() - lastError > 10_000) logger.warn('redis unavailable', { error: err.message });
    lastError = Date.now();
  });
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
  ]);
  if (!ready) logger.warn('redis not reachable at start; rate limits fail open until it is');
  return redis;
}

/** Sandbox: simulated. Live: the bureau at BUREAU_URL, or, with none configured, every check degraded. */
function bureauFor(config: Config, logger: Logger) {
  if (config.env === 'sandbox') return createSandboxBureau();
  if (!config.bureauUrl) {
    logger.warn('live mode without BUREAU_URL: credit checks complete in degraded mode');
    return createUnconfiguredBureau();
  }
  return createLiveBureau({
    url: config.bureauUrl,
    timeoutMs: config.bureauTimeoutMs,
    onEvent: (event) => logger.warn('credit bureau', { event: event.type, reason: event.reason }),
  });
}
