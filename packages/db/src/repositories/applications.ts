import { Prisma } from '../generated/client';
import type { Json, Queryable } from './types';

export type StepNumber = 1 | 2 | 3 | 4;

export interface CreditCheckSummary {
  status: 'running' | 'completed';
  degradedMode: boolean;
  sandboxMode: boolean;
  completedAt: Date | null;
}

/** An application as the domain sees it: never the applicant's details, never the score. */
export interface ApplicationRow {
  id: string;
  partnerId: string;
  formType: string;
  status: string;
  lastStep: number;
  steps: Partial<Record<StepNumber, Json>>;
  createdAt: Date;
  updatedAt: Date;
  creditCheck: CreditCheckSummary | null;
}

type Raw = {
  id: string;
  partnerId: string;
  formType: string;
  status: string;
  lastStep: number;
  step1: unknown;
  step2: unknown;
  step3: unknown;
  step4: unknown;
  createdAt: Date;
  updatedAt: Date;
  creditCheck: { status: string; degradedMode: boolean; sandboxMode: boolean; completedAt: Date | null } | null;
};

function toRow(raw: Raw): ApplicationRow {
  const steps: Partial<Record<StepNumber, Json>> = { 1: raw.step1 as Json };
  if (raw.step2) steps[2] = raw.step2 as Json;
  if (raw.step3) steps[3] = raw.step3 as Json;
  if (raw.step4) steps[4] = raw.step4 as Json;
  const { step1: _1, step2: _2, step3: _3, step4: _4, creditCheck, ...rest } = raw;
  return { ...rest, steps, creditCheck: creditCheck as CreditCheckSummary | null };
}

export async function insertApplication(
  db: Queryable,
  app: { id: string; partnerId: string; formType: string; status: string; step1: Json; securityTokenHash?: string },
): Promise<ApplicationRow> {
  // A new application has no credit check: one INSERT … RETURNING, not a transaction of three queries.
  const raw = await db.application.create({ data: { ...app, lastStep: 1, step1: app.step1 as object }, omit: { securityTokenHash: true } });
  return toRow({ ...raw, creditCheck: null });
}

/** The partner's application, or null for another partner's or an unknown id (callers cannot tell which). */
export async function findApplication(db: Queryable, id: string, partnerId: string): Promise<ApplicationRow | null> {
  const rows = await db.$queryRaw<JoinedRow[]>`
    SELECT ${APPLICATION_COLUMNS} FROM applications a LEFT JOIN credit_checks c ON c.application_id = a.id
    WHERE a.id = ${id}::uuid AND a.partner_id = ${partnerId}::uuid`;
  return rows[0] ? fromJoined(rows[0]) : null;
}

export async function updateStep(
  db: Queryable,
  id: string,
  change: { step: 2 | 3 | 4; data: Json; status: string; lastStep: number },
): Promise<ApplicationRow> {
  // One statement (the update and the credit check read with it) where Prisma's `include` makes a
  // transaction of four. The step's column comes from a fixed list, never from the caller's text.
  const column = Prisma.raw(STEP_COLUMNS[change.step]);
  const rows = await db.$queryRaw<JoinedRow[]>`
    WITH a AS (
      UPDATE applications SET ${column} = ${JSON.stringify(change.data)}::jsonb, status = ${change.status},
        last_step = ${change.lastStep}, updated_at = ${new Date()}
      WHERE id = ${id}::uuid RETURNING *
    )
    SELECT ${APPLICATION_COLUMNS} FROM a LEFT JOIN credit_checks c ON c.application_id = a.id`;
  if (!rows[0]) throw new Error(`application ${id} not found for update`);
  return fromJoined(rows[0]);
}

const STEP_COLUMNS = { 2: 'step_2', 3: 'step_3', 4: 'step_4' } as const;

/** The application and its credit check's summary, read in one statement (`a` and `c`). */
const APPLICATION_COLUMNS = Prisma.raw(
  `a.id::text AS id, a.partner_id::text AS partner_id, a.form_type, a.status, a.last_step, a.step_1, a.step_2, a.step_3, a.step_4,
   a.created_at, a.updated_at, c.status AS check_status, c.degraded_mode, c.sandbox_mode, c.completed_at`,
);

interface JoinedRow {
  id: string;
  partner_id: string;
  form_type: string;
  status: string;
  last_step: number;
  step_1: unknown;
  step_2: unknown;
  step_3: unknown;
  step_4: unknown;
  created_at: Date;
  updated_at: Date;
  check_status: string | null;
  degraded_mode: boolean | null;
  sandbox_mode: boolean | null;
  completed_at: Date | null;
}

function fromJoined(r: JoinedRow): ApplicationRow {
  return toRow({
    id: r.id,
    partnerId: r.partner_id,
    formType: r.form_type,
    status: r.status,
    lastStep: Number(r.last_step),
    step1: r.step_1,
    step2: r.step_2,
    step3: r.step_3,
    step4: r.step_4,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    creditCheck:
      r.check_status === null
        ? null
        : { status: r.check_status, degradedMode: Boolean(r.degraded_mode), sandboxMode: Boolean(r.sandbox_mode), completedAt: r.completed_at },
  });
}

/**
 * Locks the application's row until the transaction ends and answers what a status change needs of it,
 * or null when there is no such application. Concurrent changes of one application thus run one after
 * the other, each seeing the status the previous one left. `FOR NO KEY UPDATE`, the lock an UPDATE takes:
 * it does not conflict with the key-share locks that inserting a match run or a referral takes on the
 * same row earlier in the transaction, so two such transactions cannot deadlock over the upgrade.
 */
export async function lockApplication(db: Queryable, id: string): Promise<{ partnerId: string; status: string; lastStep: number } | null> {
  const rows = await db.$queryRaw<Array<{ partner_id: string; status: string; last_step: number }>>`
    SELECT partner_id, status, last_step FROM applications WHERE id = ${id}::uuid FOR NO KEY UPDATE`;
  return rows[0] ? { partnerId: rows[0].partner_id, status: rows[0].status, lastStep: Number(rows[0].last_step) } : null;
}

export async function updateStatus(db: Queryable, id: string, change: { status: string; lastStep: number }): Promise<void> {
  await db.application.update({ where: { id }, data: change });
}

/** Variant B: the digest of the application's security token, for the partner's own application only. */
export async function findSecurityTokenHash(db: Queryable, id: string, partnerId: string): Promise<string | null | undefined> {
  const row = await db.application.findFirst({ where: { id, partnerId }, select: { securityTokenHash: true } });
  return row === null ? undefined : row.securityTokenHash;
}
