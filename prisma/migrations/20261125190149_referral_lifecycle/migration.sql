-- The referral's life after the click: lenders' keys, their outcome events (kept as received, in any order),
-- what the events come to on each referral (status, funding, commission), and the partner's clientTags.
-- AlterTable
ALTER TABLE "applications" ADD COLUMN     "client_tags" JSONB;

-- AlterTable
ALTER TABLE "referrals" ADD COLUMN     "client_tags" JSONB,
ADD COLUMN     "commission_cents" BIGINT,
ADD COLUMN     "commission_terms" JSONB,
ADD COLUMN     "funded_amount_cents" BIGINT,
ADD COLUMN     "funded_at" TIMESTAMPTZ(3),
ADD COLUMN     "funding_stands" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "outcome_approved" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "outcome_at" TIMESTAMPTZ(3),
ADD COLUMN     "outcome_started" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "outcome_status" TEXT;

-- CreateTable
CREATE TABLE "lender_keys" (
    "id" UUID NOT NULL,
    "lender_id" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "lender_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referral_outcomes" (
    "id" UUID NOT NULL,
    "referral_id" UUID NOT NULL,
    "lender_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "funded_amount_cents" BIGINT,
    "funded_at" TIMESTAMPTZ(3),
    "decline_reason" TEXT,
    "key_id" UUID,
    "fingerprint" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "referral_outcomes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "lender_keys_key_hash_key" ON "lender_keys"("key_hash");

-- CreateIndex
CREATE INDEX "lender_keys_lender_id_idx" ON "lender_keys"("lender_id");

-- CreateIndex
CREATE INDEX "referral_outcomes_referral_id_occurred_at_idx" ON "referral_outcomes"("referral_id", "occurred_at");

-- CreateIndex
CREATE UNIQUE INDEX "referral_outcomes_lender_id_event_id_key" ON "referral_outcomes"("lender_id", "event_id");

-- CreateIndex
CREATE INDEX "referrals_created_at_idx" ON "referrals"("created_at");

-- AddForeignKey
ALTER TABLE "lender_keys" ADD CONSTRAINT "lender_keys_lender_id_fkey" FOREIGN KEY ("lender_id") REFERENCES "lenders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral_outcomes" ADD CONSTRAINT "referral_outcomes_referral_id_fkey" FOREIGN KEY ("referral_id") REFERENCES "referrals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
