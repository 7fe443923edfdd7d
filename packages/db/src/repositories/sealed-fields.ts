/**
 * The sealed texts kept beside clear columns: the personal fields of steps 2-4 (`applications.
 * step_N_sealed`) and the exact bureau score (`credit_checks.score_sealed`), for the data key's status and
 * re-encryption. A sealed text names its key second (`v1.<keyId>.…`), which is how these columns are
 * counted and listed by key without a key column of their own.
 */
import type { Sql } from '../connect';

/** Each column of sealed texts, by what it holds, and where it is kept: fixed names, never text from a request. */
const PLACES = {
  step2: { table: 'applications', id: 'id', column: 'step_2_sealed' },
  step3: { table: 'applications', id: 'id', column: 'step_3_sealed' },
  step4: { table: 'applications', id: 'id', column: 'step_4_sealed' },
  score: { table: 'credit_checks', id: 'application_id', column: 'score_sealed' },
} as const;

export type SealedColumn = keyof typeof PLACES;
export const SEALED_COLUMNS = Object.keys(PLACES) as readonly SealedColumn[];

/** How many texts each key id seals, over every column here. */
export async function countSealedByKey(db: Sql): Promise<Array<{ keyId: string; rows: number }>> {
  const texts = SEALED_COLUMNS.map((c) => {
    const { table, column } = PLACES[c];
    return `SELECT split_part(${column}, '.', 2) AS key_id FROM ${table} WHERE ${column} IS NOT NULL`;
  });
  return db.query(
    `SELECT key_id AS "keyId", count(*)::int AS rows FROM (${texts.join(' UNION ALL ')}) s GROUP BY key_id ORDER BY key_id`,
  );
}

/** Texts of one column sealed under another key than `keyId`, in application-id order after `after`. */
export async function listSealedNotUnder(
  db: Sql,
  place: SealedColumn,
  keyId: string,
  options: { after?: string; limit: number },
): Promise<Array<{ applicationId: string; sealed: string }>> {
  const { table, id, column } = PLACES[place];
  return db.query(
    `SELECT ${id}::text AS "applicationId", ${column} AS sealed FROM ${table}
      WHERE ${column} IS NOT NULL AND split_part(${column}, '.', 2) <> $1 AND ($2::uuid IS NULL OR ${id} > $2)
      ORDER BY ${id} LIMIT $3`,
    [keyId, options.after ?? null, options.limit],
  );
}

/**
 * Replaces a sealed text by the same value sealed under another key, only if the row still holds `from`:
 * a write or an erasure that came in meanwhile is kept, never overwritten. True when replaced.
 */
export async function replaceSealedText(
  db: Sql,
  place: SealedColumn,
  applicationId: string,
  from: string,
  to: string,
): Promise<boolean> {
  const { table, id, column } = PLACES[place];
  const rows = await db.query(`UPDATE ${table} SET ${column} = $3 WHERE ${id} = $1 AND ${column} = $2 RETURNING 1`, [
    applicationId,
    from,
    to,
  ]);
  return rows.length === 1;
}
