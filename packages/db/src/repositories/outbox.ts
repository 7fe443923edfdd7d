/**
 * The outbox rows of an event, as CTEs of a larger statement: shared by `insertEvent` (webhooks.ts) and
 * the one-statement writes of status-changes.ts, so that an event commits exactly when its change does.
 */
import type { Params } from '../sql';

/** An event to write to the outbox: its body is the exact JSON every attempt sends. */
export interface OutboxEvent {
  id: string;
  partnerId: string;
  applicationId: string | null;
  type: string;
  body: string;
  at: Date;
  /** Only this endpoint (a test event); otherwise every active endpoint of the partner subscribed to `type`. */
  webhookId?: string;
}

/**
 * The CTEs that write `event` to the outbox as part of a larger statement, when `source` (the name of an
 * earlier CTE) yields a row, that is when the change it announces was made: `ev`, the event (written
 * whether or not an endpoint subscribed: the outbox is also the record of every status change), and
 * `dl`, a pending delivery due at once for each endpoint it goes to. The statement can answer
 * `(SELECT count(*) FROM dl)`, the number of deliveries. One statement: the event commits exactly
 * when the change does, and the endpoints are those registered when it ran.
 */
export function outboxCtes(p: Params, source: string, event: OutboxEvent): string {
  const partner = p.add(event.partnerId);
  const type = p.add(event.type);
  const id = p.add(event.id);
  const application = p.add(event.applicationId);
  const at = p.add(event.at);
  const only =
    event.webhookId === undefined ? `${type}::text = ANY (w.events)` : `w.id = ${p.add(event.webhookId)}::uuid`;
  return `targets AS (
      SELECT w.id FROM webhooks w
       WHERE w.partner_id = ${partner}::uuid AND w.status = 'active' AND w.deleted_at IS NULL AND ${only}
    ),
    ev AS (
      INSERT INTO webhook_events (id, partner_id, application_id, type, body, created_at)
      SELECT ${id}::text, ${partner}::uuid, ${application}::uuid, ${type}::text, ${p.add(event.body)}::text, ${at}::timestamptz FROM ${source}
      RETURNING seq
    ),
    dl AS (
      INSERT INTO webhook_deliveries (id, event_id, webhook_id, application_id, seq, state, next_attempt_at, created_at)
      SELECT gen_random_uuid(), ${id}::text, t.id, ${application}::uuid, ev.seq, 'pending', ${at}::timestamptz, ${at}::timestamptz FROM ev CROSS JOIN targets t
      RETURNING 1
    )`;
}
