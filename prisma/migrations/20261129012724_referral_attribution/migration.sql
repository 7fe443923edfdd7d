-- A referral's attribution: the owner of the lead, or a duplicate of another partner's earlier referral of the
-- same applicant to the same lender (`duplicate_of`, that referral's reference).
-- AlterTable
ALTER TABLE "referrals" ADD COLUMN     "attribution" TEXT NOT NULL DEFAULT 'owner',
ADD COLUMN     "duplicate_of" UUID;
