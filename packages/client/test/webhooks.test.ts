/** `verifyWebhook` against deliveries signed as the service signs them. */
import { signatureHeader } from '@loanmatch/http';
import { verifyWebhook } from '../src';

const SECRET = `whsec_${Buffer.from('a-secret-of-thirty-two-bytes-ok!').toString('base64')}`;
const OLD_SECRET = `whsec_${Buffer.from('the-secret-before-the-rotation!!').toString('base64')}`;
const EVENT = {
  type: 'webhook.test',
  timestamp: '2026-11-23T09:12:00.000Z',
  data: { webhookId: '5d9f2d2e-8c39-4a53-9f0e-3a4f6a1c1b2a' },
};

function delivery(secrets: string[], at = Math.floor(Date.now() / 1000), body = JSON.stringify(EVENT)) {
  const headers = {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(at),
    'webhook-signature': signatureHeader(secrets, 'msg_1', at, body),
  };
  return { body, headers };
}

describe('verifyWebhook', () => {
  it('when a delivery is signed with the secret, or with the new and old ones during a rotation, then its event is answered', () => {
    for (const secrets of [[SECRET], [SECRET, OLD_SECRET], [OLD_SECRET, SECRET]]) {
      const { body, headers } = delivery(secrets);
      expect(verifyWebhook(SECRET, body, headers)).toEqual(EVENT);
    }
  });

  it('when the body was changed, the signature is another secret’s, or the timestamp is over 5 minutes away, then it throws', () => {
    const signed = delivery([SECRET]);
    expect(() => verifyWebhook(SECRET, signed.body.replace('test', 'tesT'), signed.headers)).toThrow();
    const other = delivery([OLD_SECRET]);
    expect(() => verifyWebhook(SECRET, other.body, other.headers)).toThrow();
    const stale = delivery([SECRET], Math.floor(Date.now() / 1000) - 301);
    expect(() => verifyWebhook(SECRET, stale.body, stale.headers)).toThrow();
    const { 'webhook-signature': _, ...unsigned } = signed.headers;
    expect(() => verifyWebhook(SECRET, signed.body, unsigned)).toThrow();
  });
});
