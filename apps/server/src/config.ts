/**
 * The process's configuration, read from the environment once at start, validated, and frozen.
 * No other module reads `process.env`. An empty variable counts as unset.
 */
import { DEFAULT_RETRY_POLICY } from '@loanmatch/domain';
import { bareHost, classifyAddress } from '@loanmatch/http';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;
type Read<T> = (env: Env) => T;

const NONE: readonly never[] = Object.freeze([]);

/** `fallback` when the variable is unset, otherwise its value as `parse` reads it (or a ConfigError). */
function setting<T, F>(name: string, fallback: F, parse: (raw: string) => T): Read<T | F> {
  return (env) => {
    const raw = env[name];
    return raw === undefined || raw === '' ? fallback : parse(raw);
  };
}

const text = <F extends string | undefined>(name: string, fallback: F) => setting(name, fallback, (raw) => raw);

const int = <F extends number | undefined>(name: string, fallback: F, min: number, max: number) =>
  setting(name, fallback, (raw) => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new ConfigError(`${name} must be a whole number between ${min} and ${max} (got "${raw}")`);
    return Number(raw);
  });

const oneOf = <T extends string, F extends T | undefined>(name: string, values: readonly T[], fallback: F) =>
  setting(name, fallback, (raw) => {
    const value = values.find((v) => v === raw);
    if (value === undefined) throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
    return value;
  });

const onOff = (name: string, fallback: boolean): Read<boolean> => {
  const read = oneOf(name, ['on', 'off'], fallback ? 'on' : 'off');
  return (env) => read(env) === 'on';
};

const url = (name: string, protocols: string[]) =>
  setting(name, undefined, (raw) => {
    if (!URL.canParse(raw)) throw new ConfigError(`${name} must be a URL`);
    if (!protocols.includes(new URL(raw).protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
    return raw;
  });

/** A listener's public address: the variable, or its port on loopback; no trailing slash. */
const publicUrl =
  (name: string, port: Read<number>): Read<string> =>
  (env) =>
    (url(name, ['http:', 'https:'])(env) ?? `http://127.0.0.1:${port(env)}`).replace(/\/+$/, '');

const items = (raw: string) =>
  raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

const secret = (name: string, minLength: number) =>
  setting(name, undefined, (raw) => {
    if (raw.length < minLength) throw new ConfigError(`${name} must be at least ${minLength} characters`);
    return raw;
  });

const secretList = (name: string, minLength: number) =>
  setting(name, NONE, (raw): readonly string[] => {
    const values = items(raw);
    if (values.some((v) => v.length < minLength))
      throw new ConfigError(
        `${name} must be a comma-separated list of secrets of at least ${minLength} characters each`,
      );
    return Object.freeze(values);
  });

const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `250ms`, `5s`, `30m`, `2h`, `5d` as milliseconds, at least `min`; undefined otherwise. */
function parseDuration(text: string, min: number): number | undefined {
  const trimmed = text.trim();
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(trimmed);
  const ms = trimmed === '0' ? 0 : match ? Number(match[1]) * DURATION_UNITS[match[2]] : undefined;
  return ms !== undefined && ms >= min ? ms : undefined;
}

const duration = (name: string, min: number, fallback: number) =>
  setting(name, fallback, (raw) => {
    const ms = parseDuration(raw, min);
    if (ms === undefined)
      throw new ConfigError(`${name} must be a duration such as 30s, 2h or 5d, of at least ${min} ms (got "${raw}")`);
    return ms;
  });

const durationList = (name: string, min: number, fallback: readonly number[]) =>
  setting(name, fallback, (raw): readonly number[] => {
    const values = raw.split(',').map((v) => parseDuration(v, min));
    if (values.length > 20 || values.some((v) => v === undefined))
      throw new ConfigError(
        `${name} must be a comma-separated list of up to 20 durations such as 5s,5m,30m (got "${raw}")`,
      );
    return Object.freeze(values as number[]);
  });

/** A data key: 32 bytes as 64 hex digits or as base64 / base64url (43 characters, or 44 with `=`). */
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

const dataKey = setting('DATA_KEY', undefined, (raw) => {
  const key = parseDataKey(raw);
  if (key) return key;
  const several = raw.split(',').length > 1 && raw.split(',').every((part) => parseDataKey(part) !== undefined);
  throw new ConfigError(
    several ? 'DATA_KEY must be one key; earlier keys go in DATA_PREVIOUS_KEYS' : `DATA_KEY must be ${DATA_KEY_FORMAT}`,
  );
});

const dataKeys = (name: string) =>
  setting(name, NONE, (raw): readonly Buffer[] => {
    const texts = items(raw);
    return Object.freeze(
      texts.map((text, i) => {
        const key = parseDataKey(text);
        if (key) return key;
        throw new ConfigError(`${name}${texts.length > 1 ? ` entry ${i + 1}` : ''} must be ${DATA_KEY_FORMAT}`);
      }),
    );
  });

/** 127.0.0.0/8, ::1 or localhost: an interface only this machine reaches. */
const isLoopbackHost = (host: string): boolean =>
  host.toLowerCase() === 'localhost' || classifyAddress(bareHost(host)).class === 'loopback';

/**
 * `any`, `none`, or ports. Unset: any when the partner listeners and public addresses are all loopback
 * (a partner's own machine), none otherwise, so that a sandbox key cannot probe the host's services.
 */
const loopbackPorts = (host: Read<string>, publicUrls: Read<string>[]): Read<'any' | readonly number[]> => {
  const name = 'WEBHOOK_SANDBOX_LOOPBACK_PORTS';
  const given = setting(name, undefined, (raw): 'any' | readonly number[] => {
    const value = raw.trim().toLowerCase();
    if (value === 'any') return 'any';
    if (value === 'none') return NONE;
    const ports = value.split(',').map((p) => p.trim());
    if (!ports.every((p) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535))
      throw new ConfigError(`${name} must be any, none, or ports 1-65535 separated by commas (got "${value}")`);
    return Object.freeze([...new Set(ports.map(Number))]);
  });
  return (env) =>
    given(env) ??
    ([host(env), ...publicUrls.map((u) => new URL(u(env)).hostname)].every(isLoopbackHost) ? 'any' : NONE);
};

const host = text('HOST', '127.0.0.1');
const portA = int('PORT_A', 3000, 0, 65535);
const portB = int('PORT_B', 3001, 0, 65535);
const publicBaseUrl = publicUrl('PUBLIC_BASE_URL', portA);
const publicBaseUrlB = publicUrl('PUBLIC_BASE_URL_B', portB);
const instanceHeartbeatMs = int('INSTANCE_HEARTBEAT_MS', 2000, 50, 60_000);

/** Every setting, in the order they are read; docs/configuration.md says what each means. */
const SETTINGS = {
  env: oneOf('LOANMATCH_ENV', ['sandbox', 'live'], 'sandbox'),
  host,
  portA,
  portB,
  portAdmin: int('PORT_ADMIN', 3002, 0, 65535),
  adminHost: text('ADMIN_HOST', '127.0.0.1'),
  publicBaseUrl,
  publicBaseUrlB,
  databaseUrl: url('DATABASE_URL', ['postgresql:', 'postgres:']),
  dataDir: text('DATA_DIR', './data'),
  dbPoolSize: int('DB_POOL_SIZE', 10, 1, 500),
  dbConnectTimeoutMs: int('DB_CONNECT_TIMEOUT_MS', 1500, 100, 60_000),
  /** So that a PostgreSQL server that stopped answering cannot hang a request; long operator work has its own. */
  dbQueryTimeoutMs: int('DB_QUERY_TIMEOUT_MS', 1500, 100, 600_000),
  instanceHeartbeatMs,
  /** It must leave room for a few missed heartbeats, or a live process would be taken as dead. */
  instanceStaleMs: (env: Env) => {
    const stale = int('INSTANCE_STALE_MS', 10_000, 200, 600_000)(env);
    const heartbeat = instanceHeartbeatMs(env);
    if (stale < 3 * heartbeat)
      throw new ConfigError(
        `INSTANCE_STALE_MS must be at least three times INSTANCE_HEARTBEAT_MS (got ${stale} and ${heartbeat})`,
      );
    return stale;
  },
  redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
  redisPrefix: text('REDIS_PREFIX', 'loanmatch:'),
  rateLimitAPerMinute: int('RATE_LIMIT_A_PER_MINUTE', 120, 1, 100_000_000),
  adminToken: secret('ADMIN_TOKEN', 24),
  adminAllowRemote: onOff('ADMIN_ALLOW_REMOTE', false),
  // A secret or key left unset is made on first start and kept in DATA_DIR; the earlier ones, newest first,
  // still open or accept what they sealed or signed (rotation).
  dataKey,
  dataPreviousKeys: dataKeys('DATA_PREVIOUS_KEYS'),
  jwtSecret: secret('JWT_SECRET', 32),
  jwtPreviousSecrets: secretList('JWT_PREVIOUS_SECRETS', 32),
  trackingSecret: secret('TRACKING_SECRET', 32),
  applicantHashSecret: secret('APPLICANT_HASH_SECRET', 32),
  bureauUrl: url('BUREAU_URL', ['http:', 'https:']),
  bureauTimeoutMs: int('BUREAU_TIMEOUT_MS', 2000, 100, 60_000),
  logLevel: oneOf('LOG_LEVEL', ['silent', 'error', 'warn', 'info', 'debug'], 'info'),
  /** Undefined: pretty when stdout is a terminal, JSON otherwise. */
  logFormat: oneOf('LOG_FORMAT', ['json', 'pretty'], undefined),
  /** Undefined: no listener of its own for `GET /metrics` (the admin listener serves them). */
  metricsPort: int('METRICS_PORT', undefined, 0, 65535),
  metricsHost: text('METRICS_HOST', '127.0.0.1'),
  metricsToken: secret('METRICS_TOKEN', 24),
  shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  webhookSealingSecret: secret('WEBHOOK_SEALING_SECRET', 32),
  webhookSealingPreviousSecrets: secretList('WEBHOOK_SEALING_PREVIOUS_SECRETS', 32),
  webhookDispatcher: onOff('WEBHOOK_DISPATCHER', true),
  webhookPollMs: int('WEBHOOK_POLL_MS', 1000, 10, 600_000),
  webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
  webhookConcurrency: int('WEBHOOK_CONCURRENCY', 8, 1, 200),
  webhookRetryDelaysMs: durationList('WEBHOOK_RETRY_SCHEDULE', 0, DEFAULT_RETRY_POLICY.retryDelaysMs),
  webhookDisableAfterMs: duration('WEBHOOK_DISABLE_AFTER', 1000, DEFAULT_RETRY_POLICY.disableAfterMs),
  webhookSandboxLoopbackPorts: loopbackPorts(host, [publicBaseUrl, publicBaseUrlB]),
  leadRetentionDays: int('LEAD_RETENTION_DAYS', 30, 1, 3650),
};

export type Config = { readonly [K in keyof typeof SETTINGS]: ReturnType<(typeof SETTINGS)[K]> };

export function loadConfig(env: Env = process.env): Config {
  return Object.freeze(Object.fromEntries(Object.entries(SETTINGS).map(([key, read]) => [key, read(env)]))) as Config;
}
