/**
 * The writes of the busiest requests, each one statement (one round trip, one implicit transaction):
 * a new application with its creation event and, under an idempotency key, the key completed with
 * its answer; a saved step or a status move with its event; a match run, or a credit check's
 * completion, with the status it moves.
 * Data-modifying CTEs put the change and its outbox rows (`outboxCtes`) in the same statement, so they
 * commit together or not at all. What changes is the domain's decision (`packages/domain/src/events.ts`);
 * this file only writes it.
 */
import { Params, shaped } from '../sql';
import { APPLICATION_COLUMNS_SQL, fromJoined, type ApplicationRow, type JoinedRow } from './application-row';
import { checkRunningSql, completionCtes, type CheckCompletion } from './credit-checks';
import { outboxCtes, type OutboxEvent } from './outbox';
import type { Db, Json } from './types';

/** An idempotency key stored completed, with the answer of the request that made it, by the statement of its change. */
export interface CompletedKey {
  partnerId: string;
  key: string;
  fingerprint: string;
  ownerId: string;
  /** The answer as the JSON text sent, so a replay is byte for byte the same. */
  responseBody: string;
  now: Date;
  expiresAt: Date;
}

/**
 * Inserts an application and its creation event. Under `key`, the key is inserted completed in the same
 * statement, and the application only if the key was: false, with nothing written, when the key is
 * already held (the caller reads it and answers as the key says). A key that expired is replaced.
 */
export async function insertApplication(
  db: Db,
  input: {
    app: {
      id: string;
      partnerId: string;
      formType: string;
      status: string;
      lastStep: number;
      step1: Json;
      securityTokenHash?: string;
      /** The partner's `clientTags`; none is stored as null. */
      clientTags?: Json;
    };
    event: OutboxEvent;
    key?: CompletedKey;
  },
): Promise<{ inserted: boolean; deliveries: number }> {
  const { app, key } = input;
  const p = new Params();
  const claim = key
    ? `claim AS (
        INSERT INTO idempotency_keys AS k (partner_id, key, fingerprint, state, owner_id, response_body, created_at, expires_at)
        VALUES (${p.add(key.partnerId)}::uuid, ${p.add(key.key)}::text, ${p.add(key.fingerprint)}::text, 'completed', ${p.add(key.ownerId)}::uuid,
                ${p.add(key.responseBody)}::text, ${p.add(key.now)}::timestamptz, ${p.add(key.expiresAt)}::timestamptz)
        ON CONFLICT (partner_id, key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, state = EXCLUDED.state, owner_id = EXCLUDED.owner_id,
              response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
          WHERE k.expires_at <= EXCLUDED.created_at
        RETURNING 1
      ),`
    : '';
  const insert = `app AS (
      INSERT INTO applications (id, partner_id, form_type, status, last_step, step_1, security_token_hash, client_tags, updated_at)
      SELECT ${p.add(app.id)}::uuid, ${p.add(app.partnerId)}::uuid, ${p.add(app.formType)}::text, ${p.add(app.status)}::text,
             ${p.add(app.lastStep)}::int, ${p.add(JSON.stringify(app.step1))}::jsonb, ${p.add(app.securityTokenHash ?? null)}::text,
             ${p.add(app.clientTags ? JSON.stringify(app.clientTags) : null)}::jsonb, ${p.add(new Date())}::timestamptz
      ${key ? 'WHERE EXISTS (SELECT 1 FROM claim)' : ''}
      RETURNING id
    ),`;
  const text = `WITH ${claim} ${insert} ${outboxCtes(p, 'app', input.event)}
    SELECT EXISTS (SELECT 1 FROM app) AS inserted, (SELECT count(*) FROM dl)::int AS deliveries`;
  const rows = await db.rows<{ inserted: boolean; deliveries: number }>(
    shaped(key ? 'insert_application_keyed' : 'insert_application', () => text),
    p.values,
  );
  return { inserted: rows[0].inserted, deliveries: Number(rows[0].deliveries) };
}

export type ChangeOutcome =
  /** `row`: the application as written; null when the change was asked `withRow: false`. */
  | { changed: true; row: ApplicationRow | null; deliveries: number }
  /**
   * Another change came first (`current` is what the application holds now), or the application is gone
   * (null). `current.erased`: its personal data was erased, so a step or a check was not written;
   * `current.checkRunning` (a check's completion only): whether the check is still claimed.
   */
  | {
      changed: false;
      current: { status: string; lastStep: number; erased: boolean; checkRunning?: boolean } | null;
    };

/**
 * Changes an application in one statement: writes a step's data, moves its status and last step,
 * inserts a match run, and completes its credit check, each when given, with the event announcing the
 * move. A move (`move`) is made only if the application still holds `move.from`, the status and last
 * step the caller read and decided from: otherwise nothing is written and the answer says what it holds
 * now, for the caller to decide again. The row lock the update takes makes concurrent changes of one application take turns,
 * so each event names the status its change really left. Without a move, a step is written whatever
 * the status (statuses and last steps only grow, so "no move" stays true). A step is never written to
 * an application whose personal data was erased: checked on the row being updated, so an erasure that
 * commits while this statement waits for the row is seen. The same holds for a check's completion
 * (`check`), which is written only while the check is claimed and still running.
 */
export async function changeApplication(
  db: Db,
  change: {
    id: string;
    move?: { from: { status: string; lastStep: number }; status: string; lastStep: number; event?: OutboxEvent };
    /** `data`: the step without its personal fields; `sealed`: those fields sealed (null when it has none). */
    step?: { number: 2 | 3 | 4; data: Json; sealed: string | null };
    /** `offersJson`: the run's `offers` as JSON text. */
    matchRun?: { id: string; partnerId: string; degradedMode: boolean; offersJson: string; at: Date };
    /** Its read-back row shows the check as it was before this statement: ask it `withRow: false`. */
    check?: CheckCompletion;
    /** False: the application is not read back (a match needs only to know it was written). Default true. */
    withRow?: boolean;
  },
): Promise<ChangeOutcome> {
  const { move, step, matchRun, check } = change;
  const withRow = change.withRow !== false;
  const p = new Params();
  const id = p.add(change.id);
  const sets: string[] = [];
  if (step)
    sets.push(
      `${STEP_COLUMNS[step.number]} = ${p.add(JSON.stringify(step.data))}::jsonb`,
      `${STEP_COLUMNS[step.number]}_sealed = ${p.add(step.sealed)}::text`,
    );
  let guard = step || check ? ' AND personal_data_erased_at IS NULL' : '';
  if (check) guard += ` AND ${checkRunningSql(id)}`;
  if (move) {
    sets.push(`status = ${p.add(move.status)}::text`, `last_step = ${p.add(move.lastStep)}::int`);
    guard += ` AND status = ${p.add(move.from.status)}::text AND last_step = ${p.add(move.from.lastStep)}::int`;
  }
  const target =
    sets.length || check
      ? `a AS (UPDATE applications SET ${[...sets, `updated_at = ${p.add(new Date())}::timestamptz`].join(', ')} WHERE id = ${id}::uuid${guard} RETURNING *)`
      : `a AS (SELECT * FROM applications WHERE id = ${id}::uuid)`;
  const run = matchRun
    ? `, mr AS (
        INSERT INTO match_runs (id, application_id, partner_id, degraded_mode, offers, created_at)
        SELECT ${p.add(matchRun.id)}::uuid, a.id, ${p.add(matchRun.partnerId)}::uuid, ${p.add(matchRun.degradedMode)}::boolean,
               ${p.add(matchRun.offersJson)}::json, ${p.add(matchRun.at)}::timestamptz FROM a
      )`
    : '';
  const completion = check ? `, ${completionCtes(p, 'a', check)}` : '';
  const event = move?.event ? `, ${outboxCtes(p, 'a', move.event)}` : '';
  const running = check ? `, ${checkRunningSql(id)} AS check_running` : '';
  const text = `WITH cur AS (SELECT status, last_step, personal_data_erased_at IS NOT NULL AS erased${running} FROM applications WHERE id = ${id}::uuid), ${target}${run}${completion}${event}
    SELECT cur.status AS current_status, cur.last_step AS current_last_step, cur.erased AS current_erased,${check ? ' cur.check_running,' : ''}
           ${withRow ? APPLICATION_COLUMNS_SQL : 'a.id'}, ${event ? '(SELECT count(*) FROM dl)::int' : '0'} AS deliveries
      FROM cur LEFT JOIN a ON true${withRow ? ' LEFT JOIN credit_checks c ON c.application_id = a.id' : ''}`;
  const name = `change_${sets.length ? 'u' : 'r'}${step ? step.number : ''}${move ? 'm' : ''}${matchRun ? 'r' : ''}${check ? (check.key ? 'ck' : 'c') : ''}${event ? 'e' : ''}${withRow ? '' : 'n'}`;
  const rows = await db.rows<
    JoinedRow & {
      current_status: string;
      current_last_step: number;
      current_erased: boolean;
      check_running?: boolean;
      deliveries: number;
    }
  >(
    shaped(name, () => text),
    p.values,
  );
  const r = rows[0];
  if (!r) return { changed: false, current: null };
  if (r.id === null)
    return {
      changed: false,
      current: {
        status: r.current_status,
        lastStep: Number(r.current_last_step),
        erased: Boolean(r.current_erased),
        ...(check ? { checkRunning: Boolean(r.check_running) } : {}),
      },
    };
  return { changed: true, row: withRow ? fromJoined(r) : null, deliveries: Number(r.deliveries) };
}

const STEP_COLUMNS = { 2: 'step_2', 3: 'step_3', 4: 'step_4' } as const;
