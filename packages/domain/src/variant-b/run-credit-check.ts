import type { ApplicationRow, Json } from '@loanmatch/db';
import { type ApplicantForCheck, runClaimedCheck, sandboxScoreFor } from '../applications/credit-check';
import { creditCheckFingerprint, type CreditCheckRequest } from '../applications/run-credit-check';
import { findOwnApplication, type CreditCheckView } from '../applications/view';
import { layOverConsents } from '../consents';
import type { DomainContext } from '../context';
import { type DomainError, fail, ok, violation, type Result } from '../errors';
import { withIdempotency } from '../idempotency';
import { readApplicantDetails } from '../personal-data';
import { flatNameOf, validateApplicantDetailsB } from '../validation';
import { intakeJson, readIntake, type KnownSteps } from './intake';
import { verifySecurityToken } from './security-token';

/** Step 5's identity, fixed at create: credit-check bodies do not change it. */
const IDENTITY_FIELDS: readonly string[] = ['firstName', 'lastName', 'email', 'mobileNumber'];
const UNSAFE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * `POST /v1/applications/{id}/credit-check`: step 5 is what create and PATCH gave, with the body's other
 * step-5 fields laid over it. No steps 2-4 are needed: matching offers on what is known.
 */
export async function runCreditCheckB(ctx: DomainContext, options: CreditCheckRequest) {
  const verified = await verifySecurityToken(ctx, options);
  if (!verified.ok) return verified;
  // What identifies the request under its key: the body without the token, which never enters a fingerprint.
  const { securityToken: _token, ...fields } = options.body as Record<string, unknown>;
  const bodyStep5: Json = {};
  for (const [key, value] of Object.entries(fields))
    if (!IDENTITY_FIELDS.includes(key) && !UNSAFE_KEYS.includes(key)) bodyStep5[key] = value;
  const request = creditCheckFingerprint('b.credit-check', options, fields);
  return withIdempotency<CreditCheckView>(ctx, { ...options, required: false, request }, async (seal) => {
    const found = await findOwnApplication(ctx, options);
    if (!found.ok) return found;
    const app = found.value;
    const first = await applicantForCheck(ctx, app, bodyStep5);
    if (!first.ok) return first;
    const sandboxScore = sandboxScoreFor(ctx, options.sandboxScore);
    if (!sandboxScore.ok) return sandboxScore;
    return runClaimedCheck(ctx, {
      app,
      partnerId: options.partnerId,
      // The intake may have changed since it was read (a PATCH commits; later ones wait for this check):
      // read again once every write in flight has committed.
      applicant: () => applicantForCheck(ctx, app, bodyStep5, true),
      sandboxScore: sandboxScore.value,
      seal,
    });
  });
}

/** Step 5 from the intake and the body, checked, and the row that keeps it with the known steps. */
async function applicantForCheck(
  ctx: DomainContext,
  app: ApplicationRow,
  bodyStep5: Json,
  afterWriters = false,
): Promise<Result<ApplicantForCheck>> {
  const kept = await readApplicantDetails(ctx, app.id, { lock: afterWriters });
  if (kept.state === 'erased') return fail('PERSONAL_DATA_ERASED');
  const intake = readIntake(kept.state === 'kept' ? kept.details : null);
  const details = validateApplicantDetailsB(layOverConsents(intake.applicant, bodyStep5), ctx.clock());
  if (!details.ok) return inFlatNames(details.error);
  const knownSteps: KnownSteps = {};
  for (const step of [2, 3, 4] as const)
    if (app.steps[step] === undefined && intake.knownSteps[step]) knownSteps[step] = intake.knownSteps[step];
  return ok({ details: details.value as Json, stored: intakeJson({ applicant: details.value, knownSteps }) });
}

/** A refusal of step 5 in B's names (an application made on A may lack its `mobileNumber`: B's `phone`). */
function inFlatNames({ code, message, details }: DomainError) {
  const renamed = details?.map((v) => violation(flatNameOf(v.field), v.rule, v.message.slice(v.field.length + 2)));
  return fail(code, renamed?.[0]?.message ?? message, renamed);
}
