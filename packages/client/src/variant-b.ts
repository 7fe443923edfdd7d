/**
 * Variant B (spec 4.6), at `…/v1`: the API key is exchanged for a 15-minute access token, which this
 * client renews by itself; PATCH, credit check and match carry the application's `securityToken`.
 * Variant B is complete on its own: no call of Variant A is needed.
 */
import { LoanMatchApiError } from './errors';
import type { CreditCheckDetailsB, FlatApplication, FlatFields } from './requests';
import type {
  AccessTokenGrant,
  ConsentTexts,
  CreatedApplicationB,
  CreditCheckResult,
  MatchResult,
  ReferralPage,
  UpdatedApplicationB,
} from './responses';
import { AccessTokenCache } from './tokens';
import { Transport, segment, type RequestSpec, type TransportOptions } from './transport';
import { requireKey, type CreditCheckOptions, type IdempotentCallOptions } from './variant-a';
import { WebhooksApi } from './webhooks';
import { ReportsApi, referralPageRequest } from './reports';

export interface ClientBOptions extends TransportOptions {
  /** Variant B's base address, e.g. `https://…/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Renew the access token this long before it expires (default 60000 ms). */
  renewBeforeExpiryMs?: number;
  /** Milliseconds since the epoch; `Date.now` unless a test moves time. */
  now?: () => number;
}

export class LoanMatchClientB {
  readonly webhooks: WebhooksApi;
  /** Your referral report, as JSON or CSV. */
  readonly reports: ReportsApi;
  private readonly transport: Transport;
  private readonly tokens: AccessTokenCache;

  constructor(options: ClientBOptions) {
    this.transport = new Transport(options.baseUrl, options);
    const apiKey = requireKey(options.apiKey);
    this.tokens = new AccessTokenCache(
      () =>
        this.transport.send<AccessTokenGrant>(
          { method: 'POST', path: '/auth/token', body: { grantType: 'api_key' }, repeatable: true },
          async () => ({ 'X-API-Key': apiKey }),
        ),
      options.now ?? Date.now,
      options.renewBeforeExpiryMs ?? 60_000,
    );
    this.webhooks = new WebhooksApi((spec) => this.call(spec));
    this.reports = new ReportsApi((spec) => this.call(spec));
  }

  /** Referrals of this partner, newest first, as Variant A lists them. */
  listReferrals(options: { cursor?: string; limit?: number } = {}): Promise<ReferralPage> {
    return this.call(referralPageRequest(options));
  }

  /** A valid access token, exchanged or renewed if need be (for a call this client does not cover). */
  accessToken(): Promise<string> {
    return this.tokens.get();
  }

  /** Answers the application and its `securityToken`, shown this once. Under one key, a retry is answered from the first request. */
  createApplication(application: FlatApplication, options: IdempotentCallOptions = {}): Promise<CreatedApplicationB> {
    const idempotencyKey = options.idempotencyKey ?? this.transport.newIdempotencyKey();
    return this.call({ method: 'POST', path: '/applications', body: application, idempotencyKey, repeatable: true });
  }

  /**
   * Adds or replaces flat fields of steps 2-5 (step 5's until the credit check). Repeatable: the same
   * fields sent twice leave the application as once, so it is retried like a read.
   */
  updateApplication(applicationId: string, securityToken: string, fields: FlatFields): Promise<UpdatedApplicationB> {
    return this.call({
      method: 'PATCH',
      path: `/applications/${segment(applicationId)}`,
      body: { ...fields, securityToken },
      repeatable: true,
    });
  }

  /** Runs on what create and PATCH gave; `details` adds step-5 fields (the consent, if not given before). */
  runCreditCheck(
    applicationId: string,
    securityToken: string,
    details: CreditCheckDetailsB = {},
    options: CreditCheckOptions = {},
  ): Promise<CreditCheckResult> {
    const idempotencyKey = options.idempotencyKey ?? this.transport.newIdempotencyKey();
    return this.call({
      method: 'POST',
      path: `/applications/${segment(applicationId)}/credit-check`,
      body: { ...details, securityToken },
      headers: { 'X-Sandbox-Score': options.sandboxScore === undefined ? undefined : String(options.sandboxScore) },
      idempotencyKey,
      repeatable: true,
    });
  }

  /** Answers as Variant A's match does; repeatable, so retried like a read. */
  match(applicationId: string, securityToken: string): Promise<MatchResult> {
    return this.call({
      method: 'POST',
      path: `/applications/${segment(applicationId)}/match`,
      body: { securityToken },
      repeatable: true,
    });
  }

  /** The consent wording to show applicants, by version; send the version shown with create, PATCH or the check. */
  consents(): Promise<ConsentTexts> {
    return this.call({ method: 'GET', path: '/consents', repeatable: true });
  }

  /**
   * Sends `spec` with the current access token. A 401 to a token call means the token expired, was
   * signed with a secret the service no longer accepts, or its key was revoked: the token is dropped
   * and the request sent once more with a fresh one (a 401 means the service did not act on it). A
   * revoked key then fails at the exchange, and that 401 is what the caller sees.
   */
  private async call<T>(spec: RequestSpec): Promise<T> {
    let sent: string | undefined;
    let exchangeFailed = false;
    const authorize = async () => {
      try {
        sent = await this.tokens.get();
      } catch (err) {
        exchangeFailed = true;
        throw err;
      }
      return { Authorization: `Bearer ${sent}` };
    };
    try {
      return await this.transport.send<T>(spec, authorize);
    } catch (err) {
      if (exchangeFailed || sent === undefined || !(err instanceof LoanMatchApiError) || err.status !== 401) throw err;
      this.tokens.discard(sent);
      return this.transport.send<T>(spec, authorize);
    }
  }
}
