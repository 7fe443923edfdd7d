/**
 * Tracking tokens: the MAC is HMAC-SHA256 as `createHmac` makes it (so links signed before the one-shot
 * implementation still verify), over any secret length; a token verifies under its own secret only, and a
 * change of any byte makes it unknown.
 */
import { createHmac, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { trackingSigner, verifyTrackingToken } from '../src/tracking';

type Claims = { offerId: string; matchRunId: string; expiresAt: Date };
/** One token, from a signer of its own. */
const signTrackingToken = (secret: Buffer, c: Claims) => trackingSigner(secret, c.matchRunId, c.expiresAt)(c.offerId);

const claimsArb = fc.record({
  offerId: fc.uuid(),
  matchRunId: fc.uuid(),
  expiresAt: fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((s) => new Date(s * 1000)),
});
/** Secrets shorter than, as long as and longer than SHA-256's 64-byte block (a longer key is hashed first). */
const secretArb = fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Buffer.from(b));

const referenceMac = (secret: Buffer, body: Buffer) =>
  createHmac('sha256', secret).update(body).digest().subarray(0, 16);

describe('tracking tokens', () => {
  it("when a token is signed, then its last 16 bytes are createHmac's HMAC-SHA256 of its first 36, and it verifies to its claims", () => {
    fc.assert(
      fc.property(secretArb, claimsArb, (secret, claims) => {
        const token = signTrackingToken(secret, claims);
        const raw = Buffer.from(token, 'base64url');
        expect(raw).toHaveLength(52);
        expect(raw.subarray(0, 16).toString('hex')).toBe(claims.offerId.replace(/-/g, ''));
        expect(raw.subarray(16, 32).toString('hex')).toBe(claims.matchRunId.replace(/-/g, ''));
        expect(raw.readUInt32BE(32)).toBe(claims.expiresAt.getTime() / 1000);
        expect(raw.subarray(36).equals(referenceMac(secret, raw.subarray(0, 36)))).toBe(true);
        expect(verifyTrackingToken(secret, token)).toEqual(claims);
      }),
      { numRuns: 300 },
    );
  });

  it('when tokens of two secrets are signed and verified in turn, then each verifies under its own secret only', () => {
    fc.assert(
      fc.property(secretArb, secretArb, claimsArb, claimsArb, (a, b, ca, cb) => {
        fc.pre(!a.equals(b));
        const ta = signTrackingToken(a, ca);
        const tb = signTrackingToken(b, cb);
        expect(verifyTrackingToken(a, tb)).toBeNull();
        expect(verifyTrackingToken(b, ta)).toBeNull();
        expect(verifyTrackingToken(a, ta)).toEqual(ca);
        expect(verifyTrackingToken(b, tb)).toEqual(cb);
      }),
      { numRuns: 200 },
    );
  });

  it('when any byte of a token is changed, then it is unknown', () => {
    const secret = Buffer.from('a tracking secret of the test');
    const token = signTrackingToken(secret, {
      offerId: randomUUID(),
      matchRunId: randomUUID(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const raw = Buffer.from(token, 'base64url');
    for (let i = 0; i < raw.length; i++) {
      const changed = Buffer.from(raw);
      changed[i] ^= 0x01;
      expect(verifyTrackingToken(secret, changed.toString('base64url'))).toBeNull();
    }
    expect(verifyTrackingToken(secret, token.slice(0, -1))).toBeNull();
    expect(verifyTrackingToken(secret, `${token}A`)).toBeNull();
  });

  it("when a run's signer signs several offers, then each token is the one a fresh signer makes for that offer", () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.uuid(),
        claimsArb.map((c) => c.expiresAt),
        fc.array(fc.uuid(), { minLength: 1, maxLength: 12 }),
        (secret, matchRunId, expiresAt, offerIds) => {
          const sign = trackingSigner(secret, matchRunId, expiresAt);
          for (const offerId of offerIds)
            expect(sign(offerId)).toBe(signTrackingToken(secret, { offerId, matchRunId, expiresAt }));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('when an id is not a UUID, then signing refuses it', () => {
    const sign = trackingSigner(Buffer.from('s'), randomUUID(), new Date());
    for (const bad of [
      '',
      'not-a-uuid',
      `${randomUUID()}0`,
      randomUUID().replace(/[0-9a-f]$/, 'g'),
      randomUUID().replace(/-/g, ''),
    ]) {
      expect(() => sign(bad)).toThrow(TypeError);
    }
    expect(sign(randomUUID().toUpperCase())).toMatch(/^[A-Za-z0-9_-]{70}$/);
  });
});
