/** Variant B's token exchange: an API key for access tokens, and the key a token names, checked on every call. */
import type { DomainContext } from '../context';
import { fail, ok } from '../errors';
import { canonicalUuid } from '../ids';
import { activeKeyById, apiKeyEnvironment } from '../keys';
import { authenticateApiKey, authenticatedPartner } from '../partners';

export async function authenticateTokenExchange(ctx: DomainContext, options: { apiKey: string | undefined }) {
  if (!options.apiKey || !apiKeyEnvironment(options.apiKey)) {
    const message = 'A valid API key is required: send X-API-Key: <API key> with the body {"grantType": "api_key"}';
    return fail('UNAUTHORIZED', message);
  }
  return authenticateApiKey(ctx, { apiKey: options.apiKey });
}

/** The partner behind a verified access token: a key revoked since ends the token at once. */
export async function authenticateTokenSubject(ctx: DomainContext, options: { partnerId: string; keyId: string }) {
  const keyId = canonicalUuid(options.keyId);
  const owner = keyId ? await activeKeyById(ctx.db, keyId) : null;
  if (!owner || owner.partnerId !== options.partnerId || owner.environment !== ctx.env) {
    const message =
      'The API key this access token was issued for is no longer valid; exchange a valid key at POST /v1/auth/token';
    return fail('UNAUTHORIZED', message);
  }
  return ok(authenticatedPartner(owner));
}
