-- Lead ownership: keyed hashes of the applicant's e-mail and mobile number (compared, never read back),
-- each lender's ownership window, and an index to find an applicant's referrals to a lender.
-- AlterTable
ALTER TABLE "applicants" ADD COLUMN     "email_hash" TEXT,
ADD COLUMN     "mobile_hash" TEXT;

-- AlterTable
ALTER TABLE "lenders" ADD COLUMN     "ownership_days" INTEGER NOT NULL DEFAULT 90;

-- CreateIndex
CREATE INDEX "applicants_email_hash_idx" ON "applicants"("email_hash");

-- CreateIndex
CREATE INDEX "applicants_mobile_hash_idx" ON "applicants"("mobile_hash");

-- CreateIndex
CREATE INDEX "referrals_application_id_lender_id_idx" ON "referrals"("application_id", "lender_id");
