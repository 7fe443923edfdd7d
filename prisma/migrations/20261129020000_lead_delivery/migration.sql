-- Leads for lenders: webhook endpoints and events belong to a partner or to a lender in one environment,
-- a referral writes its `lead.created` event (naming the reference only: the lead is read when it is
-- sent), and every lead answered or delivered is recorded.

ALTER TABLE "webhooks" ALTER COLUMN "partner_id" DROP NOT NULL,
ADD COLUMN "lender_id" TEXT,
ADD COLUMN "environment" TEXT;
ALTER TABLE "webhook_events" ALTER COLUMN "partner_id" DROP NOT NULL,
ADD COLUMN "lender_id" TEXT,
ADD COLUMN "environment" TEXT;
CREATE INDEX "webhooks_lender_id_environment_idx" ON "webhooks"("lender_id", "environment");

-- A lender's leads, newest first.
CREATE INDEX "referrals_lender_id_created_at_idx" ON "referrals"("lender_id", "created_at");

-- Who was shown which lead, how and when: kept when the applicant's data is erased.
CREATE TABLE "lead_disclosures" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "application_id" UUID NOT NULL,
    "lender_id" TEXT NOT NULL,
    "reference" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "lead_disclosures_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "lead_disclosures_application_id_at_idx" ON "lead_disclosures"("application_id", "at");

-- A new referral is a lead for its lender: its event goes to the lender's endpoints of the partner's
-- environment, in the statement that records the referral (none when the lender has no endpoint).
CREATE FUNCTION "announce_lead"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_events" ("lender_id", "environment", "application_id", "type", "data", "created_at")
  SELECT NEW."lender_id", p."environment", NEW."application_id", 'lead.created',
         json_build_object('reference', NEW."offer_id"), NEW."created_at"
    FROM "partners" p
   WHERE p."id" = NEW."partner_id"
     AND EXISTS (SELECT 1 FROM "webhooks" w
                  WHERE w."lender_id" = NEW."lender_id" AND w."environment" = p."environment"
                    AND w."status" = 'active' AND w."deleted_at" IS NULL);
  RETURN NULL;
END $$;
CREATE TRIGGER "referrals_lead_created" AFTER INSERT ON "referrals"
  FOR EACH ROW EXECUTE FUNCTION "announce_lead"();

-- An event goes to the endpoints of its partner, or of its lender in its environment.
CREATE OR REPLACE FUNCTION "fan_out_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_deliveries" ("id", "event_id", "webhook_id", "application_id", "seq", "state", "next_attempt_at", "created_at")
  SELECT gen_random_uuid(), NEW."id", w."id", NEW."application_id", NEW."seq", 'pending', NEW."created_at", NEW."created_at"
    FROM "webhooks" w
   WHERE (w."partner_id" = NEW."partner_id" OR (w."lender_id" = NEW."lender_id" AND w."environment" = NEW."environment"))
     AND w."status" = 'active' AND w."deleted_at" IS NULL
     AND CASE WHEN NEW."webhook_id" IS NULL THEN NEW."type" = ANY (w."events") ELSE w."id" = NEW."webhook_id" END;
  RETURN NULL;
END $$;
