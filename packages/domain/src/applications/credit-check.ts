/** The one soft credit check of an application, for both contracts: its claim, then the bureau's answer. */
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
import { bandOf, parseSandboxScore, type SandboxScore } from '../credit/bureau';
import { fail, invalid, ok, violation, type Result } from '../errors';
import type { Seal } from '../idempotency';
import { sealApplicantDetails, sealScore } from '../personal-data';
import type { CreditCheckView } from './view';

export function sandboxScoreFor(ctx: DomainContext, header: string | undefined): Result<SandboxScore | undefined> {
  if (header !== undefined && !ctx.bureau.sandbox)
    return invalid(violation('X-Sandbox-Score', 'sandbox', 'is accepted only by the sandbox'));
  return parseSandboxScore(header);
}

/** Step 5 as the bureau gets it, and what the applicant row holds once the check has run. */
export interface ApplicantForCheck {
  details: Json;
  stored: Json;
}

interface Check {
  app: ApplicationRow;
  partnerId: string;
  applicant: () => Promise<Result<ApplicantForCheck>>;
  sandboxScore: SandboxScore | undefined;
  seal: Seal<CreditCheckView>;
}

/**
 * Runs the application's one check, holding its claim (taken over from a process that died); `applicant`
 * is read once the claim is held. A refusal or a failure releases the claim.
 */
export async function runClaimedCheck(ctx: DomainContext, check: Check) {
  const { app } = check;
  const name = `check:${app.id}`;
  // Held before the claim exists: a concurrent request that sees our claim must find us alive.
  const release = ctx.instance.hold(name);
  try {
    const claim = await claimCreditCheck(ctx.db, app.id, ctx.instance.id);
    if (!claim.claimed && claim.status === 'completed') return fail('CREDIT_CHECK_ALREADY_COMPLETED');
    if (!claim.claimed) {
      const owner = claim.ownerId ?? '';
      const taken =
        !(await ctx.instance.isAlive(owner, name)) &&
        (await takeOverCreditCheck(ctx.db, app.id, owner, ctx.instance.id));
      if (!taken) return fail('CREDIT_CHECK_IN_PROGRESS');
    }
    try {
      const applicant = await check.applicant();
      const result = applicant.ok ? await completeCheck(ctx, check, applicant.value) : applicant;
      if (!result.ok) await releaseCreditCheck(ctx.db, app.id, ctx.instance.id);
      return result;
    } catch (err) {
      await cleanUp(releaseCreditCheck(ctx.db, app.id, ctx.instance.id));
      throw err;
    }
  } finally {
    release();
  }
}

/** Asks the bureau, then completes the claimed check, step 5, the consent record and the key in one statement. */
async function completeCheck(
  ctx: DomainContext,
  check: Check,
  applicant: ApplicantForCheck,
): Promise<Result<CreditCheckView>> {
  const { app } = check;
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
      consent: consentRecordFor(applicant.details),
      key: check.seal(view),
      now: ctx.clock(),
    });
    if (!completed) {
      const now = await findApplication(ctx.db, app.id, app.partnerId);
      if (!now?.personalDataErased)
        throw new Error(`the credit check of ${app.id} was no longer this process's to complete`);
      ctx.metrics?.creditCheck('failed');
      return fail('PERSONAL_DATA_ERASED');
    }
    ctx.metrics?.creditCheck(answer.available ? 'completed' : 'degraded');
    ctx.webhooks.notify();
    return ok(view);
  } catch (err) {
    ctx.metrics?.creditCheck('failed');
    throw err;
  }
}
