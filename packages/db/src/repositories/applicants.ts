import type { Json, Queryable } from './types';

/**
 * Variant B's intake: the applicant details a flat create carries (names, e-mail, phone, consent) and
 * its loan purpose, kept in the applicant row until the credit check writes the full step 5 over it.
 * The applicant row is never read by Variant A's GET.
 */
export async function insertIntake(db: Queryable, applicationId: string, details: Json): Promise<void> {
  await db.applicant.create({ data: { applicationId, details: details as object } });
}

/** The applicant details kept for an application (Variant B's intake, or step 5 after the check); null when none. */
export async function findApplicantDetails(db: Queryable, applicationId: string): Promise<Json | null> {
  const row = await db.applicant.findUnique({ where: { applicationId }, select: { details: true } });
  return row ? (row.details as Json) : null;
}
