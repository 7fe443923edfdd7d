import type { DomainContext } from '../context';
import { fail, ok } from '../errors';
import { withIdempotency } from '../idempotency';
import { validateApplicantDetails } from '../validation';
import { runClaimedCheck, sandboxScoreFor } from './credit-check';
import { findOwnApplication, type CreditCheckView } from './view';

export interface CreditCheckRequest {
  partnerId: string;
  applicationId: string;
  body: unknown;
  idempotencyKey: string | undefined;
  sandboxScore: string | undefined;
}

export function creditCheckFingerprint(operation: string, options: CreditCheckRequest, body: unknown) {
  return { operation, target: options.applicationId, body, headers: { 'x-sandbox-score': options.sandboxScore } };
}

/**
 * `POST /applications/{id}/credit-check`: step 5 and the one soft check, once steps 1-4 are saved. The
 * `Idempotency-Key` is required, so that a retry cannot run a second check.
 */
export async function runCreditCheck(ctx: DomainContext, options: CreditCheckRequest) {
  const request = creditCheckFingerprint('credit-check', options, options.body);
  return withIdempotency<CreditCheckView>(ctx, { ...options, required: true, request }, async (seal) => {
    const found = await findOwnApplication(ctx, options);
    if (!found.ok) return found;
    const app = found.value;
    if (app.personalDataErased) return fail('PERSONAL_DATA_ERASED');
    const details = validateApplicantDetails(options.body, ctx.clock());
    if (!details.ok) return details;
    const sandboxScore = sandboxScoreFor(ctx, options.sandboxScore);
    if (!sandboxScore.ok) return sandboxScore;
    const missing = ([2, 3, 4] as const).filter((n) => !app.steps[n]);
    if (missing.length > 0) {
      const message = `Steps 1-4 must be saved before the credit check; missing step ${missing.join(', ')}`;
      return fail('STEPS_INCOMPLETE', message);
    }
    return runClaimedCheck(ctx, {
      app,
      partnerId: options.partnerId,
      applicant: async () => ok({ details: details.value, stored: details.value }),
      sandboxScore: sandboxScore.value,
      seal,
    });
  });
}
