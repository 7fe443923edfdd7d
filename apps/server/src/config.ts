/**
 * The process's configuration, read from the environment once at start, validated, and frozen.
 * No other module reads `process.env`.
 */
export type Environment = 'sandbox' | 'live';

export interface Config {
  readonly env: Environment;
  readonly host: string;
  readonly portA: number;
  readonly portB: number;
  readonly portAdmin: number;
  readonly adminHost: string;
  readonly publicBaseUrl: string;
  /** Public address of Variant B's listener (PUBLIC_BASE_URL_B), the server its OpenAPI document names. */
  readonly publicBaseUrlB: string;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly dbPoolSize: number;
  /** Longest wait for a PostgreSQL connection (a pool slot or a new connection); then the request answers 503. */
  readonly dbConnectTimeoutMs: number;
  /**
   * Longest wait for PostgreSQL's answer to one statement of a request (or of the dispatcher, the
   * heartbeat), so a server that stopped answering cannot hang a request; long operator work has its own.
   */
  readonly dbQueryTimeoutMs: number;
  /** How often this process marks itself alive in the instances table. */
  readonly instanceHeartbeatMs: number;
  /** A process whose heartbeat is older than this is taken as dead: its idempotency keys and credit-check claims are unresolved. */
  readonly instanceStaleMs: number;
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  readonly rateLimitAPerMinute: number;
  readonly adminToken: string | undefined;
  /** Whether the admin listener answers callers outside loopback (ADMIN_ALLOW_REMOTE=on); off, they get 403. */
  readonly adminAllowRemote: boolean;
  /** Seals applicant details at rest (32 bytes); made and kept in DATA_DIR/data-key when unset (set it when several processes run). */
  readonly dataKey: Buffer | undefined;
  /** Earlier data keys, newest first: they still open what they sealed until it is re-encrypted (rotation). */
  readonly dataPreviousKeys: readonly Buffer[];
  /** Signs Variant B's access tokens; made and kept in DATA_DIR/jwt-secret when unset (set it when several processes serve). */
  readonly jwtSecret: string | undefined;
  /** Earlier JWT secrets, still accepted for the tokens they signed, newest first (rotation). */
  readonly jwtPreviousSecrets: readonly string[];
  /** Key that signs tracking links; made and kept in DATA_DIR when unset (set it when several processes serve). */
  readonly trackingSecret: string | undefined;
  readonly bureauUrl: string | undefined;
  readonly bureauTimeoutMs: number;
  readonly logLevel: string;
  /** `json` or `pretty` (LOG_FORMAT); undefined: pretty when stdout is a terminal, JSON otherwise. */
  readonly logFormat: 'json' | 'pretty' | undefined;
  /** A listener of its own for `GET /metrics` (METRICS_PORT), in any mode; undefined: none (the admin listener serves them). */
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  /** When set, `GET /metrics` wants `Authorization: Bearer <METRICS_TOKEN>`. */
  readonly metricsToken: string | undefined;
  readonly shutdownGraceMs: number;
  /** Derives the key that seals webhook signing secrets; made and kept in DATA_DIR when unset (set it when several processes serve). */
  readonly webhookSealingSecret: string | undefined;
  /** Earlier sealing secrets, still opening the signing secrets they sealed, newest first (rotation). */
  readonly webhookSealingPreviousSecrets: readonly string[];
  /** Whether this process runs a webhook dispatcher (WEBHOOK_DISPATCHER=on|off). */
  readonly webhookDispatcher: boolean;
  readonly webhookPollMs: number;
  readonly webhookTimeoutMs: number;
  readonly webhookConcurrency: number;
  /** Waits before each retry; undefined: the standard schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  readonly webhookRetryDelaysMs: readonly number[] | undefined;
  /** An endpoint failing this long is disabled; undefined: 5 days. */
  readonly webhookDisableAfterMs: number | undefined;
  /**
   * The loopback ports the sandbox delivers webhooks to (WEBHOOK_SANDBOX_LOOPBACK_PORTS): `'any'`, or a
   * list (empty: none). Unset: any while the partner listeners are reachable from this machine only, none otherwise.
   */
  readonly webhookSandboxLoopbackPorts: 'any' | readonly number[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = str(env, name, fallback);
  if (!(values as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
  return raw as T;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
  return raw;
}

/** A secret of at least `minLength` characters; JWT secrets are HMAC-SHA256 keys, 32 characters or more. */
function secret(env: Env, name: string, minLength: number): string | undefined {
  const value = optional(env, name);
  if (value !== undefined && value.length < minLength)
    throw new ConfigError(`${name} must be at least ${minLength} characters`);
  return value;
}

/** A comma-separated list of secrets, each of at least `minLength` characters. */
function secretList(env: Env, name: string, minLength: number): readonly string[] {
  const values = (optional(env, name) ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (values.some((v) => v.length < minLength))
    throw new ConfigError(`${name} must be a comma-separated list of secrets of at least ${minLength} characters each`);
  return Object.freeze(values);
}

const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `250ms`, `5s`, `30m`, `2h`, `5d` as milliseconds, or undefined when not a duration. */
function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(trimmed);
  return match ? Number(match[1]) * DURATION_UNITS[match[2]] : undefined;
}

function duration(env: Env, name: string, min: number): number | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < min)
    throw new ConfigError(`${name} must be a duration such as 30s, 2h or 5d, of at least ${min} ms (got "${raw}")`);
  return ms;
}

/** A comma-separated list of durations (`5s,5m,30m`), each at least `min` ms; at most 20. */
function durationList(env: Env, name: string, min: number): readonly number[] | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  const values = raw.split(',').map((v) => parseDuration(v));
  if (values.length > 20 || values.some((v) => v === undefined || v < min)) {
    throw new ConfigError(
      `${name} must be a comma-separated list of up to 20 durations such as 5s,5m,30m (got "${raw}")`,
    );
  }
  return Object.freeze(values as number[]);
}

/**
 * A data key: 32 random bytes written as 64 hex digits or as base64 / base64url (43 characters, or 44
 * with its `=`), as `openssl rand -hex 32` or `openssl rand -base64 32` print them. Undefined otherwise.
 */
export function parseDataKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === 32) return key;
  }
  return undefined;
}

const DATA_KEY_FORMAT =
  '32 bytes written as 64 hex digits or 44 base64 characters (openssl rand -hex 32, or openssl rand -base64 32)';

/** Data keys, comma-separated. The message names the variable and the form, never the value. */
function dataKeys(env: Env, name: string): readonly Buffer[] {
  const texts = (optional(env, name) ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return Object.freeze(
    texts.map((text, i) => {
      const key = parseDataKey(text);
      if (!key)
        throw new ConfigError(
          texts.length > 1 ? `${name} entry ${i + 1} must be ${DATA_KEY_FORMAT}` : `${name} must be ${DATA_KEY_FORMAT}`,
        );
      return key;
    }),
  );
}

function singleDataKey(env: Env): Buffer | undefined {
  const text = optional(env, 'DATA_KEY');
  if (text === undefined) return undefined;
  const key = parseDataKey(text);
  if (key) return key;
  const several = text.split(',').length > 1 && text.split(',').every((part) => parseDataKey(part) !== undefined);
  throw new ConfigError(
    several ? 'DATA_KEY must be one key; earlier keys go in DATA_PREVIOUS_KEYS' : `DATA_KEY must be ${DATA_KEY_FORMAT}`,
  );
}

/** 127.0.0.0/8, ::1 or localhost: an interface only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * WEBHOOK_SANDBOX_LOOPBACK_PORTS: `any`, `none`, or ports separated by commas. Unset, a sandbox whose
 * partner listeners and public addresses are loopback (a partner's own machine) allows any port; one
 * reachable from elsewhere allows none, so that a sandbox key cannot probe the host's own services.
 */
function loopbackPorts(env: Env, host: string, publicBaseUrls: readonly string[]): 'any' | readonly number[] {
  const name = 'WEBHOOK_SANDBOX_LOOPBACK_PORTS';
  const raw = optional(env, name)?.trim().toLowerCase();
  if (raw === undefined)
    return isLoopbackHost(host) && publicBaseUrls.every((u) => isLoopbackHost(new URL(u).hostname))
      ? 'any'
      : Object.freeze([]);
  if (raw === 'any') return 'any';
  if (raw === 'none') return Object.freeze([]);
  const ports = raw.split(',').map((p) => p.trim());
  if (!ports.every((p) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535))
    throw new ConfigError(`${name} must be any, none, or ports 1-65535 separated by commas (got "${raw}")`);
  return Object.freeze([...new Set(ports.map(Number))]);
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  return oneOf(env, name, ['on', 'off'] as const, fallback ? 'on' : 'off') === 'on';
}

/** The stale limit must leave room for a few missed heartbeats, or a live process would be taken as dead. */
function instanceTiming(env: Env): { instanceHeartbeatMs: number; instanceStaleMs: number } {
  const instanceHeartbeatMs = int(env, 'INSTANCE_HEARTBEAT_MS', 2000, 50, 60_000);
  const instanceStaleMs = int(env, 'INSTANCE_STALE_MS', 10_000, 200, 600_000);
  if (instanceStaleMs < 3 * instanceHeartbeatMs) {
    throw new ConfigError(
      `INSTANCE_STALE_MS must be at least three times INSTANCE_HEARTBEAT_MS (got ${instanceStaleMs} and ${instanceHeartbeatMs})`,
    );
  }
  return { instanceHeartbeatMs, instanceStaleMs };
}

export function loadConfig(env: Env = process.env): Config {
  const portA = int(env, 'PORT_A', 3000, 0, 65535);
  const adminToken = optional(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 24)
    throw new ConfigError('ADMIN_TOKEN must be at least 24 characters');
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${portA}`;
  const host = str(env, 'HOST', '127.0.0.1');
  const portB = int(env, 'PORT_B', 3001, 0, 65535);
  const publicBaseUrlB = url(env, 'PUBLIC_BASE_URL_B', ['http:', 'https:']) ?? `http://127.0.0.1:${portB}`;
  return Object.freeze({
    env: oneOf(env, 'LOANMATCH_ENV', ['sandbox', 'live'] as const, 'sandbox'),
    host,
    portA,
    portB,
    portAdmin: int(env, 'PORT_ADMIN', 3002, 0, 65535),
    adminHost: str(env, 'ADMIN_HOST', '127.0.0.1'),
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    publicBaseUrlB: publicBaseUrlB.replace(/\/+$/, ''),
    databaseUrl: url(env, 'DATABASE_URL', ['postgresql:', 'postgres:']),
    dataDir: str(env, 'DATA_DIR', './data'),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 10, 1, 500),
    dbConnectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 1500, 100, 60_000),
    dbQueryTimeoutMs: int(env, 'DB_QUERY_TIMEOUT_MS', 1500, 100, 600_000),
    ...instanceTiming(env),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: str(env, 'REDIS_PREFIX', 'loanmatch:'),
    rateLimitAPerMinute: int(env, 'RATE_LIMIT_A_PER_MINUTE', 120, 1, 100_000_000),
    adminToken,
    adminAllowRemote: onOff(env, 'ADMIN_ALLOW_REMOTE', false),
    dataKey: singleDataKey(env),
    dataPreviousKeys: dataKeys(env, 'DATA_PREVIOUS_KEYS'),
    jwtSecret: secret(env, 'JWT_SECRET', 32),
    jwtPreviousSecrets: secretList(env, 'JWT_PREVIOUS_SECRETS', 32),
    trackingSecret: optional(env, 'TRACKING_SECRET'),
    bureauUrl: url(env, 'BUREAU_URL', ['http:', 'https:']),
    bureauTimeoutMs: int(env, 'BUREAU_TIMEOUT_MS', 2000, 100, 60_000),
    logLevel: oneOf(env, 'LOG_LEVEL', ['silent', 'error', 'warn', 'info', 'debug'] as const, 'info'),
    logFormat:
      optional(env, 'LOG_FORMAT') === undefined
        ? undefined
        : oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
    metricsPort: optional(env, 'METRICS_PORT') === undefined ? undefined : int(env, 'METRICS_PORT', 0, 0, 65535),
    metricsHost: str(env, 'METRICS_HOST', '127.0.0.1'),
    metricsToken: secret(env, 'METRICS_TOKEN', 24),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    webhookSealingSecret: secret(env, 'WEBHOOK_SEALING_SECRET', 32),
    webhookSealingPreviousSecrets: secretList(env, 'WEBHOOK_SEALING_PREVIOUS_SECRETS', 32),
    webhookDispatcher: onOff(env, 'WEBHOOK_DISPATCHER', true),
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 1000, 10, 600_000),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 8, 1, 200),
    webhookRetryDelaysMs: durationList(env, 'WEBHOOK_RETRY_SCHEDULE', 0),
    webhookDisableAfterMs: duration(env, 'WEBHOOK_DISABLE_AFTER', 1000),
    webhookSandboxLoopbackPorts: loopbackPorts(env, host, [publicBaseUrl, publicBaseUrlB]),
  });
}
