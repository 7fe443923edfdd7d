import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/**
 * Seals what must be kept and read again (AES-256-GCM, a key derived per purpose), and makes keyed digests
 * of what must only be compared. Secrets are given newest first: sealing uses the first; opening picks the
 * key by the id in the sealed text, so a rotated-out secret still opens what it sealed. `context`
 * (associated data) binds a text to where it is kept.
 */
export interface SecretBox {
  /** The id of the key that seals: the first secret's. */
  readonly keyId: string;
  readonly keyIds: readonly string[];
  seal(plain: string, context?: string): string;
  /** The plain text, or undefined when no key here sealed it, the context differs, or the text was changed. */
  open(sealed: string, context?: string): string | undefined;
  /** The key id a sealed text names (whether or not a key here has that id); undefined for other text. */
  keyIdOf(sealed: string): string | undefined;
  /** A keyed digest of `text` under the current key: `h1.<keyId>.<HMAC-SHA256, base64url>`. */
  digest(text: string): string;
  /** Whether `stored` is the digest of `text` under the key it names; false when no key here has that id. */
  digestMatches(stored: string, text: string): boolean;
}

const VERSION = 'v1';
const DIGEST_VERSION = 'h1';
const KEY_ID = /^[A-Za-z0-9_-]{10}$/;

export function createSecretBox(secrets: readonly (string | Uint8Array)[], purpose: string): SecretBox {
  if (secrets.length === 0) throw new TypeError('createSecretBox needs at least one secret');
  // Keys are made KeyObjects once: node:crypto checks a raw key's bytes on every call (about 25 µs on Node 24).
  const keys = secrets.map((secret) => {
    const raw = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `loanmatch:${purpose}`, 32));
    const digestRaw = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `loanmatch:${purpose}:digest`, 32));
    const id = createHash('sha256').update(raw).digest('base64url').slice(0, 10);
    return { id, key: createSecretKey(raw), digestKey: createSecretKey(digestRaw) };
  });
  // The associated data: the format's version, the key id and, when given, the context.
  const associatedData = (id: string, context: string | undefined) =>
    Buffer.from(context === undefined ? `${VERSION}.${id}` : `${VERSION}.${id}.${context}`);
  return {
    keyId: keys[0].id,
    keyIds: keys.map((k) => k.id),
    seal(plain, context) {
      const { id, key } = keys[0];
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(associatedData(id, context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        VERSION,
        id,
        iv.toString('base64url'),
        body.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
      ].join('.');
    },
    open(sealed, context) {
      const [version, id, iv, body, tag, ...rest] = sealed.split('.');
      const key = keys.find((k) => k.id === id)?.key;
      if (version !== VERSION || key === undefined || tag === undefined || rest.length > 0) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(associatedData(id, context));
        const authTag = Buffer.from(tag, 'base64url');
        if (authTag.length !== 16) return undefined; // a shortened tag would weaken the check
        decipher.setAuthTag(authTag);
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
    keyIdOf(sealed) {
      const [version, id] = sealed.split('.', 2);
      return version === VERSION && id !== undefined && KEY_ID.test(id) ? id : undefined;
    },
    digest(text) {
      const { id, digestKey } = keys[0];
      return `${DIGEST_VERSION}.${id}.${createHmac('sha256', digestKey).update(text, 'utf8').digest('base64url')}`;
    },
    digestMatches(stored, text) {
      const [version, id, given, ...rest] = stored.split('.');
      const digestKey = keys.find((k) => k.id === id)?.digestKey;
      if (version !== DIGEST_VERSION || digestKey === undefined || given === undefined || rest.length > 0) return false;
      const expected = createHmac('sha256', digestKey).update(text, 'utf8').digest();
      const actual = Buffer.from(given, 'base64url');
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
