import { randomUUID } from 'node:crypto';
import type { ApplicationRow, Json } from '@loanmatch/db';
import { cleanUp } from './cleanup';
import type { DomainContext } from './context';
import { bandOf } from './credit/bureau';
import { parseSandboxScore } from './credit/sandbox';
import { fail, ok, type Result } from './errors';
import { NEW_APPLICATION, changeReadApplication, createAnnouncedApplication, recordCreditCheck } from './events';
import { checkIdempotencyKey, withIdempotency, withIdempotentWrite, type Replayable } from './idempotency';
import {
  validateApplicantDetails,
  validateCreateRequest,
  validateStepData,
  validateStepEnvelope,
  type FormType,
} from './validation';
import { canonicalUuid } from './ids';
import { consentRecordFor } from './consents';
import { PERSONAL_DATA_ERASED_MESSAGE, readApplicantDetails, sealApplicantDetails } from './personal-data';
import { openSteps, sealScore } from './sealed-fields';

/** Application statuses (CONTRACT.md). */
export type { ApplicationStatus } from './status';

/** What partners see of an application: never step 5, never a score. */
export interface ApplicationView extends Json {
  applicationId: string;
  formType: string;
  status: string;
  lastStep: number;
  steps: Record<string, Json>;
  creditCheckComplete: boolean;
  creditCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CreditCheckView extends Json {
  applicationId: string;
  creditCheckComplete: boolean;
  degraded_mode: boolean;
  sandbox_mode: boolean;
}

export interface CreatedApplication extends Json {
  applicationId: string;
  formType: string;
  status: string;
  lastStep: number;
}

/** The application as partners read it: steps 1-4 as they gave them, their personal fields opened again. */
export function applicationView(ctx: DomainContext, row: ApplicationRow): ApplicationView {
  const steps: Record<string, Json> = {};
  for (const [n, data] of Object.entries(openSteps(ctx, row))) if (data) steps[n] = data;
  const completed = row.creditCheck?.status === 'completed';
  return {
    applicationId: row.id,
    formType: row.formType,
    status: row.status,
    lastStep: row.lastStep,
    steps,
    creditCheckComplete: completed,
    creditCheckedAt: completed && row.creditCheck?.completedAt ? row.creditCheck.completedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The partner's own application; another partner's, an unknown and a malformed id are all NOT_FOUND. */
export async function findOwnApplication(
  ctx: DomainContext,
  options: { partnerId: string; applicationId: string },
): Promise<Result<ApplicationRow>> {
  const id = canonicalUuid(options.applicationId);
  const row = id ? await ctx.repos.applications.findApplication(id, options.partnerId) : null;
  return row ? ok(row) : fail('NOT_FOUND', 'Application not found');
}

export async function getApplication(
  ctx: DomainContext,
  options: { partnerId: string; applicationId: string },
): Promise<Result<ApplicationView>> {
  const found = await findOwnApplication(ctx, options);
  return found.ok ? ok(applicationView(ctx, found.value)) : found;
}

export async function createApplication(
  ctx: DomainContext,
  options: { partnerId: string; body: unknown; idempotencyKey: string | undefined; operation?: string },
): Promise<Result<Replayable<CreatedApplication>>> {
  const keyCheck = checkIdempotencyKey(options.idempotencyKey, false);
  if (!keyCheck.ok) return keyCheck;
  const scope = {
    partnerId: options.partnerId,
    key: options.idempotencyKey,
    request: { operation: options.operation ?? 'create-application', body: options.body },
  };
  const valid = validateCreateRequest(options.body);
  const app = valid.ok
    ? {
        id: randomUUID(),
        partnerId: options.partnerId,
        formType: valid.value.formType,
        step1: valid.value.data,
        clientTags: nonEmpty(valid.value.clientTags),
      }
    : undefined;
  const planned: Result<CreatedApplication> = app
    ? ok({
        applicationId: app.id,
        formType: app.formType,
        status: NEW_APPLICATION.status,
        lastStep: NEW_APPLICATION.lastStep,
      })
    : (valid as Result<never>);
  // The application, its event and the key completed with this answer: one statement.
  return withIdempotentWrite<CreatedApplication>(ctx, scope, planned, (key) =>
    createAnnouncedApplication(ctx, app!, key),
  );
}

/** Tags are kept only when there are some: none, or `{}`, is stored as none. */
export function nonEmpty(tags: Record<string, string> | undefined): Record<string, string> | undefined {
  return tags && Object.keys(tags).length > 0 ? tags : undefined;
}

export async function saveStep(
  ctx: DomainContext,
  options: { partnerId: string; applicationId: string; body: unknown },
): Promise<Result<ApplicationView>> {
  const found = await findOwnApplication(ctx, options);
  if (!found.ok) return found;
  const app = found.value;
  // An erased application takes no personal data again, and every step may carry some (addresses, employer).
  if (app.personalDataErased) return fail('PERSONAL_DATA_ERASED', PERSONAL_DATA_ERASED_MESSAGE);
  const envelope = validateStepEnvelope(options.body);
  if (!envelope.ok) return envelope;
  const { step } = envelope.value;
  if (!app.steps[(step - 1) as 1 | 2 | 3]) {
    return fail('STEP_OUT_OF_ORDER', `step: step ${step} cannot be saved before step ${step - 1}`);
  }
  const valid = validateStepData(app.formType as FormType, step, envelope.value.data);
  if (!valid.ok) return valid;
  // The step, the status it moves and the status's event: one statement.
  const row = await changeReadApplication(ctx, app, {
    to: 'in_progress',
    lastStep: step,
    step: { number: step, data: valid.value },
  });
  return row ? ok(applicationView(ctx, row)) : fail('NOT_FOUND', 'Application not found');
}

export async function runCreditCheck(
  ctx: DomainContext,
  options: {
    partnerId: string;
    applicationId: string;
    /** The request body; also what identifies the request under its `Idempotency-Key`. */
    body: unknown;
    idempotencyKey: string | undefined;
    sandboxScore: string | undefined;
    operation?: string;
    /** Whether `Idempotency-Key` must be sent (default true: spec 4.3; Variant B's contract lists no such header). */
    requireIdempotencyKey?: boolean;
    /** Whether steps 1-4 must be saved first (default true: Variant A; Variant B matches on what is known). */
    requireSteps?: boolean;
    /**
     * Variant B: step 5 (validated) made from the details the application keeps (its intake) and the body,
     * and what the applicant row holds after the check. Default: the body's `data`, validated, kept as is.
     */
    applicant?: (kept: Json | null, app: ApplicationRow) => Result<ApplicantForCheck>;
  },
): Promise<Result<Replayable<CreditCheckView>>> {
  const keyCheck = checkIdempotencyKey(options.idempotencyKey, options.requireIdempotencyKey ?? true);
  if (!keyCheck.ok) return keyCheck;
  const scope = {
    partnerId: options.partnerId,
    key: options.idempotencyKey,
    request: {
      operation: options.operation ?? 'credit-check',
      target: options.applicationId,
      body: options.body,
      headers: { 'x-sandbox-score': options.sandboxScore },
    },
  };
  return withIdempotency<CreditCheckView>(ctx, scope, async (seal) => {
    const found = await findOwnApplication(ctx, options);
    if (!found.ok) return found;
    const app = found.value;
    const prepared = await applicantForCheck(ctx, app, options);
    if (!prepared.ok) return prepared;
    const sandboxScore = sandboxScoreFor(ctx, options.sandboxScore);
    if (!sandboxScore.ok) return sandboxScore;
    if ((options.requireSteps ?? true) && (!app.steps[2] || !app.steps[3] || !app.steps[4])) {
      const missing = [2, 3, 4].filter((n) => !app.steps[n as 2 | 3 | 4]);
      return fail(
        'STEPS_INCOMPLETE',
        `Steps 1-4 must be saved before the credit check; missing step ${missing.join(', ')}`,
      );
    }
    // Held before the claim exists: a concurrent request that sees our claim must find us alive.
    const release = ctx.instance.hold(checkClaimName(app.id));
    const claimed = await claimCheck(ctx, app.id).catch((err) => {
      release();
      throw err;
    });
    if (!claimed.ok) {
      release();
      return claimed;
    }
    try {
      let applicant = prepared.value;
      if (options.applicant) {
        // Variant B's intake may have changed since it was read (a PATCH commits; later ones wait for
        // this check): read it again once every write in flight has committed.
        const again = await applicantForCheck(ctx, app, options, true);
        if (!again.ok) {
          await ctx.repos.creditChecks.releaseCreditCheck(app.id, ctx.instance.id);
          return again;
        }
        applicant = again.value;
      }
      const answer = await ctx.bureau.requestScore({
        applicationId: app.id,
        applicant: applicant.details,
        sandboxScore: sandboxScore.value,
      });
      const view: CreditCheckView = {
        applicationId: app.id,
        creditCheckComplete: true,
        degraded_mode: !answer.available,
        sandbox_mode: ctx.bureau.sandbox,
      };
      // One statement: the details, the check, its consent record, the status and its event, the key.
      const written = await recordCreditCheck(ctx, app, {
        result: {
          scoreSealed: answer.available ? sealScore(ctx, app.id, answer.score) : null,
          band: answer.available ? bandOf(answer.score) : null,
          degradedMode: !answer.available,
          sandboxMode: ctx.bureau.sandbox,
          source: answer.source,
          at: ctx.clock(),
        },
        details: sealApplicantDetails(ctx, app.id, applicant.stored),
        consent: consentRecordFor(ctx, {
          applicationId: app.id,
          partnerId: options.partnerId,
          applicant: applicant.details,
        }),
        key: seal(view),
      });
      if (!written) throw new Error(`application ${app.id} was removed before its credit check completed`);
      ctx.metrics?.creditCheck(answer.available ? 'completed' : 'degraded');
      return ok(view);
    } catch (err) {
      ctx.metrics?.creditCheck('failed');
      await cleanUp(ctx.repos.creditChecks.releaseCreditCheck(app.id, ctx.instance.id));
      throw err;
    } finally {
      release();
    }
  });
}

/** Step 5 as the bureau gets it, and what the applicant row holds once the check has run. */
export interface ApplicantForCheck {
  details: Json;
  stored: Json;
}

/**
 * The check's step 5, refused for an application whose personal data was erased (it takes none again).
 * Variant A's step 5 is the body, so the application's own row says whether it was erased; Variant B's
 * is made from the intake the applicant row keeps. The statement that completes the check looks again.
 */
async function applicantForCheck(
  ctx: DomainContext,
  app: ApplicationRow,
  options: { body: unknown; applicant?: (kept: Json | null, app: ApplicationRow) => Result<ApplicantForCheck> },
  afterWriters = false,
): Promise<Result<ApplicantForCheck>> {
  if (!options.applicant) {
    if (app.personalDataErased) return fail('PERSONAL_DATA_ERASED', PERSONAL_DATA_ERASED_MESSAGE);
    const valid = validateApplicantDetails(options.body, ctx.clock());
    return valid.ok ? ok({ details: valid.value, stored: valid.value }) : valid;
  }
  const kept = await readApplicantDetails(ctx, app.id, { lock: afterWriters });
  if (kept.state === 'erased') return fail('PERSONAL_DATA_ERASED', PERSONAL_DATA_ERASED_MESSAGE);
  return options.applicant(kept.state === 'kept' ? kept.details : null, app);
}

function sandboxScoreFor(ctx: DomainContext, header: string | undefined) {
  if (header !== undefined && !ctx.bureau.sandbox) {
    const message = 'X-Sandbox-Score: is accepted only by the sandbox';
    return fail('VALIDATION_ERROR', message, [{ field: 'X-Sandbox-Score', rule: 'sandbox', message }]);
  }
  return parseSandboxScore(header);
}

/** One credit check per application: claim it, or say why not. */
async function claimCheck(ctx: DomainContext, applicationId: string): Promise<Result<void>> {
  const claim = await ctx.repos.creditChecks.claimCreditCheck(applicationId, ctx.instance.id);
  if (claim.claimed) return ok(undefined);
  if (claim.status === 'completed') {
    return fail(
      'CREDIT_CHECK_ALREADY_COMPLETED',
      'The credit check for this application has already completed; an application has one soft check',
    );
  }
  const owner = claim.ownerId ?? '';
  if (await ctx.instance.isAlive(owner, checkClaimName(applicationId))) {
    return fail('CREDIT_CHECK_IN_PROGRESS', 'A credit check for this application is running; retry shortly');
  }
  return (await ctx.repos.creditChecks.takeOverCreditCheck(applicationId, owner, ctx.instance.id))
    ? ok(undefined)
    : fail('CREDIT_CHECK_IN_PROGRESS', 'A credit check for this application is running; retry shortly');
}

function checkClaimName(applicationId: string): string {
  return `check:${applicationId}`;
}
