-- CreateTable
CREATE TABLE "catalogue_meta" (
    "id" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "settings" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalogue_meta_pkey" PRIMARY KEY ("id")
);
