-- Statuses as an ordered enum, status events written by the database, the outbox's body kept as its data,
-- and the columns of clear-text data that no deployment holds dropped.

-- An application's status, in the order statuses move: a write moves one forward with GREATEST.
CREATE TYPE "application_status" AS ENUM ('draft', 'in_progress', 'credit_checked', 'matched', 'referred');
ALTER TABLE "applications" ALTER COLUMN "status" TYPE "application_status" USING ("status"::"application_status");

ALTER TABLE "applicants" DROP COLUMN "details_legacy";
ALTER TABLE "credit_checks" DROP COLUMN "score_legacy";

-- The outbox keeps an event's data; the body sent is {type, timestamp, data}, made from its columns.
ALTER TABLE "webhook_events" ADD COLUMN "data" JSON,
ADD COLUMN "webhook_id" UUID,
ALTER COLUMN "id" SET DEFAULT ('evt_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text));
UPDATE "webhook_events" SET "data" = ("body"::json) -> 'data';
ALTER TABLE "webhook_events" ALTER COLUMN "data" SET NOT NULL, DROP COLUMN "body";

-- Every new application and every change of status writes its application.status_changed event, in the
-- statement that makes the change: the event names the status the change really left (OLD), whatever
-- else ran at the same time, and it exists exactly when the change commits.
CREATE FUNCTION "announce_status_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_events" ("partner_id", "application_id", "type", "data", "created_at")
  VALUES (NEW."partner_id", NEW."id", 'application.status_changed',
          json_build_object('applicationId', NEW."id", 'status', NEW."status",
                            'previousStatus', CASE WHEN TG_OP = 'UPDATE' THEN OLD."status" END,
                            'lastStep', NEW."last_step"),
          NEW."updated_at");
  RETURN NULL;
END $$;
CREATE TRIGGER "applications_created" AFTER INSERT ON "applications"
  FOR EACH ROW EXECUTE FUNCTION "announce_status_change"();
CREATE TRIGGER "applications_status_changed" AFTER UPDATE OF "status" ON "applications"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "announce_status_change"();

-- Every event goes out as a pending delivery to each active endpoint of its partner subscribed to its
-- type, or to its one endpoint (a test event): the endpoints registered when the event was written.
CREATE FUNCTION "fan_out_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_deliveries" ("id", "event_id", "webhook_id", "application_id", "seq", "state", "next_attempt_at", "created_at")
  SELECT gen_random_uuid(), NEW."id", w."id", NEW."application_id", NEW."seq", 'pending', NEW."created_at", NEW."created_at"
    FROM "webhooks" w
   WHERE w."partner_id" = NEW."partner_id" AND w."status" = 'active' AND w."deleted_at" IS NULL
     AND CASE WHEN NEW."webhook_id" IS NULL THEN NEW."type" = ANY (w."events") ELSE w."id" = NEW."webhook_id" END;
  RETURN NULL;
END $$;
CREATE TRIGGER "webhook_events_fan_out" AFTER INSERT ON "webhook_events"
  FOR EACH ROW EXECUTE FUNCTION "fan_out_event"();

-- Nothing is written in clear any more: the index that found such rows goes.
DROP INDEX "applications_personal_in_clear_idx";
