-- The personal fields of steps 2-4 (employer, addresses) and the exact bureau score are sealed at rest
-- like step 5. A migration cannot seal (the key is the server's): the server seals what is still in clear
-- at its next start, and until then reads it as before. The score column is kept, renamed, until then.

-- AlterTable
ALTER TABLE "applications" ADD COLUMN     "step_2_sealed" TEXT,
ADD COLUMN     "step_3_sealed" TEXT,
ADD COLUMN     "step_4_sealed" TEXT;

-- AlterTable
ALTER TABLE "credit_checks" RENAME COLUMN "score" TO "score_legacy";
ALTER TABLE "credit_checks" ADD COLUMN     "score_sealed" TEXT;

-- What start-up still has to seal, found without reading every row: both indexes are empty once it has
-- run, since nothing writes these fields in clear again. Their predicates are the start-up queries'
-- (packages/db/src/repositories/sealed-fields.ts), word for word.
CREATE INDEX "applications_personal_in_clear_idx" ON "applications" ("id") WHERE ("step_2" ?| ARRAY['homeAddress', 'homeAddressComponents', 'propertyAddress', 'propertyAddressComponents', 'employerName']) OR ("step_3" ?| ARRAY['homeAddress', 'homeAddressComponents', 'propertyAddress', 'propertyAddressComponents', 'employerName']) OR ("step_4" ?| ARRAY['homeAddress', 'homeAddressComponents', 'propertyAddress', 'propertyAddressComponents', 'employerName']);
CREATE INDEX "credit_checks_score_in_clear_idx" ON "credit_checks" ("application_id") WHERE "score_legacy" IS NOT NULL;
