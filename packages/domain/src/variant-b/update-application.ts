import { findApplication, saveStep, writeDetails, type ApplicationRow } from '@loanmatch/db';
import type { ApplicationRef } from '../applications/view';
import { layOverConsents } from '../consents';
import type { DomainContext } from '../context';
import { fail, ok } from '../errors';
import { canonicalUuid } from '../ids';
import { openSteps, readApplicantDetails, sealApplicantDetails, sealStep } from '../personal-data';
import { FLAT_FIELDS_OF, validateVariantBPatch, type FormType } from '../validation';
import { intakeJson, missingFields, planSteps, readIntake, splitFlatFields } from './intake';
import { verifySecurityToken } from './security-token';
import type { ApplicationStatus } from '../status';

/**
 * `PATCH /v1/applications/{id}`: adds or replaces flat fields of steps 2-5, in one transaction. Steps that
 * become complete are saved as Variant A saves them; step 5's fields may not change after the check.
 */
export async function updateApplicationB(ctx: DomainContext, options: ApplicationRef & { body: unknown }) {
  const verified = await verifySecurityToken(ctx, options);
  if (!verified.ok) return verified;
  const id = canonicalUuid(options.applicationId)!;
  return ctx.db.transaction(async (tx) => {
    // The intake, then the application: the order a credit check writes them in, so the two cannot deadlock.
    const kept = await readApplicantDetails(ctx, id, { db: tx, lock: true });
    const app = await findApplication(tx, id, options.partnerId, true);
    if (!app) return fail('NOT_FOUND', 'Application not found');
    // The flat fields of the application's own loan type: a car or home one carried over from Variant A.
    const formType = app.formType as FormType;
    const valid = validateVariantBPatch(options.body, ctx.clock(), formType);
    if (!valid.ok) return valid;
    const given = splitFlatFields(valid.value, formType);
    if (kept.state === 'erased' || app.personalDataErased) return fail('PERSONAL_DATA_ERASED');
    const check = app.creditCheck?.status;
    if (check === 'running') return fail('CREDIT_CHECK_IN_PROGRESS');
    const places = FLAT_FIELDS_OF[formType];
    const changedApplicant = Object.keys(valid.value).filter((field) => places[field]?.step === 5);
    if (check === 'completed' && changedApplicant.length > 0) {
      const message = `${changedApplicant[0]}: the applicant's details cannot change after the credit check, which ran on them`;
      return fail('CREDIT_CHECK_ALREADY_COMPLETED', message);
    }
    const intake = readIntake(kept.state === 'kept' ? kept.details : null);
    // A saved step that gets fields is saved again whole: its personal fields opened, those of other steps not.
    const saved = openSteps(ctx, app, Object.keys(given.steps).map(Number));
    const plan = planSteps(formType, saved, intake.knownSteps, given.steps);
    if (!plan.ok) return plan;
    const next = intakeJson({
      applicant: layOverConsents(intake.applicant, given.applicant),
      knownSteps: plan.value.knownSteps,
    });
    if (JSON.stringify(next) !== JSON.stringify(intakeJson(intake)))
      await writeDetails(tx, id, sealApplicantDetails(ctx, id, next));
    let row: ApplicationRow = app;
    for (const step of plan.value.save)
      row =
        (await saveStep(tx, {
          id,
          step: step.number,
          ...sealStep(ctx, id, step.number, step.data),
          now: ctx.clock(),
        })) ?? row;
    if (row.status !== app.status) ctx.webhooks.notify();
    return ok({
      applicationId: row.id,
      status: row.status as ApplicationStatus,
      lastStep: row.lastStep,
      creditCheckComplete: row.creditCheck?.status === 'completed',
      missingFields: missingFields(formType, row.steps, plan.value.knownSteps),
    });
  });
}
