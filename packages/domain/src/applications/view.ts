/** What partners see of an application, and finding one: never step 5, never a score. */
import { findApplication, type ApplicationRow, type Json } from '@loanmatch/db';
import type { DomainContext } from '../context';
import { fail, ok } from '../errors';
import { canonicalUuid } from '../ids';
import { openSteps } from '../personal-data';
import type { Answer } from '../validation/responses';

export type CreditCheckView = Answer<'CreditCheckResult'>;
/** The application a request names, and the partner asking: another partner's is NOT_FOUND, as an unknown one. */
export type ApplicationRef = { partnerId: string; applicationId: string };

export function applicationView(ctx: DomainContext, row: ApplicationRow) {
  const steps: Record<string, Json> = openSteps(ctx, row);
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

export async function findOwnApplication(ctx: DomainContext, options: ApplicationRef) {
  const id = canonicalUuid(options.applicationId);
  const row = id ? await findApplication(ctx.db, id, options.partnerId) : null;
  return row ? ok(row) : fail('NOT_FOUND', 'Application not found');
}

export async function getApplication(ctx: DomainContext, options: ApplicationRef) {
  const found = await findOwnApplication(ctx, options);
  return found.ok ? ok(applicationView(ctx, found.value)) : found;
}

export function nonEmpty(tags: Record<string, string> | undefined): Record<string, string> | undefined {
  return tags && Object.keys(tags).length > 0 ? tags : undefined;
}

/** The listed fields of `source` that hold a value, in the list's order. */
export function pick(source: Record<string, unknown>, fields: readonly string[]): Json {
  const picked: Json = {};
  for (const field of fields)
    if (Object.hasOwn(source, field) && source[field] !== undefined) picked[field] = source[field];
  return picked;
}
