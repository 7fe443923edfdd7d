import { ConfigError, loadConfig } from '../src/config';

describe('the public addresses of the partner listeners', () => {
  it('when unset, then each listener on loopback at its port, the one tracking links and the OpenAPI servers name', () => {
    const config = loadConfig({ PORT_A: '4000', PORT_B: '4001' });
    expect(config.publicBaseUrl).toBe('http://127.0.0.1:4000');
    expect(config.publicBaseUrlB).toBe('http://127.0.0.1:4001');
  });

  it('when set, then taken without trailing slashes; a path behind a proxy is kept', () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: 'https://partners.example.com/',
      PUBLIC_BASE_URL_B: 'https://api.example.com/loanmatch/',
    });
    expect(config.publicBaseUrl).toBe('https://partners.example.com');
    expect(config.publicBaseUrlB).toBe('https://api.example.com/loanmatch');
  });

  it('when PUBLIC_BASE_URL_B is not an http or https URL, then a ConfigError naming it', () => {
    expect(() => loadConfig({ PUBLIC_BASE_URL_B: 'ftp://example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_BASE_URL_B: 'not a url' })).toThrow(/PUBLIC_BASE_URL_B/);
  });

  it('when TRACKING_SECRET, which signs the tracking links, is shorter than 32 characters, then it is refused without its value', () => {
    const short = 'a-short-tracking-secret';
    expect(() => loadConfig({ TRACKING_SECRET: short })).toThrow(
      new ConfigError('TRACKING_SECRET must be at least 32 characters'),
    );
    const configured = 'a-tracking-secret-of-enough-length-0123';
    expect(loadConfig({ TRACKING_SECRET: configured }).trackingSecret).toBe(configured);
  });
});
