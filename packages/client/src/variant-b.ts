/** Variant B, at `…/v1`: the API key is exchanged for access tokens, renewed before they expire. */
import { LoanMatchApiError } from './errors';
import { PartnerClient, apiOf, sendWith } from './partner';
import { createTransport, dataOf, requireKey } from './transport';
import type { ClientAOptions } from './variant-a';
import type * as T from './types';

/** `renewBeforeExpiryMs` (60000, at most half the token's lifetime); `now` for tests that move time. */
export type ClientBOptions = ClientAOptions & { renewBeforeExpiryMs?: number; now?: () => number };

export class LoanMatchClientB extends PartnerClient<T.PathsB> {
  /** A valid access token, exchanged or renewed if need be; calls needing one at once share one exchange. */
  readonly accessToken: () => Promise<string>;

  constructor(options: ClientBOptions) {
    const transport = createTransport(options.baseUrl, options);
    const exchange = apiOf<T.PathsB>(transport, sendWith(transport, { 'X-API-Key': requireKey(options.apiKey) }));
    const { now = Date.now, renewBeforeExpiryMs: early = 60_000 } = options;
    let current: { token: string; renewAt: number; expiresAt: number } | undefined;
    let pending: Promise<string> | undefined;
    const renew = async () => {
      const requestedAt = now(); // the token's lifetime cannot have started earlier
      const { accessToken, expiresIn } = await dataOf(exchange.POST('/auth/token', { body: { grantType: 'api_key' } }));
      const lifetimeMs = expiresIn * 1000;
      const renewAt = requestedAt + lifetimeMs - Math.min(early, lifetimeMs / 2);
      current = { token: accessToken, renewAt, expiresAt: requestedAt + lifetimeMs };
      return accessToken;
    };
    // A renewal that fails while the token in hand is still valid leaves the call to that token.
    const accessToken = () => {
      if (current && now() < current.renewAt) return Promise.resolve(current.token);
      pending ??= renew()
        .catch((err) => (current && now() < current.expiresAt ? current.token : Promise.reject(err)))
        .finally(() => {
          pending = undefined;
        });
      return pending;
    };
    // A 401 means the token expired or is no longer accepted, and that the service did not act: the request is
    // sent once more with a fresh token. A revoked key then fails at the exchange, and that 401 is thrown.
    const send = async (request: Request, repeatable: boolean) => {
      let sent: string | undefined;
      const authorize = async () => {
        sent = undefined; // and so it stays if the exchange fails
        sent = await accessToken();
        return { Authorization: `Bearer ${sent}` };
      };
      try {
        return await transport.send(request.clone(), authorize, repeatable);
      } catch (err) {
        if (!sent || !(err instanceof LoanMatchApiError) || err.status !== 401) throw err;
        if (current?.token === sent) current = undefined;
        return transport.send(request, authorize, repeatable, err.attempts);
      }
    };
    super(transport, send);
    this.accessToken = accessToken;
  }

  /** Answers the application and its `securityToken`, shown this once; a retry under one key answers the first. */
  createApplication(application: T.FlatApplication, options: T.IdempotentCallOptions = {}) {
    return dataOf(this.api.POST('/applications', { params: { header: this.headersOf(options) }, body: application }));
  }

  /** Adds or replaces flat fields of steps 2-5 (step 5's until the check); repeatable, so retried like a read. */
  updateApplication(applicationId: string, securityToken: string, fields: T.FlatFields) {
    const body = { ...fields, securityToken };
    return dataOf(this.api.PATCH('/applications/{applicationId}', { params: { path: { applicationId } }, body }));
  }

  /** Runs on what create and PATCH gave; `details` adds step-5 fields (the consent, if not given before). */
  runCreditCheck(
    applicationId: string,
    securityToken: string,
    details: T.CreditCheckDetailsB = {},
    options: T.CreditCheckOptions = {},
  ) {
    const params = { path: { applicationId }, header: this.headersOf(options) };
    const body = { ...details, securityToken };
    return dataOf(this.api.POST('/applications/{applicationId}/credit-check', { params, body }));
  }

  match(applicationId: string, securityToken: string) {
    const params = { path: { applicationId } };
    return dataOf(this.api.POST('/applications/{applicationId}/match', { params, body: { securityToken } }));
  }
}
