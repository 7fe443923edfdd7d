import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { canonicalUuid } from './ids';

/**
 * Tracking tokens: signed, self-contained links to one offer of one match run, verified by signature alone.
 * Layout (then base64url): offer id (16 bytes) | match run id (16) | expiry, Unix seconds (4) | HMAC-SHA256 truncated to 16 bytes.
 */
const BODY = 36;
const MAC = 16;

const TOKEN_LENGTH = Math.ceil(((BODY + MAC) * 4) / 3);
export const TRACKING_TOKEN_SCHEMA = Object.freeze({
  type: 'string',
  minLength: TOKEN_LENGTH,
  maxLength: TOKEN_LENGTH,
  pattern: '^[A-Za-z0-9_-]+$',
} as const);
const TOKEN_TEXT = new RegExp(`^[A-Za-z0-9_-]{${TOKEN_LENGTH}}$`);

const bytesUuid = (b: Buffer) => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

function sign(key: KeyObject, token: Buffer): void {
  createHmac('sha256', key).update(token.subarray(0, BODY)).digest().copy(token, BODY, 0, MAC);
}

function writeUuid(to: Buffer, offset: number, id: string): void {
  if (!canonicalUuid(id)) throw new TypeError('not a UUID');
  to.write(id.replaceAll('-', ''), offset, 'hex');
}

/** Signs the tokens of one match run: the run's id and expiry are written once, each offer's id and MAC per token. */
export function trackingSigner(secret: Buffer, matchRunId: string, expiresAt: Date): (offerId: string) => string {
  // One KeyObject for the run's links: node:crypto checks a raw key's bytes on every call.
  const key = createSecretKey(secret);
  const template = Buffer.alloc(BODY + MAC);
  writeUuid(template, 16, matchRunId);
  template.writeUInt32BE(Math.floor(expiresAt.getTime() / 1000), 32);
  return (offerId) => {
    writeUuid(template, 0, offerId);
    sign(key, template);
    return template.toString('base64url');
  };
}

/** The claims of a genuine token (expired or not), or null for anything forged or malformed. */
export function verifyTrackingToken(secret: Buffer, token: string) {
  if (!TOKEN_TEXT.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== BODY + MAC) return null;
  const expected = Buffer.from(raw);
  sign(createSecretKey(secret), expected);
  if (!timingSafeEqual(raw.subarray(BODY), expected.subarray(BODY))) return null;
  const body = raw.subarray(0, BODY);
  return {
    offerId: bytesUuid(body.subarray(0, 16)),
    matchRunId: bytesUuid(body.subarray(16, 32)),
    expiresAt: new Date(body.readUInt32BE(32) * 1000),
  };
}
