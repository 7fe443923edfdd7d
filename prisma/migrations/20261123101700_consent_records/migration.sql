-- CreateTable
CREATE TABLE "consent_records" (
    "id" UUID NOT NULL,
    "application_id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "credit_check" BOOLEAN NOT NULL,
    "privacy" BOOLEAN NOT NULL,
    "marketing" BOOLEAN NOT NULL,
    "terms" BOOLEAN NOT NULL,
    "text_version" TEXT NOT NULL,
    "text_version_stated" BOOLEAN NOT NULL,
    "captured_at" TIMESTAMPTZ(3),
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,
    "partner_reference" TEXT,
    "erased_at" TIMESTAMPTZ(3),

    CONSTRAINT "consent_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "consent_records_application_id_key" ON "consent_records"("application_id");

-- AddForeignKey
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
