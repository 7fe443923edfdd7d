import { saveStep as writeStep } from '@loanmatch/db';
import type { DomainContext } from '../context';
import { fail, ok } from '../errors';
import { sealStep } from '../personal-data';
import { validateStepData, validateStepEnvelope, type FormType } from '../validation';
import { applicationView, findOwnApplication, type ApplicationRef } from './view';

/** `PATCH /applications/{id}`: saves step 2, 3 or 4, in order. */
export async function saveStep(ctx: DomainContext, options: ApplicationRef & { body: unknown }) {
  const found = await findOwnApplication(ctx, options);
  if (!found.ok) return found;
  const app = found.value;
  // An erased application takes no personal data again, and every step may carry some (addresses, employer).
  if (app.personalDataErased) return fail('PERSONAL_DATA_ERASED');
  const envelope = validateStepEnvelope(options.body);
  if (!envelope.ok) return envelope;
  const { step } = envelope.value;
  if (!app.steps[(step - 1) as 1 | 2 | 3]) {
    return fail('STEP_OUT_OF_ORDER', `step: step ${step} cannot be saved before step ${step - 1}`);
  }
  const valid = validateStepData(app.formType as FormType, step, envelope.value.data);
  if (!valid.ok) return valid;
  const row = await writeStep(ctx.db, {
    id: app.id,
    step,
    ...sealStep(ctx, app.id, step, valid.value),
    now: ctx.clock(),
  });
  // Nothing written: the personal data was erased since the application was read.
  if (!row) return fail('PERSONAL_DATA_ERASED');
  if (row.status !== app.status) ctx.webhooks.notify();
  return ok(applicationView(ctx, row));
}
