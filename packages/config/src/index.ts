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
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly dbPoolSize: number;
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  readonly rateLimitAPerMinute: number;
  readonly adminToken: string | undefined;
  /** Signs Variant B's access tokens; made and kept in DATA_DIR/jwt-secret when unset (set it when several processes serve). */
  readonly jwtSecret: string | undefined;
  /** Earlier JWT secrets, still accepted for the tokens they signed, newest first (rotation). */
  readonly jwtPreviousSecrets: readonly string[];
  /** Key that signs tracking links; made and kept in DATA_DIR when unset (set it when several processes serve). */
  readonly trackingSecret: string | undefined;
  readonly bureauUrl: string | undefined;
  readonly bureauTimeoutMs: number;
  readonly logLevel: string;
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
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
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
  if (value !== undefined && value.length < minLength) throw new ConfigError(`${name} must be at least ${minLength} characters`);
  return value;
}

/** A comma-separated list of secrets, each of at least `minLength` characters. */
function secretList(env: Env, name: string, minLength: number): readonly string[] {
  const values = (optional(env, name) ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (values.some((v) => v.length < minLength)) throw new ConfigError(`${name} must be a comma-separated list of secrets of at least ${minLength} characters each`);
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
  if (ms === undefined || ms < min) throw new ConfigError(`${name} must be a duration such as 30s, 2h or 5d, of at least ${min} ms (got "${raw}")`);
  return ms;
}

/** A comma-separated list of durations (`5s,5m,30m`), each at least `min` ms; at most 20. */
function durationList(env: Env, name: string, min: number): readonly number[] | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  const values = raw.split(',').map((v) => parseDuration(v));
  if (values.length > 20 || values.some((v) => v === undefined || v < min)) {
    throw new ConfigError(`${name} must be a comma-separated list of up to 20 durations such as 5s,5m,30m (got "${raw}")`);
  }
  return Object.freeze(values as number[]);
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  return oneOf(env, name, ['on', 'off'] as const, fallback ? 'on' : 'off') === 'on';
}

export function loadConfig(env: Env = process.env): Config {
  const portA = int(env, 'PORT_A', 3000, 0, 65535);
  const adminToken = optional(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 24) throw new ConfigError('ADMIN_TOKEN must be at least 24 characters');
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://127.0.0.1:${portA}`;
  return Object.freeze({
    env: oneOf(env, 'LOANMATCH_ENV', ['sandbox', 'live'] as const, 'sandbox'),
    host: str(env, 'HOST', '127.0.0.1'),
    portA,
    portB: int(env, 'PORT_B', 3001, 0, 65535),
    portAdmin: int(env, 'PORT_ADMIN', 3002, 0, 65535),
    adminHost: str(env, 'ADMIN_HOST', '127.0.0.1'),
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    databaseUrl: url(env, 'DATABASE_URL', ['postgresql:', 'postgres:']),
    dataDir: str(env, 'DATA_DIR', './data'),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 10, 1, 500),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: str(env, 'REDIS_PREFIX', 'loanmatch:'),
    rateLimitAPerMinute: int(env, 'RATE_LIMIT_A_PER_MINUTE', 120, 1, 100_000_000),
    adminToken,
    jwtSecret: secret(env, 'JWT_SECRET', 32),
    jwtPreviousSecrets: secretList(env, 'JWT_PREVIOUS_SECRETS', 32),
    trackingSecret: optional(env, 'TRACKING_SECRET'),
    bureauUrl: url(env, 'BUREAU_URL', ['http:', 'https:']),
    bureauTimeoutMs: int(env, 'BUREAU_TIMEOUT_MS', 2000, 100, 60_000),
    logLevel: oneOf(env, 'LOG_LEVEL', ['silent', 'error', 'warn', 'info', 'debug'] as const, 'info'),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    webhookSealingSecret: secret(env, 'WEBHOOK_SEALING_SECRET', 32),
    webhookSealingPreviousSecrets: secretList(env, 'WEBHOOK_SEALING_PREVIOUS_SECRETS', 32),
    webhookDispatcher: onOff(env, 'WEBHOOK_DISPATCHER', true),
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 1000, 10, 600_000),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 8, 1, 200),
    webhookRetryDelaysMs: durationList(env, 'WEBHOOK_RETRY_SCHEDULE', 0),
    webhookDisableAfterMs: duration(env, 'WEBHOOK_DISABLE_AFTER', 1000),
  });
}
