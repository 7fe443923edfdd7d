import { timingSafeEqual } from 'node:crypto';
import { HmacSha256 } from './hmac';

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

const bytesUuid = (b: Buffer) => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** A signer per secret (pads made once; `HmacSha256`): a match signs a link per offer. */
const signers = new WeakMap<Buffer, HmacSha256>();
function signerOf(secret: Buffer): HmacSha256 {
  let signer = signers.get(secret);
  if (!signer) signers.set(secret, (signer = new HmacSha256(secret)));
  return signer;
}

/** Writes the MAC of `token`'s first BODY bytes into its last MAC bytes. */
function sign(secret: Buffer, token: Buffer): void {
  token.write(signerOf(secret).mac(token.subarray(0, BODY), 'binary'), BODY, MAC, 'binary');
}

const writeUuid = (to: Buffer, offset: number, id: string) => to.write(id.replace(/-/g, ''), offset, 16, 'hex');

export function signTrackingToken(secret: Buffer, claims: TrackingClaims): string {
  const token = Buffer.alloc(BODY + MAC);
  writeUuid(token, 0, claims.offerId);
  writeUuid(token, 16, claims.matchRunId);
  token.writeUInt32BE(Math.floor(claims.expiresAt.getTime() / 1000), 32);
  sign(secret, token);
  return token.toString('base64url');
}

/** The claims of a genuine token (expired or not), or null for anything forged or malformed. */
export function verifyTrackingToken(secret: Buffer, token: string): TrackingClaims | null {
  if (!/^[A-Za-z0-9_-]{69,70}$/.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== BODY + MAC) return null;
  const expected = Buffer.from(raw);
  sign(secret, expected);
  if (!timingSafeEqual(raw.subarray(BODY), expected.subarray(BODY))) return null;
  const body = raw.subarray(0, BODY);
  return { offerId: bytesUuid(body.subarray(0, 16)), matchRunId: bytesUuid(body.subarray(16, 32)), expiresAt: new Date(body.readUInt32BE(32) * 1000) };
}
