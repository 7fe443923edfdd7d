-- AlterTable
ALTER TABLE "applications" ADD COLUMN     "security_token_hash" TEXT;

-- CreateTable
CREATE TABLE "tiers" (
    "name" TEXT NOT NULL,
    "requests_per_hour" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tiers_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "lenders" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "version" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lenders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" TEXT NOT NULL,
    "lender_id" TEXT NOT NULL,
    "form_type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "definition" JSONB NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "version" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "match_runs" (
    "id" UUID NOT NULL,
    "application_id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "degraded_mode" BOOLEAN NOT NULL,
    "offers" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "match_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referrals" (
    "id" UUID NOT NULL,
    "offer_id" UUID NOT NULL,
    "match_run_id" UUID NOT NULL,
    "application_id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "lender_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referrals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "products_form_type_active_idx" ON "products"("form_type", "active");

-- CreateIndex
CREATE INDEX "match_runs_application_id_created_at_idx" ON "match_runs"("application_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "referrals_offer_id_key" ON "referrals"("offer_id");

-- CreateIndex
CREATE INDEX "referrals_partner_id_created_at_id_idx" ON "referrals"("partner_id", "created_at", "id");

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_lender_id_fkey" FOREIGN KEY ("lender_id") REFERENCES "lenders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "match_runs" ADD CONSTRAINT "match_runs_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_match_run_id_fkey" FOREIGN KEY ("match_run_id") REFERENCES "match_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Default tiers (spec section 8): changed at run time through the admin API.
INSERT INTO "tiers" ("name", "requests_per_hour") VALUES ('free', 100), ('standard', 1000), ('enterprise', 10000);
