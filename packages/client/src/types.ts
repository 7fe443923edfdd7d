/** Names for the client's requests, taken through the paths of the generated types (src/generated/). */
import type { components, paths as PathsA, webhooks } from './generated/variant-a';
import type { paths as PathsB } from './generated/variant-b';

export type { PathsA, PathsB };
type Body<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type ById = '/applications/{applicationId}';
type CheckA = PathsA[`${ById}/credit-check`]['post'];

export type CreateApplicationRequest = Body<PathsA['/applications']['post']>;
export type FormType = CreateApplicationRequest['formType'];
export type SaveStep = Body<PathsA[ById]['patch']>;
export type PatchStep = SaveStep['step'];
/** Step `S`'s fields for loan type `F`: the documents have one request schema per loan type and step. */
export type StepFields<F extends FormType, S extends PatchStep> = components['schemas'][`${Capitalize<F>}LoanStep${S}`];
export type ApplicantDetails = Body<CheckA>['data'];
export type SandboxScore = NonNullable<NonNullable<CheckA['parameters']['header']>['X-Sandbox-Score']>;
export type FlatApplication = Body<PathsB['/applications']['post']>;
/** A PATCH's fields by the application's loan type (one branch each), without the token. */
export type FlatFields =
  Body<PathsB[ById]['patch']> extends infer B ? (B extends unknown ? Omit<B, 'securityToken'> : never) : never;
export type CreditCheckDetailsB = Omit<Body<PathsB[`${ById}/credit-check`]['post']>, 'securityToken'>;
export type RegisterWebhookRequest = Body<PathsA['/webhooks']['post']>;
export type LenderWebhookRequest = Body<PathsA['/api/lender/v1/webhooks']['post']>;
export type ReferralReportQuery = NonNullable<PathsA['/reports/referrals']['get']['parameters']['query']>;
export type OutcomeEvent = Body<PathsA['/outcomes']['post']>;
/** A call that takes an `Idempotency-Key`: one is made for it unless you pass your own. */
export type IdempotentCallOptions = { idempotencyKey?: string };
/** `sandboxScore`, sandbox only, picks the simulated result. */
export type CreditCheckOptions = IdempotentCallOptions & { sandboxScore?: SandboxScore };
/** What a webhook delivery carries: one of the documents' webhook events. */
export type WebhookEvent = { [E in keyof webhooks]: Body<webhooks[E]['post']> }[keyof webhooks];
