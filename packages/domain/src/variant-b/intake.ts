/**
 * A Variant B application's flat fields: step 5's and, under `knownSteps`, those of steps 2-4 not saved
 * yet, in the sealed applicant row. A step is saved as Variant A saves it once it validates whole.
 */
import type { ApplicationRow, Json } from '@loanmatch/db';
import type { DomainContext } from '../context';
import { ok } from '../errors';
import { readApplicantDetails } from '../personal-data';
import { FLAT_FIELDS_OF, schemaFor, validateStepData, type FormType } from '../validation';

type PartialStep = 2 | 3 | 4;
const PARTIAL_STEPS: readonly PartialStep[] = [2, 3, 4];
export type KnownSteps = Partial<Record<PartialStep, Record<string, unknown>>>;

const KNOWN_STEPS = 'knownSteps';

export interface Intake {
  applicant: Record<string, unknown>;
  knownSteps: KnownSteps;
}

export function readIntake(details: Json | null): Intake {
  const { [KNOWN_STEPS]: known, ...applicant } = (details ?? {}) as Record<string, unknown>;
  const knownSteps: KnownSteps = {};
  const stored = (typeof known === 'object' && known !== null ? known : {}) as Record<string, unknown>;
  for (const step of PARTIAL_STEPS) {
    const fields = stored[step];
    if (typeof fields === 'object' && fields !== null) knownSteps[step] = { ...(fields as Record<string, unknown>) };
  }
  return { applicant, knownSteps };
}

export function intakeJson(intake: Intake): Json {
  const known = Object.fromEntries(
    PARTIAL_STEPS.filter((s) => intake.knownSteps[s] !== undefined).map((s) => [String(s), intake.knownSteps[s]]),
  );
  return Object.keys(known).length > 0 ? { ...intake.applicant, [KNOWN_STEPS]: known } : { ...intake.applicant };
}

/** Validated flat fields (B's names) split by the step of `formType` they belong to, under their table names. */
export function splitFlatFields(
  fields: Record<string, unknown>,
  formType: FormType = 'personal',
): {
  steps: KnownSteps;
  applicant: Record<string, unknown>;
} {
  const places = FLAT_FIELDS_OF[formType];
  const steps: KnownSteps = {};
  const applicant: Record<string, unknown> = {};
  for (const [flat, value] of Object.entries(fields)) {
    const place = Object.hasOwn(places, flat) ? places[flat] : undefined;
    if (place === undefined || value === undefined) continue;
    if (place.step === 5) applicant[place.name] = value;
    else steps[place.step] = { ...steps[place.step], [place.name]: value };
  }
  return { steps, applicant };
}

/**
 * Lays `given` over what the application holds of each of steps 2-4 and decides what is saved (valid, and
 * the step before it saved) and what stays known (only required fields missing); another fault is answered.
 */
export function planSteps(
  formType: FormType,
  saved: ApplicationRow['steps'],
  knownSteps: KnownSteps,
  given: KnownSteps,
) {
  const plan = { save: [] as Array<{ number: PartialStep; data: Json }>, knownSteps: {} as KnownSteps };
  let previousSaved = saved[1] !== undefined;
  for (const step of PARTIAL_STEPS) {
    const current = saved[step] ?? knownSteps[step];
    const merged = given[step] === undefined ? current : { ...current, ...given[step] };
    if (saved[step] !== undefined && given[step] === undefined) {
      previousSaved = true;
      continue;
    }
    if (merged === undefined) {
      previousSaved = false;
      continue;
    }
    const valid = validateStepData(formType, step, merged);
    if (valid.ok && previousSaved) {
      plan.save.push({ number: step, data: valid.value as Json });
      continue;
    }
    if (!valid.ok && !valid.error.details?.every((v) => v.rule === 'required')) return valid;
    plan.knownSteps[step] = merged;
    previousSaved = false;
  }
  return ok(plan);
}

/** The required fields of steps 2-4 the application does not tell yet, by its loan type's tables. */
export function missingFields(formType: FormType, saved: ApplicationRow['steps'], knownSteps: KnownSteps): string[] {
  const missing: string[] = [];
  for (const step of PARTIAL_STEPS) {
    if (saved[step] !== undefined) continue; // saved whole, so valid (its sealed fields are kept apart)
    const fields = knownSteps[step] ?? {};
    for (const name of schemaFor(formType, step).required ?? []) if (fields[name] === undefined) missing.push(name);
  }
  return missing;
}

/** The steps matching reads: the saved ones and, for a step not saved, its known fields. */
export async function stepsForMatching(ctx: DomainContext, app: ApplicationRow) {
  const steps = { 1: app.steps[1], 2: app.steps[2], 3: app.steps[3], 4: app.steps[4] };
  if (PARTIAL_STEPS.every((s) => steps[s] !== undefined)) return steps;
  const kept = await readApplicantDetails(ctx, app.id);
  const { knownSteps } = readIntake(kept.state === 'kept' ? kept.details : null);
  for (const step of PARTIAL_STEPS) steps[step] ??= knownSteps[step] as Json | undefined;
  return steps;
}
