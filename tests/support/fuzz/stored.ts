/** What the database must hold after fuzzing, and a snapshot to show that a refused request changed nothing. */
import type { Database } from '@loanmatch/db';
import {
  FLAT_FIELDS,
  FORM_TYPES,
  PERSONAL_STEP_FIELDS,
  STATUS_ORDER,
  openSteps,
  readApplicantDetails,
  readIntake,
  validateApplicantDetails,
  validateApplicantDetailsB,
  validateStepData,
  validateVariantBCreate,
  validateVariantBPatch,
  type DomainContext,
  type FormType,
  type Intake,
} from '@loanmatch/domain';
import { countRows, storedRow, storedRows } from '../rows';
import { PROTOTYPE_KEYS, findKey } from './answers';

const isPrototypeKey = (key: string) => (PROTOTYPE_KEYS as readonly string[]).includes(key);

/** The intake in Variant B's flat names again (`mobileNumber` as `phone`): what create and PATCH would have to be sent to hold it. */
function flatFieldsOf(intake: Intake): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [name, place] of Object.entries(FLAT_FIELDS)) {
    const source = place.step === 5 ? intake.applicant : intake.knownSteps[place.step];
    if (source !== undefined && Object.hasOwn(source, place.name)) flat[name] = source[place.name];
  }
  return flat;
}

/**
 * A snapshot of everything a request could change about one application: its row, its check, how many
 * match runs, referrals and applicant rows it has. Two equal snapshots: the request changed nothing.
 */
export async function applicationSnapshot(db: Database, applicationId: string): Promise<string> {
  const row = await storedRow(db, 'applications', { id: applicationId });
  return JSON.stringify(
    row && { ...(await withRelations(db, row)), applicant: await storedRow(db, 'applicants', { applicationId }) },
  );
}

/** An application's row with its credit check and how many match runs and referrals it has. */
async function withRelations(db: Database, app: any) {
  const applicationId = app.id;
  return {
    ...app,
    creditCheck: await storedRow(db, 'credit_checks', { applicationId }),
    _count: {
      matchRuns: await countRows(db, 'match_runs', { applicationId }),
      referrals: await countRows(db, 'referrals', { applicationId }),
    },
  };
}

/**
 * Every application of these partners, read back from the database, obeys the domain's rules: each
 * stored step validates as it stands, its personal fields opened again (and is already in normalised
 * form; none of those fields in clear), steps 1..lastStep are there
 * (after Variant B's check, which needs no steps 2-4, a prefix of them) and no later ones, the status is legal and matches what exists (a completed check from
 * `credit_checked` on, a match run from `matched`, a referral at `referred`), applicant details
 * validate, no JSON holds a prototype key, and nothing is left half-done (a running check, a key in
 * progress). Answers the list of problems, empty when all is well.
 */
export async function storedProblems(
  t: { ctx: DomainContext; db: Database },
  partnerIds: readonly string[],
): Promise<string[]> {
  const { ctx, db } = t;
  const problems: string[] = [];
  const rows = (await Promise.all(partnerIds.map((partnerId) => storedRows(db, 'applications', { partnerId })))).flat();
  for (const app of await Promise.all(rows.map((row) => withRelations(db, row)))) {
    const at = (what: string) =>
      problems.push(`application ${app.id} (${app.formType}, ${app.status}, last step ${app.lastStep}): ${what}`);
    if (!(FORM_TYPES as readonly string[]).includes(app.formType)) {
      at('unknown form type');
      continue;
    }
    const formType = app.formType as FormType;
    if (!Number.isInteger(app.lastStep) || app.lastStep < 1 || app.lastStep > 5) at('last step out of range');

    const clear = [app.step1, app.step2, app.step3, app.step4] as Array<Record<string, unknown> | null>;
    const sealedSteps = {
      2: app.step2Sealed ?? undefined,
      3: app.step3Sealed ?? undefined,
      4: app.step4Sealed ?? undefined,
    };
    clear.forEach((stored, index) => {
      if (stored && PERSONAL_STEP_FIELDS.some((name) => Object.hasOwn(stored, name)))
        at(`step ${index + 1} holds a personal field in clear`);
      if (!stored && sealedSteps[(index + 1) as 2 | 3 | 4]) at(`step ${index + 1} sealed without the step`);
    });
    const opened = openSteps(ctx, {
      id: app.id,
      steps: Object.fromEntries(clear.flatMap((stored, index) => (stored ? [[index + 1, stored]] : []))),
      sealedSteps,
    });
    const steps = [1, 2, 3, 4].map((n) => opened[n as 1 | 2 | 3 | 4]) as unknown[];
    // Variant B's check needs no steps 2-4: once it has run (last step 5), a B application's saved steps
    // are any prefix 1..k. Every other application holds steps 1..lastStep, and steps are never saved out of order.
    const checkedWithoutSteps = app.securityTokenHash !== null && app.lastStep === 5;
    steps.forEach((stored, index) => {
      const step = (index + 1) as 1 | 2 | 3 | 4;
      const expected = step <= Math.min(app.lastStep, 4);
      if (stored === null || stored === undefined) {
        if (expected && !checkedWithoutSteps) at(`step ${step} missing`);
        return;
      }
      if (step > 1 && (steps[index - 1] === null || steps[index - 1] === undefined))
        at(`step ${step} stored without step ${step - 1}`);
      if (!expected) at(`step ${step} stored beyond the last step`);
      const valid = validateStepData(formType, step, stored);
      if (!valid.ok) at(`step ${step} does not validate: ${valid.error.message}`);
      else if (JSON.stringify(sortKeys(valid.value)) !== JSON.stringify(sortKeys(stored)))
        at(`step ${step} is not in normalised form`);
      if (findKey(stored, isPrototypeKey)) at(`step ${step} holds a prototype key`);
    });

    const statusIndex = STATUS_ORDER.indexOf(app.status as (typeof STATUS_ORDER)[number]);
    const checked = app.creditCheck?.status === 'completed';
    if (app.creditCheck && app.creditCheck.status !== 'completed') at(`credit check left ${app.creditCheck.status}`);
    if (statusIndex >= STATUS_ORDER.indexOf('credit_checked') && (!checked || app.lastStep !== 5))
      at('checked status without a completed check at step 5');
    if (statusIndex < STATUS_ORDER.indexOf('credit_checked') && checked)
      at('a completed check under an earlier status');
    if (app.status === 'draft' && app.lastStep !== 1) at('draft beyond step 1');
    if (app.status === 'in_progress' && (app.lastStep < 2 || app.lastStep > 4)) at('in_progress outside steps 2-4');
    if (statusIndex >= STATUS_ORDER.indexOf('matched') && app._count.matchRuns === 0) at('matched without a match run');
    if (app.status === 'referred' && app._count.referrals === 0) at('referred without a referral');

    const applicant = await readApplicantDetails(ctx, app.id);
    const variantB = app.securityTokenHash !== null;
    if (applicant.state === 'kept') {
      const details = applicant.details as Record<string, unknown>;
      if (findKey(details, isPrototypeKey)) at('applicant details hold a prototype key');
      const intake = readIntake(details);
      if (checked) {
        // Variant B's check takes step 5 without a date of birth; otherwise as Variant A's.
        const valid = variantB
          ? validateApplicantDetailsB(intake.applicant, new Date())
          : validateApplicantDetails({ data: details });
        if (!valid.ok) at(`applicant details do not validate: ${valid.error.message}`);
      }
      if (variantB) {
        // Variant B's intake: the flat fields it came from must validate again (create's before the check, PATCH's after).
        const flat = flatFieldsOf(intake);
        const step2 = (app.step2 ?? {}) as Record<string, unknown>;
        const again = checked
          ? validateVariantBPatch({
              securityToken: 'st_',
              ...Object.fromEntries(Object.entries(flat).filter(([name]) => FLAT_FIELDS[name].step !== 5)),
            })
          : validateVariantBCreate({
              formType,
              loanAmount: (app.step1 as Record<string, unknown>).loanAmount,
              loanPurpose: step2.loanPurpose,
              ...flat,
            });
        if (!again.ok) at(`applicant intake does not validate: ${again.error.message}`);
      }
    } else if (checked && applicant.state === 'none') {
      at('a completed check without applicant details');
    }
    if (app.securityTokenHash !== null && applicant.state === 'none') at('a Variant B application without its intake');
  }
  let stuck = 0;
  for (const partnerId of partnerIds)
    stuck += await countRows(db, 'idempotency_keys', { partnerId, state: 'in_progress' });
  if (stuck > 0) problems.push(`${stuck} idempotency keys left in progress`);
  return problems;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
