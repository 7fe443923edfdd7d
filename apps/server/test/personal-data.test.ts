import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, parseDataKey } from '../src/config';

describe('DATA_KEY, DATA_PREVIOUS_KEYS and ADMIN_ALLOW_REMOTE', () => {
  const key = randomBytes(32);

  it.each([
    ['hex (openssl rand -hex 32)', key.toString('hex')],
    ['upper-case hex', key.toString('hex').toUpperCase()],
    ['base64 (openssl rand -base64 32)', key.toString('base64')],
    ['base64 without its padding', key.toString('base64').replace(/=$/, '')],
    ['base64url', key.toString('base64url')],
    ['with surrounding spaces', ` ${key.toString('hex')}\n`],
  ])('when the key is written as %s, then it reads as the same 32 bytes', (_form, text) => {
    expect(parseDataKey(text)).toEqual(key);
    expect(loadConfig({ DATA_KEY: text }).dataKey).toEqual(key);
  });

  it.each([
    ['31 bytes of hex', randomBytes(31).toString('hex')],
    ['33 bytes of hex', randomBytes(33).toString('hex')],
    ['24 bytes of base64', randomBytes(24).toString('base64')],
    ['48 bytes of base64', randomBytes(48).toString('base64')],
    ['a passphrase', 'correct horse battery staple, but longer than 32 characters'],
    ['hex with a stray character', `${key.toString('hex').slice(0, 63)}g`],
  ])('when DATA_KEY is %s, then a ConfigError names the variable and the form, never the value', (_what, text) => {
    expect(parseDataKey(text)).toBeUndefined();
    const error = (() => {
      try {
        loadConfig({ DATA_KEY: text });
      } catch (err) {
        return err as Error;
      }
      throw new Error('loadConfig accepted the key');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      'DATA_KEY must be 32 bytes written as 64 hex digits or 44 base64 characters (openssl rand -hex 32, or openssl rand -base64 32)',
    );
    expect(error.message).not.toContain(text.slice(0, 12));
  });

  it('when unset, then no key (the server makes one in DATA_DIR), no previous keys, and the admin API is loopback-only', () => {
    const config = loadConfig({});
    expect(config.dataKey).toBeUndefined();
    expect(config.dataPreviousKeys).toEqual([]);
    expect(config.adminAllowRemote).toBe(false);
  });

  it('when previous keys are listed, then they are read newest first; a bad one is named by its place; DATA_KEY takes one key only', () => {
    const older = randomBytes(32);
    expect(
      loadConfig({ DATA_PREVIOUS_KEYS: `${key.toString('hex')}, ${older.toString('base64')}` }).dataPreviousKeys,
    ).toEqual([key, older]);
    expect(() => loadConfig({ DATA_PREVIOUS_KEYS: `${key.toString('hex')},not-a-key` })).toThrow(
      new ConfigError(
        'DATA_PREVIOUS_KEYS entry 2 must be 32 bytes written as 64 hex digits or 44 base64 characters (openssl rand -hex 32, or openssl rand -base64 32)',
      ),
    );
    expect(() => loadConfig({ DATA_KEY: `${key.toString('hex')},${older.toString('hex')}` })).toThrow(
      /^DATA_KEY must be one key; earlier keys go in DATA_PREVIOUS_KEYS$/,
    );
  });

  it.each([
    ['on', true],
    ['off', false],
  ])('when ADMIN_ALLOW_REMOTE=%s, then adminAllowRemote is %s; any other value is refused', (value, expected) => {
    expect(loadConfig({ ADMIN_ALLOW_REMOTE: value }).adminAllowRemote).toBe(expected);
    expect(() => loadConfig({ ADMIN_ALLOW_REMOTE: 'yes' })).toThrow(ConfigError);
  });
});
