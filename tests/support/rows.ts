/**
 * What the service stored, read the way tests look at it: the rows of one table whose columns equal
 * `where`'s values, columns named as the schema's fields are (`applicationId` for `application_id`).
 */
import type { Sql } from '@loanmatch/db';

const column = (field: string) => field.replace(/[A-Z]|\d+/g, (m) => `_${m.toLowerCase()}`);
const field = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function condition(where: Record<string, unknown>): string {
  const keys = Object.keys(where);
  return keys.length ? ` WHERE ${keys.map((k, i) => `${column(k)} = $${i + 1}`).join(' AND ')}` : '';
}

/** The rows, in `orderBy`'s order (a field) when given. */
export async function storedRows(
  db: Sql,
  table: string,
  where: Record<string, unknown> = {},
  orderBy?: string,
): Promise<any[]> {
  const order = orderBy ? ` ORDER BY ${column(orderBy)}` : '';
  const rows = await db.query(`SELECT * FROM ${table}${condition(where)}${order}`, Object.values(where));
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [field(name), value])));
}

/** The one row, or null. */
export async function storedRow(db: Sql, table: string, where: Record<string, unknown>): Promise<any> {
  return (await storedRows(db, table, where))[0] ?? null;
}

export async function countRows(db: Sql, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table}${condition(where)}`,
    Object.values(where),
  );
  return row.n;
}
