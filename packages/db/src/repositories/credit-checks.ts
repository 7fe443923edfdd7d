import { isUniqueViolation, type Json, type Queryable } from './types';

export type ClaimOutcome =
  | { claimed: true }
  | { claimed: false; status: 'running' | 'completed'; ownerId: string | null };

/**
 * Claims the one credit check an application may have: the row's primary key admits a single
 * claimant, so two concurrent requests can never both reach the bureau.
 */
export async function claimCreditCheck(db: Queryable, applicationId: string, ownerId: string): Promise<ClaimOutcome> {
  try {
    await db.creditCheck.create({ data: { applicationId, status: 'running', ownerId, degradedMode: false, sandboxMode: false, source: 'pending' } });
    return { claimed: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const row = await db.creditCheck.findUnique({ where: { applicationId }, select: { status: true, ownerId: true } });
  if (!row) return claimCreditCheck(db, applicationId, ownerId);
  return { claimed: false, status: row.status as 'running' | 'completed', ownerId: row.ownerId };
}

/** Takes over a running claim whose owner has died; true when this caller now holds it. */
export async function takeOverCreditCheck(db: Queryable, applicationId: string, deadOwnerId: string, ownerId: string): Promise<boolean> {
  const { count } = await db.creditCheck.updateMany({ where: { applicationId, status: 'running', ownerId: deadOwnerId }, data: { ownerId } });
  return count === 1;
}

export async function releaseCreditCheck(db: Queryable, applicationId: string, ownerId: string): Promise<void> {
  await db.creditCheck.deleteMany({ where: { applicationId, status: 'running', ownerId } });
}

export async function completeCreditCheck(
  db: Queryable,
  check: { applicationId: string; score: number | null; band: string | null; degradedMode: boolean; sandboxMode: boolean; source: string; at: Date },
  applicantDetails: Json,
): Promise<void> {
  const { applicationId, at, ...result } = check;
  await db.creditCheck.update({ where: { applicationId }, data: { ...result, status: 'completed', completedAt: at, ownerId: null } });
  await db.applicant.upsert({
    where: { applicationId },
    create: { applicationId, details: applicantDetails as object },
    update: { details: applicantDetails as object },
  });
}

/** For matching only: the score stays inside the service. */
export async function findCreditResult(db: Queryable, applicationId: string) {
  return db.creditCheck.findFirst({
    where: { applicationId, status: 'completed' },
    select: { score: true, band: true, degradedMode: true, sandboxMode: true, completedAt: true },
  });
}
