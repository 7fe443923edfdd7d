-- Lead ownership: keyed hashes of the applicant's e-mail and mobile number (compared, never read back),
-- each lender's ownership window, an index to find an applicant's referrals to a lender, and the function that
-- records a referral with its attribution.
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

-- Records a followed tracking link once per offer, with its attribution, and moves the application on to
-- `referred`; true when this call recorded it. A lock per (lender, applicant hash) comes first, taken in one
-- order, so that referrals of one applicant to one lender are decided one after the other on every process;
-- the statement after it, in this volatile function, reads with a snapshot taken once the locks are held,
-- which sees every referral decided before. A duplicate names the earliest owning referral of another
-- partner of the same environment (a sandbox referral never takes a live lead) to the lender, of an applicant with either hash equal, within the lender's `ownership_days`.
-- One call, one statement, one short transaction.
CREATE FUNCTION "record_referral"(p_id UUID, p_offer_id UUID, p_match_run_id UUID, p_application_id UUID,
                                  p_partner_id UUID, p_lender_id TEXT, p_product_id TEXT, p_commission_terms JSONB,
                                  p_now TIMESTAMPTZ(3)) RETURNS BOOLEAN LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  recorded BOOLEAN;
BEGIN
  PERFORM pg_advisory_xact_lock(k) FROM (
    SELECT DISTINCT hashtext('loanmatch:ownership:' || p_lender_id || ':' || h) AS k
      FROM applicants, unnest(ARRAY[email_hash, mobile_hash]) h
     WHERE application_id = p_application_id AND h IS NOT NULL ORDER BY k) keys;
  WITH owner AS (
    SELECT r.offer_id FROM applicants me
      JOIN applicants a ON a.email_hash = me.email_hash OR a.mobile_hash = me.mobile_hash
      JOIN referrals r ON r.application_id = a.application_id AND r.lender_id = p_lender_id
      JOIN lenders l ON l.id = r.lender_id
      JOIN partners rp ON rp.id = r.partner_id
     WHERE me.application_id = p_application_id AND r.partner_id <> p_partner_id AND r.attribution = 'owner'
       AND rp.environment = (SELECT environment FROM partners WHERE id = p_partner_id)
       AND r.created_at > p_now - make_interval(days => l.ownership_days)
     ORDER BY r.created_at, r.id LIMIT 1
  ), referral AS (
    INSERT INTO referrals (id, offer_id, match_run_id, application_id, partner_id, lender_id, product_id,
                           commission_terms, client_tags, created_at, attribution, duplicate_of)
    SELECT p_id, p_offer_id, p_match_run_id, a.id, p_partner_id, p_lender_id, p_product_id, p_commission_terms,
           a.client_tags, p_now, CASE WHEN o.offer_id IS NULL THEN 'owner' ELSE 'duplicate' END, o.offer_id
      FROM applications a LEFT JOIN owner o ON true WHERE a.id = p_application_id
    ON CONFLICT (offer_id) DO NOTHING
    RETURNING application_id
  ), moved AS (
    UPDATE applications SET status = 'referred', updated_at = p_now
     WHERE id = (SELECT application_id FROM referral) AND status < 'referred'
  )
  SELECT EXISTS (SELECT 1 FROM referral) INTO recorded;
  RETURN recorded;
END $$;
