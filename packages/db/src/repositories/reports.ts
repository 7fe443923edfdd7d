/**
 * The report queries: referrals made in a window, grouped, with what became of them (from the summary each
 * referral keeps of its lender's events), and the operators' funnel. Sums of cents are integers.
 */
import { shaped } from '../sql';
import type { Db } from './types';

/** How a report groups referrals: by day (UTC), lender, product, or the value of one client tag. */
export type ReportGrouping = { by: 'day' | 'lender' | 'product' } | { by: 'tag'; key: string };

export interface ReportRow {
  group: string | null;
  referrals: number;
  started: number;
  approved: number;
  declined: number;
  funded: number;
  fundedAmountCents: number;
  commissionCents: number;
}

const GROUP_SQL = {
  day: `to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  lender: 'r.lender_id',
  product: 'r.product_id',
  tag: `r.client_tags ->> $4::text`,
} as const;

const COUNTS_SQL = `count(*)::int AS referrals,
       count(*) FILTER (WHERE r.outcome_started)::int AS started,
       count(*) FILTER (WHERE r.outcome_approved)::int AS approved,
       count(*) FILTER (WHERE r.outcome_status = 'declined')::int AS declined,
       count(*) FILTER (WHERE r.funding_stands)::int AS funded,
       coalesce(sum(r.funded_amount_cents) FILTER (WHERE r.funding_stands), 0)::text AS funded_cents,
       coalesce(sum(r.commission_cents), 0)::text AS commission_cents`;

/**
 * Referrals made in [from, until), of one partner or (`partnerId` null, for operators) of all, grouped; each
 * group's counts and sums. Groups in ascending order, referrals without the tag last.
 */
export async function referralReport(
  db: Db,
  options: { partnerId: string | null; from: Date; until: Date; grouping: ReportGrouping },
): Promise<ReportRow[]> {
  const { grouping } = options;
  // Every parameter appears in every shape, so that each has a type when the statement is prepared.
  const partner = options.partnerId === null ? ' AND $1::uuid IS NULL' : ' AND r.partner_id = $1::uuid';
  const name = `referral_report_${grouping.by}${options.partnerId === null ? '_all' : ''}`;
  const text = `SELECT ${GROUP_SQL[grouping.by]} AS grp, ${COUNTS_SQL}
      FROM referrals r
     WHERE r.created_at >= $2::timestamptz AND r.created_at < $3::timestamptz${partner}
       ${grouping.by === 'tag' ? '' : 'AND $4::text IS NULL'}
     GROUP BY 1 ORDER BY 1 NULLS LAST`;
  const rows = await db.rows<{
    grp: string | null;
    referrals: number;
    started: number;
    approved: number;
    declined: number;
    funded: number;
    funded_cents: string;
    commission_cents: string;
  }>(
    shaped(name, () => text),
    [options.partnerId, options.from, options.until, grouping.by === 'tag' ? grouping.key : null],
  );
  return rows.map((r) => ({
    group: r.grp,
    referrals: Number(r.referrals),
    started: Number(r.started),
    approved: Number(r.approved),
    declined: Number(r.declined),
    funded: Number(r.funded),
    fundedAmountCents: Number(r.funded_cents),
    commissionCents: Number(r.commission_cents),
  }));
}

export interface FunnelCounts {
  applications: number;
  creditChecks: number;
  matches: number;
  referrals: number;
  funded: number;
  fundedAmountCents: number;
  commissionCents: number;
}

/**
 * The operators' funnel over [from, until), of one partner or of all: applications created, credit checks
 * completed and applications matched in the window, referrals made in it, and of those the funded loans
 * that stand, their amount and the commission. One statement.
 */
export async function funnel(
  db: Db,
  options: { partnerId: string | null; from: Date; until: Date },
): Promise<FunnelCounts> {
  const of = (alias: string) => (options.partnerId === null ? '' : ` AND ${alias}.partner_id = $1::uuid`);
  const window = (column: string) => `${column} >= $2::timestamptz AND ${column} < $3::timestamptz`;
  const text = `SELECT
      (SELECT count(*) FROM applications a WHERE ${window('a.created_at')}${of('a')})::int AS applications,
      (SELECT count(*) FROM credit_checks c JOIN applications a ON a.id = c.application_id
        WHERE c.status = 'completed' AND ${window('c.completed_at')}${of('a')})::int AS credit_checks,
      (SELECT count(DISTINCT m.application_id) FROM match_runs m WHERE ${window('m.created_at')}${of('m')})::int AS matches,
      (SELECT count(*) FROM referrals r WHERE ${window('r.created_at')}${of('r')})::int AS referrals,
      (SELECT count(*) FROM referrals r WHERE r.funding_stands AND ${window('r.created_at')}${of('r')})::int AS funded,
      (SELECT coalesce(sum(r.funded_amount_cents), 0) FROM referrals r
        WHERE r.funding_stands AND ${window('r.created_at')}${of('r')})::text AS funded_cents,
      (SELECT coalesce(sum(r.commission_cents), 0) FROM referrals r WHERE ${window('r.created_at')}${of('r')})::text AS commission_cents,
      $1::uuid IS NULL AS all_partners`;
  const [r] = await db.rows<FunnelRow>(
    shaped(`funnel${options.partnerId === null ? '_all' : ''}`, () => text),
    [options.partnerId, options.from, options.until],
  );
  return funnelCounts(r);
}

/** A funnel as both statements answer it: counts, and the sums of cents as text. */
interface FunnelRow {
  applications: number;
  credit_checks: number;
  matches: number;
  referrals: number;
  funded: number;
  funded_cents: string;
  commission_cents: string;
}

function funnelCounts(r: FunnelRow): FunnelCounts {
  return {
    applications: Number(r.applications),
    creditChecks: Number(r.credit_checks),
    matches: Number(r.matches),
    referrals: Number(r.referrals),
    funded: Number(r.funded),
    fundedAmountCents: Number(r.funded_cents),
    commissionCents: Number(r.commission_cents),
  };
}

export interface PartnerFunnel extends FunnelCounts {
  partnerId: string;
  name: string;
}

/** The funnel of every partner over [from, until), oldest partner first (zeros for a partner with nothing). One statement. */
export async function funnelByPartner(db: Db, options: { from: Date; until: Date }): Promise<PartnerFunnel[]> {
  const window = (column: string) => `${column} >= $1::timestamptz AND ${column} < $2::timestamptz`;
  const rows = await db.rows<FunnelRow & { partner_id: string; name: string }>(
    shaped(
      'funnel_by_partner',
      () => `WITH a AS (SELECT partner_id, count(*) AS n FROM applications WHERE ${window('created_at')} GROUP BY 1),
      c AS (SELECT a.partner_id, count(*) AS n FROM credit_checks c JOIN applications a ON a.id = c.application_id
             WHERE c.status = 'completed' AND ${window('c.completed_at')} GROUP BY 1),
      m AS (SELECT partner_id, count(DISTINCT application_id) AS n FROM match_runs WHERE ${window('created_at')} GROUP BY 1),
      r AS (SELECT partner_id, count(*) AS referrals, count(*) FILTER (WHERE funding_stands) AS funded,
                   coalesce(sum(funded_amount_cents) FILTER (WHERE funding_stands), 0) AS funded_cents,
                   coalesce(sum(commission_cents), 0) AS commission_cents
              FROM referrals WHERE ${window('created_at')} GROUP BY 1)
    SELECT p.id::text AS partner_id, p.name, coalesce(a.n, 0)::int AS applications, coalesce(c.n, 0)::int AS credit_checks,
           coalesce(m.n, 0)::int AS matches, coalesce(r.referrals, 0)::int AS referrals, coalesce(r.funded, 0)::int AS funded,
           coalesce(r.funded_cents, 0)::text AS funded_cents, coalesce(r.commission_cents, 0)::text AS commission_cents
      FROM partners p LEFT JOIN a ON a.partner_id = p.id LEFT JOIN c ON c.partner_id = p.id
      LEFT JOIN m ON m.partner_id = p.id LEFT JOIN r ON r.partner_id = p.id
     ORDER BY p.created_at, p.id`,
    ),
    [options.from, options.until],
  );
  return rows.map((r) => ({ partnerId: r.partner_id, name: r.name, ...funnelCounts(r) }));
}
