/**
 * The one soft credit check of an application, shared by both contracts' use cases: the claim that lets
 * one request at a time reach the bureau, and the bureau's answer completing the check with everything
 * that rests on it.
 */
import {
  claimCreditCheck,
  completeCreditCheck,
  findApplication,
  releaseCreditCheck,
  takeOverCreditCheck,
  type ApplicationRow,
  type Json,
} from '@loanmatch/db';
import { cleanUp } from '../cleanup';
import { consentRecordFor } from '../consents';
import type { DomainContext } from '../context';
import { bandOf, type SandboxScore } from '../credit/bureau';
import { parseSandboxScore } from '../credit/sandbox';
import { fail, ok, type Result } from '../errors';
import type { Seal } from '../idempotency';
import { sealApplicantDetails } from '../personal-data';
import { sealScore } from '../sealed-fields';
import { PERSONAL_DATA_ERASED_MESSAGE, type CreditCheckView } from './view';

/** `X-Sandbox-Score`: the sandbox's simulated result; a live server refuses the header. */
export function sandboxScoreFor(ctx: DomainContext, header: string | undefined): Result<SandboxScore | undefined> {
  if (header !== undefined && !ctx.bureau.sandbox) {
    const message = 'X-Sandbox-Score: is accepted only by the sandbox';
    return fail('VALIDATION_ERROR', message, [{ field: 'X-Sandbox-Score', rule: 'sandbox', message }]);
  }
  return parseSandboxScore(header);
}

/**
 * Runs `work` holding the application's one check: refused when it has completed, or runs in a live
 * process; taken over from a process that died. A refusal or a failure of `work` releases the claim.
 */
export async function withCheckClaim<T>(
  ctx: DomainContext,
  applicationId: string,
  work: () => Promise<Result<T>>,
): Promise<Result<T>> {
  const name = `check:${applicationId}`;
  // Held before the claim exists: a concurrent request that sees our claim must find us alive.
  const release = ctx.instance.hold(name);
  try {
    const claim = await claimCreditCheck(ctx.db, applicationId, ctx.instance.id);
    if (!claim.claimed && claim.status === 'completed') {
      return fail(
        'CREDIT_CHECK_ALREADY_COMPLETED',
        'The credit check for this application has already completed; an application has one soft check',
      );
    }
    if (!claim.claimed) {
      const owner = claim.ownerId ?? '';
      const taken =
        !(await ctx.instance.isAlive(owner, name)) &&
        (await takeOverCreditCheck(ctx.db, applicationId, owner, ctx.instance.id));
      if (!taken)
        return fail('CREDIT_CHECK_IN_PROGRESS', 'A credit check for this application is running; retry shortly');
    }
    try {
      const result = await work();
      if (!result.ok) await releaseCreditCheck(ctx.db, applicationId, ctx.instance.id);
      return result;
    } catch (err) {
      await cleanUp(releaseCreditCheck(ctx.db, applicationId, ctx.instance.id));
      throw err;
    }
  } finally {
    release();
  }
}

/** Step 5 as the bureau gets it, and what the applicant row holds once the check has run. */
export interface ApplicantForCheck {
  details: Json;
  stored: Json;
}

/**
 * Asks the bureau, then completes the claimed check in one statement: the result (the score sealed, its
 * band in clear), step 5, the consent record, the move to `credit_checked` and the request's key.
 */
export async function completeCheck(
  ctx: DomainContext,
  check: {
    app: ApplicationRow;
    partnerId: string;
    applicant: ApplicantForCheck;
    sandboxScore: SandboxScore | undefined;
    seal: Seal<CreditCheckView>;
  },
): Promise<Result<CreditCheckView>> {
  const { app, applicant } = check;
  try {
    const answer = await ctx.bureau.requestScore({
      applicationId: app.id,
      applicant: applicant.details,
      sandboxScore: check.sandboxScore,
    });
    const view: CreditCheckView = {
      applicationId: app.id,
      creditCheckComplete: true,
      degraded_mode: !answer.available,
      sandbox_mode: ctx.bureau.sandbox,
    };
    const consent = consentRecordFor({ applicant: applicant.details });
    const completed = await completeCreditCheck(ctx.db, {
      applicationId: app.id,
      partnerId: check.partnerId,
      ownerId: ctx.instance.id,
      result: {
        scoreSealed: answer.available ? sealScore(ctx, app.id, answer.score) : null,
        band: answer.available ? bandOf(answer.score) : null,
        degradedMode: !answer.available,
        sandboxMode: ctx.bureau.sandbox,
        source: answer.source,
      },
      details: sealApplicantDetails(ctx, app.id, applicant.stored),
      consent,
      key: check.seal(view),
      now: ctx.clock(),
    });
    if (!completed) {
      const now = await findApplication(ctx.db, app.id, app.partnerId);
      if (!now?.personalDataErased)
        throw new Error(`the credit check of ${app.id} was no longer this process's to complete`);
      ctx.metrics?.creditCheck('failed');
      return fail('PERSONAL_DATA_ERASED', PERSONAL_DATA_ERASED_MESSAGE);
    }
    ctx.metrics?.creditCheck(answer.available ? 'completed' : 'degraded');
    ctx.webhooks.notify();
    return ok(view);
  } catch (err) {
    ctx.metrics?.creditCheck('failed');
    throw err;
  }
}
