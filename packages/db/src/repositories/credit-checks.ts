import { writeDetails, type SealedDetails } from './applicants';
import { statement } from '../sql';
import type { Db } from './types';

export type ClaimOutcome =
  | { claimed: true }
  | { claimed: false; status: 'running' | 'completed'; ownerId: string | null };

/**
 * Claims the one credit check an application may have: the row's primary key admits a single
 * claimant, so two concurrent requests can never both reach the bureau.
 */
export async function claimCreditCheck(db: Db, applicationId: string, ownerId: string): Promise<ClaimOutcome> {
  if ((await db.rows(CLAIM_CREDIT_CHECK, [applicationId, ownerId])).length === 1) return { claimed: true };
  const row = await db.prisma.creditCheck.findUnique({
    where: { applicationId },
    select: { status: true, ownerId: true },
  });
  if (!row) return claimCreditCheck(db, applicationId, ownerId);
  return { claimed: false, status: row.status as 'running' | 'completed', ownerId: row.ownerId };
}

const CLAIM_CREDIT_CHECK = statement(
  'claim_credit_check',
  `INSERT INTO credit_checks (application_id, status, owner_id, degraded_mode, sandbox_mode, source)
   VALUES ($1::uuid, 'running', $2::uuid, false, false, 'pending') ON CONFLICT (application_id) DO NOTHING RETURNING 1`,
);

/** Takes over a running claim whose owner has died; true when this caller now holds it. */
export async function takeOverCreditCheck(
  db: Db,
  applicationId: string,
  deadOwnerId: string,
  ownerId: string,
): Promise<boolean> {
  const { count } = await db.prisma.creditCheck.updateMany({
    where: { applicationId, status: 'running', ownerId: deadOwnerId },
    data: { ownerId },
  });
  return count === 1;
}

export async function releaseCreditCheck(db: Db, applicationId: string, ownerId: string): Promise<void> {
  await db.prisma.creditCheck.deleteMany({ where: { applicationId, status: 'running', ownerId } });
}

/**
 * Records the check's result and writes step 5 (sealed) over the applicant row. False, with nothing
 * written, when the applicant's personal data was erased meanwhile: the caller must roll back.
 * `scoreSealed`: the exact score, sealed by the domain (null when the bureau gave none).
 */
export async function completeCreditCheck(
  db: Db,
  check: {
    applicationId: string;
    scoreSealed: string | null;
    band: string | null;
    degradedMode: boolean;
    sandboxMode: boolean;
    source: string;
    at: Date;
  },
  applicantDetails: SealedDetails,
): Promise<boolean> {
  const { applicationId, at, ...result } = check;
  if (!(await writeDetails(db, applicationId, applicantDetails))) return false;
  const { scoreSealed, band, degradedMode, sandboxMode, source } = result;
  const completed = await db.rows(COMPLETE_CREDIT_CHECK, [
    applicationId,
    scoreSealed,
    band,
    degradedMode,
    sandboxMode,
    source,
    at,
  ]);
  if (completed.length !== 1) throw new Error(`credit check of ${applicationId} to complete was not found`);
  return true;
}

const COMPLETE_CREDIT_CHECK = statement(
  'complete_credit_check',
  `UPDATE credit_checks SET score_sealed = $2::text, band = $3::text, degraded_mode = $4::boolean, sandbox_mode = $5::boolean, source = $6::text,
          status = 'completed', completed_at = $7::timestamptz, owner_id = NULL
    WHERE application_id = $1::uuid RETURNING 1`,
);

/**
 * Erasure keeps the check's outcome (band, degraded or not, when) for reporting and matching, and
 * forgets the exact score the bureau gave for the person.
 */
export async function forgetScore(db: Db, applicationId: string): Promise<void> {
  await db.prisma.creditCheck.updateMany({ where: { applicationId }, data: { scoreSealed: null, scoreLegacy: null } });
}
