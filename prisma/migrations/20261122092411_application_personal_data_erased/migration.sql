-- The erasure time is also kept on the application row: a step save checks it there, in the row it
-- updates, so an erasure that commits while the save waits for that row is seen by the save.
ALTER TABLE "applications" ADD COLUMN     "personal_data_erased_at" TIMESTAMPTZ(3);

-- Applications erased before this migration.
UPDATE "applications" AS a SET "personal_data_erased_at" = p."erased_at"
  FROM "applicants" AS p WHERE p."application_id" = a."id" AND p."erased_at" IS NOT NULL;
