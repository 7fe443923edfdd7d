-- Retiring a contract: its schedule for every partner or one, brownout windows, and each partner's daily requests.
-- CreateTable
CREATE TABLE "contract_lifecycles" (
    "contract" TEXT NOT NULL,
    "partner_id" UUID NOT NULL,
    "deprecated_at" TIMESTAMPTZ(3),
    "sunset_at" TIMESTAMPTZ(3),
    "link" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contract_lifecycles_pkey" PRIMARY KEY ("contract","partner_id")
);

-- CreateTable
CREATE TABLE "contract_brownouts" (
    "id" UUID NOT NULL,
    "contract" TEXT NOT NULL,
    "partner_id" UUID,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contract_brownouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contract_usage" (
    "partner_id" UUID NOT NULL,
    "contract" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "requests" BIGINT NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contract_usage_pkey" PRIMARY KEY ("partner_id","contract","day")
);

-- CreateIndex
CREATE INDEX "contract_brownouts_ends_at_idx" ON "contract_brownouts"("ends_at");

-- CreateIndex
CREATE INDEX "contract_usage_day_idx" ON "contract_usage"("day");
