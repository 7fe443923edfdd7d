import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals a short secret that must be kept for a while and shown again, so that the database alone
 * never holds it in clear: Variant B's `securityToken` inside the stored answer of an idempotent
 * create. AES-256-GCM under a key derived (HKDF-SHA256) from a server secret and a purpose, so the
 * same secret can serve other purposes (signing access tokens) without sharing a key.
 *
 * Several secrets may be given, newest first: sealing uses the first; opening picks the key by the id
 * written in the sealed text, so a secret that was rotated out of first place still opens what it sealed.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** The plain text, or undefined when no key here sealed it or the text was changed. */
  open(sealed: string): string | undefined;
}

const VERSION = 'v1';

export function createSecretBox(secrets: readonly string[], purpose: string): SecretBox {
  if (secrets.length === 0) throw new TypeError('createSecretBox needs at least one secret');
  const keys = secrets.map((secret) => {
    const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `loanmatch:${purpose}`, 32));
    return { id: createHash('sha256').update(key).digest('base64url').slice(0, 10), key };
  });
  return {
    seal(plain) {
      const { id, key } = keys[0];
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(`${VERSION}.${id}`));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, id, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, id, iv, body, tag, ...rest] = sealed.split('.');
      const key = keys.find((k) => k.id === id)?.key;
      if (version !== VERSION || key === undefined || tag === undefined || rest.length > 0) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(`${VERSION}.${id}`));
        const authTag = Buffer.from(tag, 'base64url');
        if (authTag.length !== 16) return undefined; // a shortened tag would weaken the check
        decipher.setAuthTag(authTag);
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
