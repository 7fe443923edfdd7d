import { randomUUID } from 'node:crypto';
import { insertApplication } from '@loanmatch/db';
import type { DomainContext } from '../context';
import { ok } from '../errors';
import { withIdempotency } from '../idempotency';
import { validateCreateRequest } from '../validation';
import { nonEmpty } from './view';
import type { Answer } from '../validation/responses';

export type CreatedApplication = Answer<'CreatedApplication'>;

export async function createApplication(
  ctx: DomainContext,
  options: { partnerId: string; body: unknown; idempotencyKey: string | undefined },
) {
  const request = { operation: 'create-application', body: options.body };
  return withIdempotency<CreatedApplication>(ctx, { ...options, required: false, request }, async (seal) => {
    const valid = validateCreateRequest(options.body);
    if (!valid.ok) return valid;
    const created: CreatedApplication = {
      applicationId: randomUUID(),
      formType: valid.value.formType,
      status: 'draft',
      lastStep: 1,
    };
    await insertApplication(ctx.db, {
      id: created.applicationId,
      partnerId: options.partnerId,
      formType: created.formType,
      step1: valid.value.data,
      clientTags: nonEmpty(valid.value.clientTags),
      now: ctx.clock(),
      key: seal(created),
    });
    ctx.webhooks.notify();
    return ok(created);
  });
}
