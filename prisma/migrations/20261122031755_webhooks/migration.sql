-- CreateTable
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secret_sealed" TEXT NOT NULL,
    "previous_secret_sealed" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL,
    "disabled_reason" TEXT,
    "disabled_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "application_id" UUID,
    "type" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "event_id" TEXT NOT NULL,
    "webhook_id" UUID NOT NULL,
    "application_id" UUID,
    "seq" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "lease_until" TIMESTAMPTZ(3),
    "claim_token" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "webhook_id" UUID NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "response_status" INTEGER,
    "error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhooks_partner_id_created_at_idx" ON "webhooks"("partner_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_events_seq_key" ON "webhook_events"("seq");

-- CreateIndex
CREATE INDEX "webhook_events_created_at_idx" ON "webhook_events"("created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_state_next_attempt_at_idx" ON "webhook_deliveries"("state", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_id_application_id_seq_idx" ON "webhook_deliveries"("webhook_id", "application_id", "seq");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- CreateIndex
CREATE INDEX "webhook_attempts_webhook_id_attempted_at_idx" ON "webhook_attempts"("webhook_id", "attempted_at");

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
