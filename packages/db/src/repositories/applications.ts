/**
 * Applications: reading one, and the writes of create, a saved step, a match and a followed link. A status
 * only moves forward (`GREATEST`); the triggers on `applications` write each change's event.
 */
import { sql, type Json, type Sql, type Transactional } from '../connect';
import { writeDetails, type SealedDetails } from './applicants';

export type StepNumber = 1 | 2 | 3 | 4;
/** Steps whose personal fields are kept apart, sealed. */
export type SealedStepNumber = 2 | 3 | 4;

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
  /** Steps 1-4 without their personal fields (those are in `sealedSteps`). */
  steps: Partial<Record<StepNumber, Json>>;
  /** The personal fields of steps 2-4 (employer, addresses), sealed; opened only by the calls that show them. */
  sealedSteps: Partial<Record<SealedStepNumber, string>>;
  createdAt: Date;
  updatedAt: Date;
  creditCheck: CreditCheckSummary | null;
  /** The applicant's personal data was erased: the application takes no personal data again. */
  personalDataErased: boolean;
  /** For matching: the check's band (never the score). */
  band: string | null;
  /** Variant B: the security token's digest; null for an application made through Variant A. */
  securityTokenHash: string | null;
}

const COLUMNS = sql`a.id::text AS id, a.partner_id::text AS "partnerId", a.form_type AS "formType",
  a.status::text AS status, a.last_step AS "lastStep", a.step_1, a.step_2, a.step_3, a.step_4, a.step_2_sealed,
  a.step_3_sealed, a.step_4_sealed, a.created_at AS "createdAt", a.updated_at AS "updatedAt",
  a.personal_data_erased_at IS NOT NULL AS "personalDataErased", a.security_token_hash AS "securityTokenHash",
  c.band, c.status AS check_status, c.degraded_mode, c.sandbox_mode, c.completed_at`;

type Joined = Omit<ApplicationRow, 'steps' | 'sealedSteps' | 'creditCheck'> & {
  [K in `step_${1 | 2 | 3 | 4}` | `step_${2 | 3 | 4}_sealed`]: unknown;
} & {
  check_status: CreditCheckSummary['status'] | null;
  degraded_mode: boolean;
  sandbox_mode: boolean;
  completed_at: Date | null;
};

function toRow(r: Joined): ApplicationRow {
  const steps: ApplicationRow['steps'] = {};
  const sealedSteps: ApplicationRow['sealedSteps'] = {};
  for (const n of [1, 2, 3, 4] as const) if (r[`step_${n}`]) steps[n] = r[`step_${n}`] as Json;
  for (const n of [2, 3, 4] as const) if (r[`step_${n}_sealed`]) sealedSteps[n] = r[`step_${n}_sealed`] as string;
  return {
    id: r.id,
    partnerId: r.partnerId,
    formType: r.formType,
    status: r.status,
    lastStep: r.lastStep,
    steps,
    sealedSteps,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    creditCheck: r.check_status
      ? {
          status: r.check_status,
          degradedMode: r.degraded_mode,
          sandboxMode: r.sandbox_mode,
          completedAt: r.completed_at,
        }
      : null,
    personalDataErased: r.personalDataErased,
    band: r.band,
    securityTokenHash: r.securityTokenHash,
  };
}

/** For reads that join an application to other rows (a lead): its columns, and the row they make. */
export { COLUMNS as APPLICATION_COLUMNS, toRow as applicationRowOf, type Joined as ApplicationColumns };

/**
 * The partner's application, or null for another partner's or an unknown id (callers cannot tell which).
 * `lock`: its row is locked until the transaction ends, as an update locks it (`FOR NO KEY UPDATE`, which
 * lets a referral or a match run that references it be inserted meanwhile).
 */
export async function findApplication(
  db: Sql,
  id: string,
  partnerId: string,
  lock = false,
): Promise<ApplicationRow | null> {
  const [row] = await db.query<Joined>(sql`
    SELECT ${COLUMNS} FROM applications a LEFT JOIN credit_checks c ON c.application_id = a.id
     WHERE a.id = ${id} AND a.partner_id = ${partnerId} ${lock ? sql`FOR NO KEY UPDATE OF a` : sql``}`);
  return row ? toRow(row) : null;
}

/** An idempotency key completed with the answer of the request that holds it, by that request's own write. */
export interface KeyCompletion {
  partnerId: string;
  key: string;
  /** The answer as the JSON text sent, so a replay is byte for byte the same. */
  responseBody: string;
}

export interface NewApplication {
  id: string;
  partnerId: string;
  formType: string;
  step1: Json;
  clientTags?: Json;
  /** Variant B: the SHA-256 digest of the application's security token. */
  securityTokenHash?: string;
  now: Date;
  key?: KeyCompletion;
}

/** A new application in `draft` at step 1 and, under an idempotency key, the key completed: one statement. */
export async function insertApplication(db: Sql, app: NewApplication): Promise<void> {
  await db.query(sql`
    WITH app AS (
      INSERT INTO applications (id, partner_id, form_type, status, last_step, step_1, client_tags, security_token_hash,
                                created_at, updated_at)
      VALUES (${app.id}, ${app.partnerId}, ${app.formType}, 'draft', 1, ${JSON.stringify(app.step1)},
              ${app.clientTags ? JSON.stringify(app.clientTags) : null}, ${app.securityTokenHash ?? null}, ${app.now},
              ${app.now})
      RETURNING id
    )
    UPDATE idempotency_keys SET state = 'completed', response_body = ${app.key?.responseBody}
      FROM app WHERE partner_id = ${app.partnerId} AND key = ${app.key?.key ?? null}`);
}

/**
 * Variant B's create, in one transaction: the application with its security token's digest, the steps
 * its flat fields complete (each as `saveStep` writes it), its intake, and the request's key.
 */
export async function insertApplicationB(
  db: Transactional,
  app: NewApplication & {
    securityTokenHash: string;
    steps: Array<{ step: 2 | 3 | 4; data: Json; sealed: string | null }>;
    intake: SealedDetails;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await insertApplication(tx, app);
    for (const step of app.steps) await saveStep(tx, { id: app.id, ...step, now: app.now });
    await writeDetails(tx, app.id, app.intake);
  });
}

/**
 * Writes step 2, 3 or 4 (clear and sealed fields), raises the last step and moves `draft` on to
 * `in_progress`; never once the personal data is erased. Answers the application as written, or null.
 */
export async function saveStep(
  db: Sql,
  change: { id: string; step: 2 | 3 | 4; data: Json; sealed: string | null; now: Date },
): Promise<ApplicationRow | null> {
  const [row] = await db.query<Joined>(
    `WITH a AS (
       UPDATE applications SET
         step_2 = CASE WHEN $2 = 2 THEN $3 ELSE step_2 END, step_2_sealed = CASE WHEN $2 = 2 THEN $4 ELSE step_2_sealed END,
         step_3 = CASE WHEN $2 = 3 THEN $3 ELSE step_3 END, step_3_sealed = CASE WHEN $2 = 3 THEN $4 ELSE step_3_sealed END,
         step_4 = CASE WHEN $2 = 4 THEN $3 ELSE step_4 END, step_4_sealed = CASE WHEN $2 = 4 THEN $4 ELSE step_4_sealed END,
         status = GREATEST(status, 'in_progress'), last_step = GREATEST(last_step, $2), updated_at = $5
       WHERE id = $1 AND personal_data_erased_at IS NULL
       RETURNING *
     )
     SELECT ${COLUMNS.text} FROM a LEFT JOIN credit_checks c ON c.application_id = a.id`,
    [change.id, change.step, JSON.stringify(change.data), change.sealed, change.now],
  );
  return row ? toRow(row) : null;
}

/**
 * A match run, with a snapshot of its offers (`offers`: JSON text), and the application moved on to
 * `matched` the first time: one statement.
 */
export async function insertMatchRun(
  db: Sql,
  run: { id: string; applicationId: string; partnerId: string; degradedMode: boolean; offers: string; now: Date },
): Promise<void> {
  await db.query(sql`
    WITH run AS (
      INSERT INTO match_runs (id, application_id, partner_id, degraded_mode, offers, created_at)
      VALUES (${run.id}, ${run.applicationId}, ${run.partnerId}, ${run.degradedMode}, ${run.offers}, ${run.now})
      RETURNING application_id
    )
    UPDATE applications SET status = 'matched', updated_at = ${run.now}
     WHERE id = (SELECT application_id FROM run) AND status < 'matched'`);
}

/** `offer`: the one offer of the run's snapshot asked for; null when the run has no such offer. */
type MatchRunRow = { id: string; applicationId: string; partnerId: string; offer: unknown; createdAt: Date };

/** A match run with one offer of its snapshot (the run's answer, kept beside it, is not read). */
export async function findMatchRun(db: Sql, id: string, offerId: string): Promise<MatchRunRow | null> {
  const [row] = await db.query<MatchRunRow>(sql`
    SELECT id::text, application_id::text AS "applicationId", partner_id::text AS "partnerId",
           (SELECT o FROM json_array_elements(offers -> 'offers') o WHERE o ->> 'offerId' = ${offerId}) AS offer,
           created_at AS "createdAt"
      FROM match_runs WHERE id = ${id}`);
  return row ?? null;
}

/**
 * A followed tracking link, recorded once per offer (the application's `clientTags` copied onto it) with its
 * attribution, and the application moved on to `referred`: one call of `record_referral` (in the migration
 * `20261129023500_lead_ownership`). False when the offer was recorded before.
 */
export async function insertReferral(
  db: Sql,
  referral: {
    id: string;
    offerId: string;
    matchRunId: string;
    applicationId: string;
    partnerId: string;
    lenderId: string;
    productId: string;
    /** The product's commission terms as the offer carried them; null when it stated none. */
    commissionTerms: Json | null;
    now: Date;
  },
): Promise<boolean> {
  const [row] = await db.query<{ recorded: boolean }>(sql`
    SELECT record_referral(${referral.id}, ${referral.offerId}, ${referral.matchRunId}, ${referral.applicationId},
                           ${referral.partnerId}, ${referral.lenderId}, ${referral.productId},
                           ${referral.commissionTerms && JSON.stringify(referral.commissionTerms)}, ${referral.now})
           AS recorded`);
  return row.recorded;
}

/** Variant B: the digest of the application's security token; undefined when it is not the partner's. */
export async function findSecurityTokenHash(
  db: Sql,
  id: string,
  partnerId: string,
): Promise<string | null | undefined> {
  const [row] = await db.query<{ hash: string | null }>(
    sql`SELECT security_token_hash AS hash FROM applications WHERE id = ${id} AND partner_id = ${partnerId}`,
  );
  return row?.hash;
}

/** Variant B: replaces the digest of the application's security token; false when it is not the partner's. */
export async function replaceSecurityTokenHash(db: Sql, id: string, partnerId: string, hash: string): Promise<boolean> {
  const rows = await db.query(sql`
    UPDATE applications SET security_token_hash = ${hash}
     WHERE id = ${id} AND partner_id = ${partnerId} RETURNING id`);
  return rows.length === 1;
}
