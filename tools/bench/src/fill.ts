/**
 * Fills the service's database directly with SQL (`INSERT … SELECT generate_series`), for data the API
 * would take too long to make: the growth phase's million applications, and the fresh applications the
 * credit check uses up. Each new application copies a template application that the service itself made
 * through the API (its steps, status, credit check and match run), with its own id,
 * partner and time, so the rows are the service's own as far as the schema goes (prisma/schema.prisma,
 * written as packages/db/src/repositories writes them). Applicant details, the steps' personal fields
 * and the score are sealed to their application (the id is the associated data), so they are opened
 * from the template and sealed again for each copy, under the server's DATA_KEY.
 */
import { createPersonalDataBox, sealedFieldContext } from '@loanmatch/domain';
import type { Client } from 'pg';

export interface FillPlan {
  /** Applications to copy, each with its share of the new rows (say 4, 3, 2, 1). */
  templates: Array<{ id: string; share: number }>;
  /** The partners the new rows belong to, one picked at random for each row. */
  partnerIds: string[];
  count: number;
  /** The new rows' times: spread over the year before now, or all now. */
  spreadOverYear: boolean;
  /** The server's DATA_KEY: applicant rows of the templates are sealed again with it. */
  dataKey: Buffer;
  /** Answer the new applications' ids (for a pool; not for a million rows). */
  keepIds?: boolean;
}

const BATCH = 25_000;

/**
 * One batch, one statement: the applications and, for those whose template has them, their credit check,
 * consent record and match run; the database's own trigger writes each copy's status event. Answers each new id with its template's.
 */
const COPY_APPLICATIONS = `
WITH g AS MATERIALIZED (
  SELECT gen_random_uuid() AS id, t.id AS template_id,
         ($3::uuid[])[1 + floor(random() * cardinality($3::uuid[]))::int] AS partner_id,
         CASE WHEN $5::boolean THEN now() - random() * interval '365 days' ELSE now() END AS at,
         t.form_type, t.status, t.last_step, t.step_1, t.step_2, t.step_3, t.step_4
    FROM generate_series(1, $1::int) AS n
    JOIN applications t ON t.id = ($2::uuid[])[1 + ((n + $4::int) % cardinality($2::uuid[]))]
),
apps AS (
  INSERT INTO applications (id, partner_id, form_type, status, last_step, step_1, step_2, step_3, step_4, created_at, updated_at)
  SELECT id, partner_id, form_type, status, last_step, step_1, step_2, step_3, step_4, at, at FROM g
),
checks AS (
  INSERT INTO credit_checks (application_id, status, band, degraded_mode, sandbox_mode, source, started_at, completed_at)
  SELECT g.id, c.status, c.band, c.degraded_mode, c.sandbox_mode, c.source, g.at, CASE WHEN c.completed_at IS NULL THEN NULL ELSE g.at END
    FROM g JOIN credit_checks c ON c.application_id = g.template_id
),
consents AS (
  INSERT INTO consent_records (id, application_id, partner_id, credit_check, privacy, marketing, terms, text_version,
    text_version_stated, captured_at, recorded_at, partner_reference)
  SELECT gen_random_uuid(), g.id, g.partner_id, r.credit_check, r.privacy, r.marketing, r.terms, r.text_version,
         r.text_version_stated, CASE WHEN r.captured_at IS NULL THEN NULL ELSE g.at END, g.at, r.partner_reference
    FROM g JOIN consent_records r ON r.application_id = g.template_id
),
runs AS (
  INSERT INTO match_runs (id, application_id, partner_id, degraded_mode, offers, created_at)
  SELECT gen_random_uuid(), g.id, g.partner_id, r.degraded_mode, replace(r.offers::text, g.template_id::text, g.id::text)::json, g.at
    FROM g JOIN match_runs r ON r.application_id = g.template_id
)
SELECT g.id::text AS id, g.template_id::text AS template_id FROM g`;

const INSERT_APPLICANTS = `INSERT INTO applicants (application_id, details_sealed, key_id)
  SELECT id, sealed, $3::text FROM unnest($1::uuid[], $2::text[]) AS u(id, sealed)`;

/** The sealed columns of packages/db's sealed-fields.ts, where each is: the copies get their own sealed texts. */
type SealedColumn = Parameters<typeof sealedFieldContext>[0];
const SEALED_PLACES: Record<SealedColumn, { table: string; id: string; column: string }> = {
  step2: { table: 'applications', id: 'id', column: 'step_2_sealed' },
  step3: { table: 'applications', id: 'id', column: 'step_3_sealed' },
  step4: { table: 'applications', id: 'id', column: 'step_4_sealed' },
  score: { table: 'credit_checks', id: 'application_id', column: 'score_sealed' },
};

/** Adds `plan.count` applications; answers their ids when `plan.keepIds`. */
export async function fillApplications(
  db: Client,
  plan: FillPlan,
  progress?: (done: number) => void,
): Promise<string[]> {
  const pattern = plan.templates.flatMap((t) => Array.from({ length: t.share }, () => t.id));
  const box = createPersonalDataBox([plan.dataKey]);
  // Each template's applicant details in clear (the templates are few, and hold test data only).
  const details = new Map<string, string>();
  const { rows: sealedRows } = await db.query<{ id: string; sealed: string }>(
    'SELECT application_id::text AS id, details_sealed AS sealed FROM applicants WHERE application_id = ANY($1::uuid[]) AND details_sealed IS NOT NULL',
    [plan.templates.map((t) => t.id)],
  );
  for (const r of sealedRows) {
    const plain = box.open(r.sealed, r.id);
    if (plain === undefined)
      throw new Error(`fill: the applicant details of template ${r.id} do not open with the server's DATA_KEY`);
    details.set(r.id, plain);
  }

  // Each template's sealed step fields and score in clear, by column.
  const fields = new Map<SealedColumn, Map<string, string>>();
  for (const column of Object.keys(SEALED_PLACES) as SealedColumn[]) {
    const { table, id, column: name } = SEALED_PLACES[column];
    const { rows: found } = await db.query<{ id: string; sealed: string }>(
      `SELECT ${id}::text AS id, ${name} AS sealed FROM ${table} WHERE ${id} = ANY($1::uuid[]) AND ${name} IS NOT NULL`,
      [plan.templates.map((t) => t.id)],
    );
    const plain = new Map<string, string>();
    for (const r of found) {
      const opened = box.open(r.sealed, sealedFieldContext(column, r.id));
      if (opened === undefined)
        throw new Error(`fill: ${name} of template ${r.id} does not open with the server's DATA_KEY`);
      plain.set(r.id, opened);
    }
    fields.set(column, plain);
  }

  // The bench's own database: a crash may lose the last batches, and nothing waits for each flush.
  await db.query('SET synchronous_commit = off');
  const kept: string[] = [];
  for (let done = 0; done < plan.count; ) {
    const n = Math.min(BATCH, plan.count - done);
    await db.query('BEGIN');
    try {
      const { rows } = await db.query<{ id: string; template_id: string }>(COPY_APPLICATIONS, [
        n,
        pattern,
        plan.partnerIds,
        done,
        plan.spreadOverYear,
      ]);
      const withDetails = rows.filter((r) => details.has(r.template_id));
      if (withDetails.length) {
        const sealed = withDetails.map((r) => box.seal(details.get(r.template_id)!, r.id));
        await db.query(INSERT_APPLICANTS, [withDetails.map((r) => r.id), sealed, box.keyId]);
      }
      for (const [column, plain] of fields) {
        const copies = rows.filter((r) => plain.has(r.template_id));
        if (copies.length === 0) continue;
        const { table, id, column: name } = SEALED_PLACES[column];
        await db.query(
          `UPDATE ${table} AS t SET ${name} = u.sealed FROM unnest($1::uuid[], $2::text[]) AS u(id, sealed) WHERE t.${id} = u.id`,
          [
            copies.map((r) => r.id),
            copies.map((r) => box.seal(plain.get(r.template_id)!, sealedFieldContext(column, r.id))),
          ],
        );
      }
      await db.query('COMMIT');
      if (plan.keepIds) kept.push(...rows.map((r) => r.id));
    } catch (err) {
      await db.query('ROLLBACK');
      throw err;
    }
    done += n;
    progress?.(done);
  }
  return kept;
}

export async function countApplications(db: Client): Promise<number> {
  const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM applications');
  return Number(rows[0].n);
}

/** After a large fill: statistics up to date and dirty pages written, so neither happens while measuring. */
export async function settleDatabase(db: Client): Promise<void> {
  await db.query('VACUUM ANALYZE');
  await db.query('CHECKPOINT');
}
