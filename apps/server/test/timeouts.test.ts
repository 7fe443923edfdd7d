/** The settings that bound waits on PostgreSQL and judge a process dead (docs/adr/0113). */
import { ConfigError, loadConfig } from '../src/config';

describe('database timeouts and the instance heartbeat', () => {
  it('when unset, then the defaults: connections 1.5 s, statements 1.5 s, heartbeat 2 s, dead after 10 s', () => {
    expect(loadConfig({})).toMatchObject({
      dbConnectTimeoutMs: 1500,
      dbQueryTimeoutMs: 1500,
      instanceHeartbeatMs: 2000,
      instanceStaleMs: 10_000,
    });
  });

  it('when set, then taken as given', () => {
    const config = loadConfig({
      DB_CONNECT_TIMEOUT_MS: '800',
      DB_QUERY_TIMEOUT_MS: '4000',
      INSTANCE_HEARTBEAT_MS: '250',
      INSTANCE_STALE_MS: '1500',
    });
    expect(config).toMatchObject({
      dbConnectTimeoutMs: 800,
      dbQueryTimeoutMs: 4000,
      instanceHeartbeatMs: 250,
      instanceStaleMs: 1500,
    });
  });

  it('when a process would be judged dead before it missed three heartbeats, then a ConfigError naming both', () => {
    expect(() => loadConfig({ INSTANCE_HEARTBEAT_MS: '1000', INSTANCE_STALE_MS: '2999' })).toThrow(ConfigError);
    expect(() => loadConfig({ INSTANCE_HEARTBEAT_MS: '1000', INSTANCE_STALE_MS: '2999' })).toThrow(
      /INSTANCE_STALE_MS must be at least three times INSTANCE_HEARTBEAT_MS/,
    );
  });

  it.each(['DB_CONNECT_TIMEOUT_MS', 'DB_QUERY_TIMEOUT_MS'])(
    'when %s is not a whole number of milliseconds, then a ConfigError naming it',
    (name) => {
      expect(() => loadConfig({ [name]: '2s' })).toThrow(new RegExp(`^${name} must be a whole number`));
      expect(() => loadConfig({ [name]: '0' })).toThrow(new RegExp(`^${name} must be a whole number`));
    },
  );
});
