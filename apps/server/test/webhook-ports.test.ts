/** WEBHOOK_SANDBOX_LOOPBACK_PORTS: where sandbox webhooks may reach this machine's loopback (docs/adr/0152). */
import { ConfigError, loadConfig } from '../src/config';

const ports = (env: Record<string, string>) => loadConfig(env).webhookSandboxLoopbackPorts;

describe('the sandbox’s loopback ports for webhooks', () => {
  it('when unset and the partner listeners and public address are loopback, then any port (a partner’s own machine)', () => {
    expect(ports({})).toBe('any');
    expect(ports({ HOST: '::1' })).toBe('any');
    expect(ports({ HOST: 'localhost', PUBLIC_BASE_URL: 'http://localhost:3000' })).toBe('any');
  });

  it('when unset and the server listens beyond loopback, then none', () => {
    expect(ports({ HOST: '0.0.0.0' })).toEqual([]);
    expect(ports({ HOST: '::' })).toEqual([]);
    expect(ports({ HOST: '10.1.2.3' })).toEqual([]);
  });

  it('when unset and a public address is not loopback (behind a proxy), then none', () => {
    expect(ports({ PUBLIC_BASE_URL: 'https://sandbox.loanmatch.example' })).toEqual([]);
    expect(ports({ PUBLIC_BASE_URL_B: 'https://sandbox-b.loanmatch.example' })).toEqual([]);
  });

  it('when set, then taken as given: ports, none or any', () => {
    expect(ports({ WEBHOOK_SANDBOX_LOOPBACK_PORTS: '4400, 8080,4400', HOST: '0.0.0.0' })).toEqual([4400, 8080]);
    expect(ports({ WEBHOOK_SANDBOX_LOOPBACK_PORTS: 'none' })).toEqual([]);
    expect(ports({ WEBHOOK_SANDBOX_LOOPBACK_PORTS: 'any', HOST: '0.0.0.0' })).toBe('any');
  });

  it.each(['0', '65536', '80;443', 'http', '44 00'])(
    'when set to %s, then a ConfigError naming the variable',
    (value) => {
      expect(() => loadConfig({ WEBHOOK_SANDBOX_LOOPBACK_PORTS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ WEBHOOK_SANDBOX_LOOPBACK_PORTS: value })).toThrow(
        /WEBHOOK_SANDBOX_LOOPBACK_PORTS must be/,
      );
    },
  );
});
