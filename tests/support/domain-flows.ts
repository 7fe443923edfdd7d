/** Steps of an application taken through the domain itself, as the front-ends would take them. */
import { createApplication, saveStep, type DomainContext } from '@loanmatch/domain';
import { VALID_STEPS } from './fixtures';

/** A personal application of `partnerId` with steps 1-4 saved (Variant A, no idempotency key); answers its id. */
export async function personalThroughStep4(ctx: DomainContext, partnerId: string): Promise<string> {
  const created = await createApplication(ctx, {
    partnerId,
    body: { formType: 'personal', data: VALID_STEPS.personal[1] },
    idempotencyKey: undefined,
  });
  if (!created.ok) throw created.error;
  const applicationId = created.value.value.applicationId;
  for (const step of [2, 3, 4] as const) {
    const saved = await saveStep(ctx, { partnerId, applicationId, body: { step, data: VALID_STEPS.personal[step] } });
    if (!saved.ok) throw saved.error;
  }
  return applicationId;
}
