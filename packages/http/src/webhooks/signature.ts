/**
 * Standard Webhooks signatures (CONTRACT.md "Webhooks"): `v1,` + base64 of HMAC-SHA256 over
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after
 * `whsec_`. While a rotated-out secret still signs, the header carries both signatures, newest first,
 * separated by a space; a receiver accepts the message when any of them matches.
 *
 * Three lines over node:crypto rather than the `standardwebhooks` package: the HMAC is native here,
 * and the header for two secrets is ours to compose. The tests verify with that package.
 */
import { createHmac } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one `v1,…` per secret, space-separated. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
}
