/** Variant A, at `…/api/partner/v1`, with `Authorization: Bearer <API key>`: keep the key on your server. */
import { PartnerClient, sendWith } from './partner';
import { createTransport, dataOf, requireKey, type TransportOptions } from './transport';
import type * as T from './types';

export type ClientAOptions = TransportOptions & { baseUrl: string; apiKey: string };

export class LoanMatchClientA extends PartnerClient<T.PathsA> {
  constructor(options: ClientAOptions) {
    const transport = createTransport(options.baseUrl, options);
    super(transport, sendWith(transport, { Authorization: `Bearer ${requireKey(options.apiKey)}` }));
  }

  /** Step 1. Under one key, a retry is answered from the first request: no second application. */
  createApplication(request: T.CreateApplicationRequest, options: T.IdempotentCallOptions = {}) {
    return dataOf(this.api.POST('/applications', { params: { header: this.headersOf(options) }, body: request }));
  }

  /** Saves step 2, 3 or 4, in order, replacing a saved one; `saveStep<2, 'car'>(…)` checks `data` for car loans. */
  saveStep<S extends T.PatchStep, F extends T.FormType = T.FormType>(
    applicationId: string,
    step: S,
    data: T.StepFields<F, S>,
  ) {
    const body = { step, data } as T.SaveStep; // one member of the union, which a generic `S` cannot name
    return dataOf(this.api.PATCH('/applications/{applicationId}', { params: { path: { applicationId } }, body }));
  }

  getApplication(applicationId: string) {
    return dataOf(this.api.GET('/applications/{applicationId}', { params: { path: { applicationId } } }));
  }

  /** Step 5 and the soft credit check, always under an `Idempotency-Key`: a retry cannot run a second check. */
  runCreditCheck(applicationId: string, applicant: T.ApplicantDetails, options: T.CreditCheckOptions = {}) {
    const params = { path: { applicationId }, header: this.headersOf(options) };
    return dataOf(this.api.POST('/applications/{applicationId}/credit-check', { params, body: { data: applicant } }));
  }

  /** Fresh offers and tracking links each time; the contract allows repeating it, so it is retried like a read. */
  match(applicationId: string) {
    return dataOf(this.api.POST('/applications/{applicationId}/match', { params: { path: { applicationId } } }));
  }
}
