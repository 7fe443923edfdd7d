import { statement } from '../sql';
import { APPLICATION_COLUMNS_SQL, fromJoined, toRow, type ApplicationRow, type JoinedRow } from './application-row';
import type { Db, Json } from './types';

export async function insertApplication(
  db: Db,
  app: {
    id: string;
    partnerId: string;
    formType: string;
    status: string;
    step1: Json;
    securityTokenHash?: string;
    clientTags?: Json;
  },
): Promise<ApplicationRow> {
  // A new application has no credit check: one INSERT … RETURNING, not a transaction of three queries.
  const raw = await db.prisma.application.create({
    data: { ...app, lastStep: 1, step1: app.step1 as object, clientTags: app.clientTags as object | undefined },
    omit: { securityTokenHash: true, personalDataErasedAt: true, clientTags: true },
  });
  return toRow({ ...raw, creditCheck: null, personalDataErased: false });
}

/** The partner's application, or null for another partner's or an unknown id (callers cannot tell which). */
export async function findApplication(db: Db, id: string, partnerId: string): Promise<ApplicationRow | null> {
  const rows = await db.rows<JoinedRow>(FIND_APPLICATION, [id, partnerId]);
  return rows[0] ? fromJoined(rows[0]) : null;
}

/**
 * For matching only: the partner's application, once its credit check has completed what matching reads
 * of the result (the band, never the score, and whether it was degraded), and the digest of its Variant B
 * security token, which a Variant B match checks first; one statement.
 */
export async function findApplicationForMatch(
  db: Db,
  id: string,
  partnerId: string,
): Promise<{
  row: ApplicationRow;
  credit: { band: string | null; degradedMode: boolean } | null;
  securityTokenHash: string | null;
} | null> {
  const rows = await db.rows<JoinedRow & { band: string | null; security_token_hash: string | null }>(
    FIND_APPLICATION_FOR_MATCH,
    [id, partnerId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    row: fromJoined(r),
    credit: r.check_status === 'completed' ? { band: r.band, degradedMode: Boolean(r.degraded_mode) } : null,
    securityTokenHash: r.security_token_hash,
  };
}

/**
 * The partner's application by its id: found by the primary key, then compared with the partner. The
 * comparison is written `(…) IS TRUE` so that no plan can look the row up through the partner's index
 * instead: PostgreSQL's generic plan of a prepared statement, made while the table was nearly empty, did
 * exactly that and then read every application of the partner on each call (tested in
 * packages/domain/test/generic-plans.test.ts).
 */
const OWN_APPLICATION = `FROM applications a LEFT JOIN credit_checks c ON c.application_id = a.id
   WHERE a.id = $1::uuid AND (a.partner_id = $2::uuid) IS TRUE`;

const FIND_APPLICATION_FOR_MATCH = statement(
  'find_application_for_match',
  `SELECT ${APPLICATION_COLUMNS_SQL}, c.band, a.security_token_hash ${OWN_APPLICATION}`,
);

const FIND_APPLICATION = statement('find_application', `SELECT ${APPLICATION_COLUMNS_SQL} ${OWN_APPLICATION}`);

/**
 * Locks the application's row until the transaction ends and answers what a status change needs of it,
 * or null when there is no such application. Concurrent changes of one application thus run one after
 * the other, each seeing the status the previous one left. `FOR NO KEY UPDATE`, the lock an UPDATE takes:
 * it does not conflict with the key-share locks that inserting a match run or a referral takes on the
 * same row earlier in the transaction, so two such transactions cannot deadlock over the upgrade.
 */
export async function lockApplication(
  db: Db,
  id: string,
): Promise<{ partnerId: string; status: string; lastStep: number } | null> {
  const rows = await db.prisma.$queryRaw<Array<{ partner_id: string; status: string; last_step: number }>>`
    SELECT partner_id, status, last_step FROM applications WHERE id = ${id}::uuid FOR NO KEY UPDATE`;
  return rows[0]
    ? { partnerId: rows[0].partner_id, status: rows[0].status, lastStep: Number(rows[0].last_step) }
    : null;
}

/** Variant B: the digest of the application's security token, for the partner's own application only. */
export async function findSecurityTokenHash(db: Db, id: string, partnerId: string): Promise<string | null | undefined> {
  const rows = await db.rows<{ security_token_hash: string | null }>(FIND_SECURITY_TOKEN_HASH, [id, partnerId]);
  return rows[0] === undefined ? undefined : rows[0].security_token_hash;
}

const FIND_SECURITY_TOKEN_HASH = statement(
  'find_security_token_hash',
  'SELECT security_token_hash FROM applications a WHERE a.id = $1::uuid AND (a.partner_id = $2::uuid) IS TRUE',
);
