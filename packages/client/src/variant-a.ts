/**
 * Variant A (spec 4.1-4.5), at `…/api/partner/v1`, with `Authorization: Bearer <API key>`. Keep the key
 * on your server: never in a web page or a mobile app.
 */
import type {
  ApplicantDetails,
  CreateApplicationRequest,
  FormType,
  PatchStep,
  SandboxScore,
  StepFields,
} from './requests';
import type {
  Application,
  ConsentTexts,
  CreatedApplication,
  CreditCheckResult,
  MatchResult,
  ReferralPage,
} from './responses';
import { Transport, segment, type RequestSpec, type TransportOptions } from './transport';
import { WebhooksApi } from './webhooks';
import { ReportsApi, referralPageRequest } from './reports';

export interface ClientAOptions extends TransportOptions {
  /** Variant A's base address, e.g. `https://…/api/partner/v1`. */
  baseUrl: string;
  apiKey: string;
}

/** A call that takes an `Idempotency-Key`: one is made for you unless you pass your own. */
export interface IdempotentCallOptions {
  idempotencyKey?: string;
}

export interface CreditCheckOptions extends IdempotentCallOptions {
  /** Sandbox only: picks the simulated result. */
  sandboxScore?: SandboxScore;
}

export class LoanMatchClientA {
  readonly webhooks: WebhooksApi;
  /** Your referral report, as JSON or CSV. */
  readonly reports: ReportsApi;
  private readonly transport: Transport;
  private readonly authorization: Record<string, string>;

  constructor(options: ClientAOptions) {
    this.transport = new Transport(options.baseUrl, options);
    this.authorization = { Authorization: `Bearer ${requireKey(options.apiKey)}` };
    this.webhooks = new WebhooksApi((spec) => this.call(spec));
    this.reports = new ReportsApi((spec) => this.call(spec));
  }

  /** 4.1: answers 201's `data`. Under one key, a retry is answered from the first request: no second application. */
  createApplication(
    request: CreateApplicationRequest,
    options: IdempotentCallOptions = {},
  ): Promise<CreatedApplication> {
    const idempotencyKey = options.idempotencyKey ?? this.transport.newIdempotencyKey();
    return this.call({ method: 'POST', path: '/applications', body: request, idempotencyKey, repeatable: true });
  }

  /**
   * 4.2: saves step 2, 3 or 4 (in order), replacing it if it was saved before, which is also why a retry
   * is harmless. Name the loan type to have `data` checked for it: `saveStep<2, 'car'>(id, 2, {...})`.
   */
  saveStep<S extends PatchStep, F extends FormType = FormType>(
    applicationId: string,
    step: S,
    data: StepFields[F][S],
  ): Promise<Application> {
    return this.call({
      method: 'PATCH',
      path: `/applications/${segment(applicationId)}`,
      body: { step, data },
      repeatable: true,
    });
  }

  /** 4.5: status, last step, steps 1-4. */
  getApplication(applicationId: string): Promise<Application> {
    return this.call({ method: 'GET', path: `/applications/${segment(applicationId)}`, repeatable: true });
  }

  /** 4.3: step 5 and the soft credit check, always under an `Idempotency-Key` so a retry cannot run a second check. */
  runCreditCheck(
    applicationId: string,
    applicant: ApplicantDetails,
    options: CreditCheckOptions = {},
  ): Promise<CreditCheckResult> {
    const idempotencyKey = options.idempotencyKey ?? this.transport.newIdempotencyKey();
    return this.call({
      method: 'POST',
      path: `/applications/${segment(applicationId)}/credit-check`,
      body: { data: applicant },
      headers: { 'X-Sandbox-Score': options.sandboxScore === undefined ? undefined : String(options.sandboxScore) },
      idempotencyKey,
      repeatable: true,
    });
  }

  /** 4.4: a fresh run with fresh tracking links each time; the contract allows repeating it, so it is retried like a read. */
  match(applicationId: string): Promise<MatchResult> {
    return this.call({ method: 'POST', path: `/applications/${segment(applicationId)}/match`, repeatable: true });
  }

  /**
   * Referrals of this partner, newest first: `limit` 1-100 (default 50), `cursor` the `nextCursor` of the page
   * before. Each carries your `clientTags`, the lender's `outcome` and the `commission` it earned.
   */
  listReferrals(options: { cursor?: string; limit?: number } = {}): Promise<ReferralPage> {
    return this.call(referralPageRequest(options));
  }

  /** The consent wording to show applicants, by version; send the version shown with the credit check. */
  consents(): Promise<ConsentTexts> {
    return this.call({ method: 'GET', path: '/consents', repeatable: true });
  }

  private call<T>(spec: RequestSpec): Promise<T> {
    return this.transport.send<T>(spec, async () => this.authorization);
  }
}

export function requireKey(apiKey: string): string {
  if (typeof apiKey !== 'string' || !/^\S+$/.test(apiKey))
    throw new TypeError('apiKey must be the API key LoanMatch issued (lm_sandbox_… or lm_live_…)');
  return apiKey;
}
