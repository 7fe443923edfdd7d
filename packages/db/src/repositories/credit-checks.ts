import { type Params, statement } from '../sql';
import { detailsCte, type SealedDetails } from './applicants';
import { consentRecordCte, type NewConsentRecord } from './consents';
import { completeKeyCte, type KeyCompletion } from './idempotency';
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
 * A completed check, as the statement that completes it writes it (`changeApplication`): the bureau's
 * result, step 5 (sealed) over the applicant row, the consent record the check relied on and, under an
 * idempotency key, the key completed with the answer. `scoreSealed`: the exact score, sealed by the
 * domain (null when the bureau gave none).
 */
export interface CheckCompletion {
  result: {
    scoreSealed: string | null;
    band: string | null;
    degradedMode: boolean;
    sandboxMode: boolean;
    source: string;
    at: Date;
  };
  details: SealedDetails;
  consent: NewConsentRecord;
  key?: KeyCompletion;
}

/** The check's writes, as CTEs of a larger statement: each made for the application `source` (an earlier CTE) yields, or none. */
export function completionCtes(p: Params, source: string, check: CheckCompletion): string {
  const { result } = check;
  const completed = `cc AS (
      UPDATE credit_checks c SET score_sealed = ${p.add(result.scoreSealed)}::text, band = ${p.add(result.band)}::text,
        degraded_mode = ${p.add(result.degradedMode)}::boolean, sandbox_mode = ${p.add(result.sandboxMode)}::boolean,
        source = ${p.add(result.source)}::text, status = 'completed', completed_at = ${p.add(result.at)}::timestamptz, owner_id = NULL
        FROM ${source} WHERE c.application_id = ${source}.id
    )`;
  return [
    detailsCte(p, source, check.details),
    completed,
    consentRecordCte(p, source, check.consent),
    ...(check.key ? [completeKeyCte(p, source, check.key)] : []),
  ].join(', ');
}

/** The condition, on the application's row, that its check is claimed and still to complete. */
export function checkRunningSql(applicationId: string): string {
  return `EXISTS (SELECT 1 FROM credit_checks WHERE application_id = ${applicationId}::uuid AND status = 'running')`;
}

/**
 * Erasure keeps the check's outcome (band, degraded or not, when) for reporting and matching, and
 * forgets the exact score the bureau gave for the person.
 */
export async function forgetScore(db: Db, applicationId: string): Promise<void> {
  await db.prisma.creditCheck.updateMany({ where: { applicationId }, data: { scoreSealed: null, scoreLegacy: null } });
}
