/**
 * The partner SDK (`@loanmatch/client`) on a started server, as partners call it. Each client remembers
 * the answers it got, so that a test can still check a status or a header (`Idempotency-Replayed`,
 * `X-Request-Id`) the SDK does not put in its results. They do not retry unless a test asks
 * (`retries`): here a 5xx or a 429 is a finding, not something to ride out.
 */
import {
  LoanMatchClientA,
  LoanMatchClientB,
  type ApplicantDetails,
  type CreateApplicationRequest,
  type FlatApplication,
  type ResponseInfo,
  type TransportOptions,
} from '@loanmatch/client';
import { VALID_STEPS, flatApplication, validApplicant, type LoanType } from '../support';

export interface Answers {
  /** The last HTTP answer the client got. */
  last(): ResponseInfo;
}

function recorder(): Answers & { onResponse: (response: ResponseInfo) => void } {
  const seen: ResponseInfo[] = [];
  return {
    onResponse: (response) => void seen.push(response),
    last: () => {
      if (seen.length === 0) throw new Error('the client has had no answer yet');
      return seen[seen.length - 1];
    },
  };
}

export function partnerA(
  baseUrl: string,
  apiKey: string,
  options: TransportOptions = {},
): { client: LoanMatchClientA } & Answers {
  const answers = recorder();
  return {
    client: new LoanMatchClientA({ retries: 0, ...options, baseUrl, apiKey, onResponse: answers.onResponse }),
    last: answers.last,
  };
}

export function partnerB(
  baseUrl: string,
  apiKey: string,
  options: TransportOptions = {},
): { client: LoanMatchClientB } & Answers {
  const answers = recorder();
  return {
    client: new LoanMatchClientB({ retries: 0, ...options, baseUrl, apiKey, onResponse: answers.onResponse }),
    last: answers.last,
  };
}

/** The create body of `VALID_STEPS` for a loan type (the fixture is untyped by loan type, the SDK is not). */
export const createRequest = (type: LoanType): CreateApplicationRequest =>
  ({ formType: type, data: { ...VALID_STEPS[type][1] } }) as CreateApplicationRequest;

/** `validApplicant()` as the SDK's step-5 type. */
export const applicant = (overrides: Partial<ApplicantDetails> = {}): ApplicantDetails =>
  validApplicant(overrides) as unknown as ApplicantDetails;

/** `flatApplication()` as the SDK's Variant B create type. */
export const flatApplicationB = (overrides: Partial<FlatApplication> = {}): FlatApplication =>
  flatApplication(overrides) as unknown as FlatApplication;
