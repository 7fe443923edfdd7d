import { batchedRead, batchedRows, sqlOf, statement } from '../sql';
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
  /** The applicant's personal data was erased: the application takes none again (no step is saved). */
  personalDataErased: boolean;
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
  personalDataErased: boolean;
};

function toRow(raw: Raw): ApplicationRow {
  const steps: Partial<Record<StepNumber, Json>> = { 1: raw.step1 as Json };
  if (raw.step2) steps[2] = raw.step2 as Json;
  if (raw.step3) steps[3] = raw.step3 as Json;
  if (raw.step4) steps[4] = raw.step4 as Json;
  // Each field named: every row has exactly these, in this order (one shape for V8), and nothing else a
  // caller's object carried comes along.
  return {
    id: raw.id,
    partnerId: raw.partnerId,
    formType: raw.formType,
    status: raw.status,
    lastStep: raw.lastStep,
    steps,
    createdAt: raw.createdAt,
    updatedAt: raw.updatedAt,
    creditCheck: raw.creditCheck as CreditCheckSummary | null,
    personalDataErased: raw.personalDataErased,
  };
}

export async function insertApplication(
  db: Queryable,
  app: { id: string; partnerId: string; formType: string; status: string; step1: Json; securityTokenHash?: string },
): Promise<ApplicationRow> {
  // A new application has no credit check: one INSERT … RETURNING, not a transaction of three queries.
  const raw = await db.application.create({ data: { ...app, lastStep: 1, step1: app.step1 as object }, omit: { securityTokenHash: true, personalDataErasedAt: true } });
  return toRow({ ...raw, creditCheck: null, personalDataErased: false });
}

/** The partner's application, or null for another partner's or an unknown id (callers cannot tell which). */
export async function findApplication(db: Queryable, id: string, partnerId: string): Promise<ApplicationRow | null> {
  const rows = await batchedRows<JoinedRow>(db, FIND_APPLICATION, [id, partnerId]);
  return rows[0] ? fromJoined(rows[0]) : null;
}

/**
 * For matching only: the partner's application, once its credit check has completed what matching reads
 * of the result (the band, never the score, and whether it was degraded), and the digest of its Variant B
 * security token, which a Variant B match checks first; one statement.
 */
export async function findApplicationForMatch(
  db: Queryable,
  id: string,
  partnerId: string,
): Promise<{ row: ApplicationRow; credit: { band: string | null; degradedMode: boolean } | null; securityTokenHash: string | null } | null> {
  const rows = await batchedRows<JoinedRow & { band: string | null; security_token_hash: string | null }>(db, FIND_APPLICATION_FOR_MATCH, [id, partnerId]);
  const r = rows[0];
  if (!r) return null;
  return {
    row: fromJoined(r),
    credit: r.check_status === 'completed' ? { band: r.band, degradedMode: Boolean(r.degraded_mode) } : null,
    securityTokenHash: r.security_token_hash,
  };
}

/** The application and its credit check's summary, read in one statement (`a` and `c`). */
export const APPLICATION_COLUMNS_SQL = `a.id::text AS id, a.partner_id::text AS partner_id, a.form_type, a.status, a.last_step,
   a.step_1, a.step_2, a.step_3, a.step_4, a.created_at, a.updated_at, a.personal_data_erased_at IS NOT NULL AS personal_data_erased,
   c.status AS check_status, c.degraded_mode, c.sandbox_mode, c.completed_at`;

/**
 * The partner's application by its id: found by the primary key, then compared with the partner. The
 * comparison is written `(…) IS TRUE` so that no plan can look the row up through the partner's index
 * instead: PostgreSQL's generic plan of a prepared statement, made while the table was nearly empty, did
 * exactly that and then read every application of the partner on each call (tested in
 * packages/domain/test/generic-plans.test.ts).
 */
const OWN_APPLICATION = `FROM applications a LEFT JOIN credit_checks c ON c.application_id = a.id
   WHERE a.id = $1::uuid AND (a.partner_id = $2::uuid) IS TRUE`;

/**
 * The applications of several reads at once (`batchedRead`): each read's id and partner, by position,
 * each application found by its primary key (a lateral lookup, so that no plan joins by scanning them).
 */
const OWN_APPLICATIONS = `unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS r(id, partner_id, batch_index)
   JOIN LATERAL (SELECT * FROM applications WHERE id = r.id LIMIT 1) a ON a.partner_id = r.partner_id
   LEFT JOIN credit_checks c ON c.application_id = a.id`;

const FIND_APPLICATION_FOR_MATCH = batchedRead(
  'find_application_for_match',
  `SELECT ${APPLICATION_COLUMNS_SQL}, c.band, a.security_token_hash ${OWN_APPLICATION}`,
  `SELECT r.batch_index, ${APPLICATION_COLUMNS_SQL}, c.band, a.security_token_hash FROM ${OWN_APPLICATIONS}`,
);

const FIND_APPLICATION = batchedRead(
  'find_application',
  `SELECT ${APPLICATION_COLUMNS_SQL} ${OWN_APPLICATION}`,
  `SELECT r.batch_index, ${APPLICATION_COLUMNS_SQL} FROM ${OWN_APPLICATIONS}`,
);

export interface JoinedRow {
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
  personal_data_erased: boolean;
  check_status: string | null;
  degraded_mode: boolean | null;
  sandbox_mode: boolean | null;
  completed_at: Date | null;
}

export function fromJoined(r: JoinedRow): ApplicationRow {
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
    personalDataErased: Boolean(r.personal_data_erased),
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

/** Variant B: the digest of the application's security token, for the partner's own application only. */
export async function findSecurityTokenHash(db: Queryable, id: string, partnerId: string): Promise<string | null | undefined> {
  const rows = await sqlOf(db).rows<{ security_token_hash: string | null }>(FIND_SECURITY_TOKEN_HASH, [id, partnerId]);
  return rows[0] === undefined ? undefined : rows[0].security_token_hash;
}

const FIND_SECURITY_TOKEN_HASH = statement(
  'find_security_token_hash',
  'SELECT security_token_hash FROM applications a WHERE a.id = $1::uuid AND (a.partner_id = $2::uuid) IS TRUE',
);
