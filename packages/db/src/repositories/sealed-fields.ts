/**
 * The sealed texts kept beside clear columns: the personal fields of steps 2-4 (`applications.
 * step_N_sealed`) and the exact bureau score (`credit_checks.score_sealed`). This layer stores and moves
 * sealed texts only; sealing and opening are the domain's (`packages/domain/src/sealed-fields.ts`). A
 * sealed text names its key second (`v1.<keyId>.…`, `packages/domain/src/sealing.ts`), which is how
 * these columns are counted and listed by key without a key column of their own.
 *
 * Also the rows a database made before these fields were sealed still holds in clear, which start-up
 * seals: each found through a partial index (migration 20261123101600), empty once they are sealed.
 */
import { Params } from '../sql';
import type { Db, Json } from './types';

/**
 * Operator and start-up work, which reads whole tables by design: run through Prisma rather than as the
 * request path's named statements (`sql.ts`), whose plans are held to key lookups.
 */
const query = <R>(db: Db, text: string, values: readonly unknown[]): Promise<R[]> =>
  db.prisma.$queryRawUnsafe<R[]>(text, ...values);

/** A column of sealed texts, by what it holds. */
export type SealedColumn = 'step2' | 'step3' | 'step4' | 'score';
export const SEALED_COLUMNS: readonly SealedColumn[] = ['step2', 'step3', 'step4', 'score'];

/** Where each is kept. Fixed names only: never text from a request. */
const PLACES: Readonly<Record<SealedColumn, { table: string; id: string; column: string }>> = {
  step2: { table: 'applications', id: 'id', column: 'step_2_sealed' },
  step3: { table: 'applications', id: 'id', column: 'step_3_sealed' },
  step4: { table: 'applications', id: 'id', column: 'step_4_sealed' },
  score: { table: 'credit_checks', id: 'application_id', column: 'score_sealed' },
};

const keyIdOf = (column: string) => `split_part(${column}, '.', 2)`;

/** How many texts each key id seals, over every column here. */
export async function countSealedByKey(db: Db): Promise<Array<{ keyId: string; rows: number }>> {
  const rows = await query<{ key_id: string; n: number }>(db, COUNT_BY_KEY, []);
  return rows.map((r) => ({ keyId: r.key_id, rows: Number(r.n) }));
}

const COUNT_BY_KEY = `SELECT key_id, count(*)::int AS n FROM (${SEALED_COLUMNS.map((c) => {
  const { table, column } = PLACES[c];
  return `SELECT ${keyIdOf(column)} AS key_id FROM ${table} WHERE ${column} IS NOT NULL`;
}).join(' UNION ALL ')}) s GROUP BY key_id ORDER BY key_id`;

/** Texts of one column sealed under another key than `keyId`, in application-id order after `after`: a re-encryption pass. */
export async function listSealedNotUnder(
  db: Db,
  column: SealedColumn,
  keyId: string,
  options: { after?: string; limit: number },
): Promise<Array<{ applicationId: string; sealed: string }>> {
  const rows = await query<{ id: string; sealed: string }>(db, LIST_NOT_UNDER[column], [
    keyId,
    options.after ?? null,
    options.limit,
  ]);
  return rows.map((r) => ({ applicationId: r.id, sealed: r.sealed }));
}

const LIST_NOT_UNDER = Object.fromEntries(
  SEALED_COLUMNS.map((c) => {
    const { table, id, column } = PLACES[c];
    return [
      c,
      `SELECT ${id}::text AS id, ${column} AS sealed FROM ${table}
        WHERE ${column} IS NOT NULL AND ${keyIdOf(column)} <> $1::text AND ($2::uuid IS NULL OR ${id} > $2::uuid)
        ORDER BY ${id} LIMIT $3::int`,
    ];
  }),
) as Record<SealedColumn, string>;

/**
 * Replaces a sealed text by the same value sealed under another key, only if the row still holds `from`:
 * a write or an erasure that came in meanwhile is kept, never overwritten. True when replaced.
 */
export async function replaceSealedText(
  db: Db,
  column: SealedColumn,
  applicationId: string,
  from: string,
  to: string,
): Promise<boolean> {
  return (await query(db, REPLACE[column], [applicationId, from, to])).length === 1;
}

const REPLACE = Object.fromEntries(
  SEALED_COLUMNS.map((c) => {
    const { table, id, column } = PLACES[c];
    return [c, `UPDATE ${table} SET ${column} = $3::text WHERE ${id} = $1::uuid AND ${column} = $2::text RETURNING 1`];
  }),
) as Record<SealedColumn, string>;

// ---------------------------------------------------------------------------------------------
// Written in clear before sealing: sealed at start
// ---------------------------------------------------------------------------------------------

/**
 * The fields of steps 2-4 that were personal when they were first sealed, and the predicate that finds a
 * step holding any in clear: word for word the partial index's of migration 20261123101600, so that
 * the search reads that index (empty once start-up has run), not the table.
 */
const FIELDS_IN_CLEAR = `ARRAY['homeAddress', 'homeAddressComponents', 'propertyAddress', 'propertyAddressComponents', 'employerName']`;
const IN_CLEAR = `(step_2 ?| ${FIELDS_IN_CLEAR}) OR (step_3 ?| ${FIELDS_IN_CLEAR}) OR (step_4 ?| ${FIELDS_IN_CLEAR})`;

export type ClearSteps = Partial<Record<2 | 3 | 4, Json>>;

/** Applications whose steps 2-4 still hold personal fields in clear, a batch at a time, with those steps as stored. */
export async function listStepsInClear(
  db: Db,
  options: { after?: string; limit: number },
): Promise<Array<{ applicationId: string; steps: ClearSteps }>> {
  const rows = await query<{ id: string; step_2: string | null; step_3: string | null; step_4: string | null }>(
    db,
    LIST_STEPS_IN_CLEAR,
    [options.after ?? null, options.limit],
  );
  return rows.map((r) => {
    const steps: ClearSteps = {};
    if (r.step_2 !== null) steps[2] = JSON.parse(r.step_2) as Json;
    if (r.step_3 !== null) steps[3] = JSON.parse(r.step_3) as Json;
    if (r.step_4 !== null) steps[4] = JSON.parse(r.step_4) as Json;
    return { applicationId: r.id, steps };
  });
}

/** Exported for the test that checks it reads the partial index. */
export const LIST_STEPS_IN_CLEAR = `SELECT id::text AS id, step_2::text AS step_2, step_3::text AS step_3, step_4::text AS step_4
   FROM applications WHERE (${IN_CLEAR}) AND ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2::int`;

/**
 * Writes steps without their personal fields and those fields sealed, only if each step still holds
 * what was read (`read`, as listed) and nothing sealed: a step saved or erased meanwhile is kept as it
 * is. True when written.
 */
export async function sealStepsInClear(
  db: Db,
  applicationId: string,
  read: ClearSteps,
  written: Partial<Record<2 | 3 | 4, { data: Json; sealed: string | null }>>,
): Promise<boolean> {
  const numbers = ([2, 3, 4] as const).filter((n) => written[n] !== undefined);
  if (numbers.length === 0) return false;
  const p = new Params();
  const id = p.add(applicationId);
  const sets: string[] = [];
  const guards: string[] = [];
  for (const n of numbers) {
    sets.push(
      `step_${n} = ${p.add(JSON.stringify(written[n]!.data))}::jsonb`,
      `step_${n}_sealed = ${p.add(written[n]!.sealed)}::text`,
    );
    guards.push(`step_${n} = ${p.add(JSON.stringify(read[n]))}::jsonb`, `step_${n}_sealed IS NULL`);
  }
  const text = `UPDATE applications SET ${sets.join(', ')} WHERE id = ${id}::uuid AND ${guards.join(' AND ')} RETURNING 1`;
  return (await query(db, text, p.values)).length === 1;
}

/** Scores still in clear, a batch at a time. */
export async function listScoresInClear(
  db: Db,
  options: { after?: string; limit: number },
): Promise<Array<{ applicationId: string; score: number }>> {
  const rows = await query<{ id: string; score: number }>(db, LIST_SCORES_IN_CLEAR, [
    options.after ?? null,
    options.limit,
  ]);
  return rows.map((r) => ({ applicationId: r.id, score: Number(r.score) }));
}

/** Exported for the test that checks it reads the partial index. */
export const LIST_SCORES_IN_CLEAR = `SELECT application_id::text AS id, score_legacy AS score FROM credit_checks
  WHERE score_legacy IS NOT NULL AND ($1::uuid IS NULL OR application_id > $1::uuid) ORDER BY application_id LIMIT $2::int`;

/** Moves a score to its sealed form, unless the row changed meanwhile (another process, an erasure). */
export async function sealScoreInClear(db: Db, applicationId: string, score: number, sealed: string): Promise<boolean> {
  const rows = await query(db, SEAL_SCORE_IN_CLEAR, [applicationId, score, sealed]);
  return rows.length === 1;
}

const SEAL_SCORE_IN_CLEAR = `UPDATE credit_checks SET score_sealed = $3::text, score_legacy = NULL
  WHERE application_id = $1::uuid AND score_legacy = $2::int RETURNING 1`;
