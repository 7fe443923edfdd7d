/**
 * `HmacSha256` is HMAC-SHA256 exactly as `createHmac` computes it: any key length (longer than a block is
 * hashed first), any message, text as UTF-8 (lone surrogates as U+FFFD, as `createHmac` encodes them),
 * and one instance used for messages of every size in turn (its scratch space grows and is reused).
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { HmacSha256 } from '../src/hmac';

const keyArb = fc.uint8Array({ minLength: 0, maxLength: 200 }).map((b) => Buffer.from(b));
const messageArb = fc.oneof(
  fc.uint8Array({ minLength: 0, maxLength: 1200 }).map((b) => Buffer.from(b)),
  fc.string({ unit: 'binary', maxLength: 600 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
);
const reference = (key: Buffer, message: Buffer | string) =>
  (typeof message === 'string' ? createHmac('sha256', key).update(message, 'utf8') : createHmac('sha256', key).update(message)).digest();

describe('HmacSha256', () => {
  it('when messages of any size are signed in turn under one key, then each MAC is createHmac\'s, in bytes and in base64url', () => {
    fc.assert(
      fc.property(keyArb, fc.array(messageArb, { minLength: 1, maxLength: 8 }), (key, messages) => {
        const hmac = new HmacSha256(key);
        for (const message of messages) {
          const expected = reference(key, message);
          expect(hmac.macBytes(message).equals(expected)).toBe(true);
          expect(hmac.mac(message, 'base64url')).toBe(expected.toString('base64url'));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('when two keys are used in turn, then each MAC is its own key\'s', () => {
    const a = new HmacSha256(Buffer.from('key a'));
    const b = new HmacSha256(Buffer.alloc(100, 7));
    for (const message of ['', 'x', 'y'.repeat(1000), 'z']) {
      expect(a.macBytes(message).equals(reference(Buffer.from('key a'), message))).toBe(true);
      expect(b.macBytes(message).equals(reference(Buffer.alloc(100, 7), message))).toBe(true);
    }
  });

  it('when a message is signed, then the instance keeps no copy of it', () => {
    const hmac = new HmacSha256(Buffer.from('key'));
    const message = 'Jordan Citizen, 1 Example Street, jordan.citizen@example.com';
    hmac.mac(message, 'base64url');
    const buffers = Object.values(hmac).filter((v): v is Buffer => Buffer.isBuffer(v));
    expect(buffers.length).toBeGreaterThan(0);
    for (const b of buffers) expect(b.includes(Buffer.from('jordan.citizen'))).toBe(false);
  });
});
