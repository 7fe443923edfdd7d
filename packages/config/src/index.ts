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
  });
}
