import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tracking tokens: unguessable, signed, self-contained links to one offer of one match run.
 * Layout (then base64url): offer id (16 bytes) | match run id (16) | expiry, Unix seconds (4) | HMAC-SHA256 truncated to 16 bytes.
 * Nothing is stored at match time (spec 2.6: "the link is not stored"); a click is verified by its signature.
 */
const BODY = 36;
const MAC = 16;

export interface TrackingClaims {
  offerId: string;
  matchRunId: string;
  expiresAt: Date;
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const bytesUuid = (b: Buffer) => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const mac = (secret: Buffer, body: Buffer) => createHmac('sha256', secret).update(body).digest().subarray(0, MAC);

export function signTrackingToken(secret: Buffer, claims: TrackingClaims): string {
  const body = Buffer.alloc(BODY);
  uuidBytes(claims.offerId).copy(body, 0);
  uuidBytes(claims.matchRunId).copy(body, 16);
  body.writeUInt32BE(Math.floor(claims.expiresAt.getTime() / 1000), 32);
  return Buffer.concat([body, mac(secret, body)]).toString('base64url');
}

/** The claims of a genuine token (expired or not), or null for anything forged or malformed. */
export function verifyTrackingToken(secret: Buffer, token: string): TrackingClaims | null {
  if (!/^[A-Za-z0-9_-]{69,70}$/.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== BODY + MAC) return null;
  const body = raw.subarray(0, BODY);
  if (!timingSafeEqual(raw.subarray(BODY), mac(secret, body))) return null;
  return { offerId: bytesUuid(body.subarray(0, 16)), matchRunId: bytesUuid(body.subarray(16, 32)), expiresAt: new Date(body.readUInt32BE(32) * 1000) };
}
