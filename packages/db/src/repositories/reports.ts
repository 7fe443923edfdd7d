/**
 * The report queries, of one partner or (`partnerId` null) of all: referrals made in a window, grouped, with
 * what became of them (the summary each referral keeps of its lender's events), and the operators' funnel.
 */
import { sql, type Sql } from '../connect';

/** How a report groups referrals: by day (UTC), lender, product, or the value of one client tag. */
export type ReportGrouping = { by: 'day' | 'lender' | 'product' } | { by: 'tag'; key: string };

/** Referrals made, the funded loans among them that stand, their amount, the commission and the duplicates. */
type Referred = {
  referrals: number;
  funded: number;
  fundedAmountCents: number;
  commissionCents: number;
  duplicates: number;
};
export type ReportRow = Referred & { group: string | null; started: number; approved: number; declined: number };
export type FunnelCounts = Referred & { applications: number; creditChecks: number; matches: number };

/** Referrals made in [from, until), grouped; each group's counts and sums. Groups ascending, referrals without the tag last. */
export async function referralReportRows(
  db: Sql,
  options: { partnerId: string | null; from: Date; until: Date; grouping: ReportGrouping },
): Promise<ReportRow[]> {
  const { partnerId, from, until, grouping } = options;
  return db.query(sql`
    SELECT CASE ${grouping.by}::text WHEN 'day' THEN to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')
                                     WHEN 'lender' THEN r.lender_id WHEN 'product' THEN r.product_id
                                     ELSE r.client_tags ->> ${grouping.by === 'tag' ? grouping.key : null}::text END
           AS "group",
           count(*)::int AS referrals, count(*) FILTER (WHERE r.outcome_started)::int AS started,
           count(*) FILTER (WHERE r.outcome_approved)::int AS approved,
           count(*) FILTER (WHERE r.outcome_status = 'declined')::int AS declined,
           count(*) FILTER (WHERE r.funding_stands)::int AS funded,
           coalesce(sum(r.funded_amount_cents) FILTER (WHERE r.funding_stands), 0)::int8 AS "fundedAmountCents",
           coalesce(sum(r.commission_cents), 0)::int8 AS "commissionCents",
           count(*) FILTER (WHERE r.attribution = 'duplicate')::int AS duplicates
      FROM referrals r
     WHERE r.created_at >= ${from} AND r.created_at < ${until}
       ${partnerId === null ? sql`` : sql`AND r.partner_id = ${partnerId}`}
     GROUP BY 1 ORDER BY 1 NULLS LAST`);
}

/**
 * The operators' funnel over [from, until): applications created, credit checks completed and applications
 * matched in the window, referrals made in it, and of those the funded loans that stand, their amount and
 * the commission. The sum of `funnelByPartner`'s rows, of one partner or (`partnerId` null) of all.
 */
export async function funnel(
  db: Sql,
  options: { partnerId: string | null; from: Date; until: Date },
): Promise<FunnelCounts> {
  const total: FunnelCounts = {
    applications: 0,
    creditChecks: 0,
    matches: 0,
    referrals: 0,
    funded: 0,
    fundedAmountCents: 0,
    commissionCents: 0,
    duplicates: 0,
  };
  for (const row of await funnelByPartner(db, options))
    if (options.partnerId === null || row.partnerId === options.partnerId)
      for (const count of Object.keys(total) as Array<keyof FunnelCounts>) total[count] += row[count];
  return total;
}

/** The funnel of every partner over [from, until), oldest partner first (zeros for a partner with nothing). */
export async function funnelByPartner(
  db: Sql,
  options: { from: Date; until: Date },
): Promise<Array<FunnelCounts & { partnerId: string; name: string }>> {
  return db.query(
    `WITH a AS (SELECT partner_id, count(*) AS n FROM applications WHERE created_at >= $1 AND created_at < $2 GROUP BY 1),
          c AS (SELECT a.partner_id, count(*) AS n FROM credit_checks c JOIN applications a ON a.id = c.application_id
                 WHERE c.status = 'completed' AND c.completed_at >= $1 AND c.completed_at < $2 GROUP BY 1),
          m AS (SELECT partner_id, count(DISTINCT application_id) AS n FROM match_runs
                 WHERE created_at >= $1 AND created_at < $2 GROUP BY 1),
          r AS (SELECT partner_id, count(*) AS referrals, count(*) FILTER (WHERE funding_stands) AS funded,
                       sum(funded_amount_cents) FILTER (WHERE funding_stands) AS funded_cents,
                       sum(commission_cents) AS commission_cents,
                       count(*) FILTER (WHERE attribution = 'duplicate') AS duplicates
                  FROM referrals WHERE created_at >= $1 AND created_at < $2 GROUP BY 1)
     SELECT p.id AS "partnerId", p.name, coalesce(a.n, 0)::int AS applications, coalesce(c.n, 0)::int AS "creditChecks",
            coalesce(m.n, 0)::int AS matches, coalesce(r.referrals, 0)::int AS referrals,
            coalesce(r.funded, 0)::int AS funded, coalesce(r.funded_cents, 0)::int8 AS "fundedAmountCents",
            coalesce(r.commission_cents, 0)::int8 AS "commissionCents", coalesce(r.duplicates, 0)::int AS duplicates
       FROM partners p LEFT JOIN a ON a.partner_id = p.id LEFT JOIN c ON c.partner_id = p.id
            LEFT JOIN m ON m.partner_id = p.id LEFT JOIN r ON r.partner_id = p.id
      ORDER BY p.created_at, p.id`,
    [options.from, options.until],
  );
}
