/**
 * Builds the running service from its configuration: database (migrated), Redis, the domain context,
 * and the listeners the chosen mode asks for. `stop()` drains and closes everything.
 */
import { Redis } from 'ioredis';
import type { Config } from '@loanmatch/config';
import { idempotency, openDatabase } from '@loanmatch/db';
import { readFileSync } from 'node:fs';
import { createLiveBureau } from '@loanmatch/bureau';
import {
  DEFAULT_RETRY_POLICY,
  TRACKING_LINK_LIFETIME_MS,
  createCatalogueSource,
  createInstanceRegistry,
  createSandboxBureau,
  createUnconfiguredBureau,
  ensureDemoPartner,
  matching,
  seedCatalogue,
  sweepWebhookHistory,
  type DomainContext,
} from '@loanmatch/domain';
import { createDispatcher, createWebhookServices, type Dispatcher } from '@loanmatch/webhooks';
import { createLogger, drain, listen, type Listener, type Logger } from '@loanmatch/http';
import { createAdminApp } from '@loanmatch/admin';
import { BASE_PATH_A, createPartnerAApp } from '@loanmatch/partner-a';
import { BASE_PATH_B, createPartnerBApp } from '@loanmatch/partner-b';
import { loadOrCreateSecret } from './secrets';

export type Mode = 'all' | 'a' | 'b' | 'admin';

export interface Runtime {
  listeners: Listener[];
  logger: Logger;
  /** Shown once: the demo partner's key on first start, the admin token when it was just made. */
  firstStart: { demoApiKey?: string; adminToken?: string };
  stop(): Promise<void>;
}

export async function startRuntime(config: Config, mode: Mode): Promise<Runtime> {
  const logger = createLogger({ level: config.logLevel, service: `loanmatch-${mode}` });
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
  const applied = await db.migrate();
  if (applied.length) logger.info('migrations applied', { migrations: applied });

  const registry = createInstanceRegistry({ db: db.prisma, embedded: db.kind === 'pglite' });
  await registry.start();
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const clock = () => new Date();
  const seeded = await seedCatalogue({ db: db.prisma, clock }, { document: JSON.parse(readFileSync(matching.CATALOGUE_PATH, 'utf8')) });
  if (!seeded.ok) throw new Error(`the repository's catalogue file is invalid: ${seeded.error.message}`);
  if (seeded.value) logger.info('catalogue loaded', { ...seeded.value });
  const trackingSecret = loadOrCreateSecret(config.dataDir, 'tracking-secret', config.trackingSecret).value;
  // Webhook signing secrets are sealed under a key derived from this secret; every process that registers
  // or delivers webhooks needs the same one.
  const webhookSealingSecret = loadOrCreateSecret(config.dataDir, 'webhook-sealing-secret', config.webhookSealingSecret).value;
  if (config.databaseUrl && !config.webhookSealingSecret) {
    logger.warn('WEBHOOK_SEALING_SECRET is unset: webhook secrets are sealed with this process\'s own secret and only it can sign with them; set WEBHOOK_SEALING_SECRET when several processes run');
  }
  let dispatcher: Dispatcher | undefined;
  const webhooks = createWebhookServices({
    env: config.env,
    sealingSecrets: [webhookSealingSecret, ...config.webhookSealingPreviousSecrets],
    notify: () => dispatcher?.wake(),
  });
  const ctx: DomainContext = {
    db: db.prisma,
    env: config.env,
    clock,
    instance: registry,
    bureau: bureauFor(config, logger),
    catalogue: createCatalogueSource(db.prisma),
    tracking: { secret: Buffer.from(trackingSecret, 'utf8'), publicBaseUrl: config.publicBaseUrl, lifetimeMs: TRACKING_LINK_LIFETIME_MS },
    webhooks,
  };

  const firstStart: Runtime['firstStart'] = {};
  const demo = await ensureDemoPartner(ctx);
  if (demo) firstStart.demoApiKey = demo.apiKey;

  const ping = () => db.ping();
  const listeners: Listener[] = [];
  if (mode === 'all' || mode === 'a') {
    const app = createPartnerAApp({ ctx, logger, ping, rateLimitPerMinute: config.rateLimitAPerMinute, redis, redisPrefix: config.redisPrefix });
    listeners.push(await listen('Variant A', app, config.portA, config.host, BASE_PATH_A));
  }
  if (mode === 'all' || mode === 'b') {
    // Access tokens are signed with JWT_SECRET, or a secret made once and kept in DATA_DIR (never printed).
    const jwtSecret = loadOrCreateSecret(config.dataDir, 'jwt-secret', config.jwtSecret).value;
    if (config.databaseUrl && !config.jwtSecret) {
      logger.warn('JWT_SECRET is unset: access tokens are signed with this process\'s own secret and only it accepts them; set JWT_SECRET when several processes serve Variant B');
    }
    const app = createPartnerBApp({
      ctx,
      logger,
      ping,
      jwt: { secret: jwtSecret, previousSecrets: config.jwtPreviousSecrets },
      redis,
      redisPrefix: config.redisPrefix,
    });
    listeners.push(await listen('Variant B', app, config.portB, config.host, BASE_PATH_B));
  }
  if (mode === 'all' || mode === 'admin') {
    const token = loadOrCreateSecret(config.dataDir, 'admin-token', config.adminToken, 'lm_admin_');
    if (token.created) firstStart.adminToken = token.value;
    const app = createAdminApp({ ctx, logger, ping, adminToken: token.value });
    listeners.push(await listen('Admin API', app, config.portAdmin, config.adminHost, '/admin/v1'));
  }

  // Every process delivers webhooks from the outbox unless WEBHOOK_DISPATCHER=off; on PostgreSQL they share the work.
  if (config.webhookDispatcher) {
    dispatcher = createDispatcher({
      ctx,
      destinations: webhooks.destinations,
      pollMs: config.webhookPollMs,
      timeoutMs: config.webhookTimeoutMs,
      concurrency: config.webhookConcurrency,
      retry: {
        retryDelaysMs: config.webhookRetryDelaysMs ?? DEFAULT_RETRY_POLICY.retryDelaysMs,
        disableAfterMs: config.webhookDisableAfterMs ?? DEFAULT_RETRY_POLICY.disableAfterMs,
      },
      logger,
    });
    dispatcher.start();
  }

  // Keys are kept 24 hours, webhook history 30 days; sweep what expired now and then.
  const sweep = setInterval(() => {
    idempotency.deleteExpiredKeys(db.prisma, new Date()).catch((err) => logger.warn('idempotency sweep failed', { error: String(err) }));
    sweepWebhookHistory(ctx).catch((err) => logger.warn('webhook history sweep failed', { error: String(err) }));
  }, 10 * 60_000);
  sweep.unref();

  return {
    listeners,
    logger,
    firstStart,
    async stop() {
      clearInterval(sweep);
      // The dispatcher stops claiming and finishes its attempts in flight while requests drain; both end
      // before the database closes. A delivery cut short is sent again after its lease: at least once.
      await Promise.all([drain(listeners, config.shutdownGraceMs), dispatcher?.stop()]);
      await registry.stop();
      await redis?.quit().catch(() => undefined);
      await db.close();
    },
  };
}

/**
 * Connects to Redis, waiting up to two seconds for it. The service starts without it all the same:
 * with no offline queue, commands fail at once while Redis is down and rate limiting fails open.
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
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
