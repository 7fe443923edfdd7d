import { createSecretBox } from '../src';

describe('secret box', () => {
  const OLD = 'old-secret-0123456789abcdef0123456789';
  const NEW = 'new-secret-0123456789abcdef0123456789';

  it('when a secret is sealed, then the sealed text does not contain it and opens to it', () => {
    const box = createSecretBox([NEW], 'test');
    const sealed = box.seal('st_the-token');
    expect(sealed).not.toContain('the-token');
    expect(box.seal('st_the-token')).not.toBe(sealed); // a fresh nonce each time
    expect(box.open(sealed)).toBe('st_the-token');
  });

  it('when the sealing secret moved to second place, then it still opens; when it is gone, or the purpose differs, then nothing opens', () => {
    const sealed = createSecretBox([OLD], 'test').seal('st_the-token');
    expect(createSecretBox([NEW, OLD], 'test').open(sealed)).toBe('st_the-token');
    expect(createSecretBox([NEW], 'test').open(sealed)).toBeUndefined();
    expect(createSecretBox([OLD], 'other purpose').open(sealed)).toBeUndefined();
  });

  it('when any part of the sealed text is changed, then it does not open', () => {
    const box = createSecretBox([NEW], 'test');
    const parts = box.seal('st_the-token').split('.');
    for (let i = 0; i < parts.length; i++) {
      const changed = [...parts];
      changed[i] = changed[i].slice(0, -2) + (changed[i].endsWith('AA') ? 'BB' : 'AA');
      expect(box.open(changed.join('.'))).toBeUndefined();
    }
    expect(box.open(`${parts.slice(0, 4).join('.')}.${parts[4].slice(0, 8)}`)).toBeUndefined(); // a shortened tag
    expect(box.open('garbage')).toBeUndefined();
  });
});

describe('secret box with a context (associated data)', () => {
  const KEY = Buffer.alloc(32, 7);

  it('when sealed for one context, then it opens for that context only, and not without one', () => {
    const box = createSecretBox([KEY], 'test');
    const sealed = box.seal('{"email":"x@example.com"}', 'application-1');
    expect(box.open(sealed, 'application-1')).toBe('{"email":"x@example.com"}');
    expect(box.open(sealed, 'application-2')).toBeUndefined();
    expect(box.open(sealed)).toBeUndefined();
    expect(box.open(box.seal('plain'), 'application-1')).toBeUndefined();
  });

  it('when a raw key or its text is given, then each names its key; the text names the key that sealed it', () => {
    const bytes = createSecretBox([KEY], 'test');
    const text = createSecretBox([KEY.toString('hex')], 'test');
    expect(bytes.keyId).not.toBe(text.keyId);
    const rotated = createSecretBox([KEY.toString('hex'), KEY], 'test');
    expect(rotated.keyIds).toEqual([text.keyId, bytes.keyId]);
    const sealed = bytes.seal('x', 'c');
    expect(rotated.keyIdOf(sealed)).toBe(bytes.keyId);
    expect(rotated.open(sealed, 'c')).toBe('x');
    expect(rotated.keyIdOf('garbage')).toBeUndefined();
    expect(rotated.keyIdOf('v2.abcdefghij.x.y.z')).toBeUndefined();
  });
});
