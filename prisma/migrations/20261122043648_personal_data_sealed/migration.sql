-- Applicant details are sealed at rest (AES-256-GCM under the data key) and can be erased.
-- The details written in clear before are kept, renamed, until the server seals them at its next start
-- (the key belongs to the server, not to the database), since dropping the column would lose them.
ALTER TABLE "applicants" RENAME COLUMN "details" TO "details_legacy";
ALTER TABLE "applicants" ALTER COLUMN "details_legacy" DROP NOT NULL;

-- AlterTable
ALTER TABLE "applicants" ADD COLUMN     "details_sealed" TEXT,
ADD COLUMN     "erased_at" TIMESTAMPTZ(3),
ADD COLUMN     "key_id" TEXT;
