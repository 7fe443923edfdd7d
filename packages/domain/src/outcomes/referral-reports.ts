/**
 * `GET /reports/referrals` on both front-ends: the partner's referrals made in a window of whole days (UTC,
 * both included), grouped by day, lender, product or a client tag, with what became of them.
 */
import { referralReportRows, type ReportGrouping, type ReportRow } from '@loanmatch/db';
import type { DomainContext } from '../context';
import { invalid, ok, violation, type FieldViolation, type Result } from '../errors';
import { CLIENT_TAG_KEY_PATTERN } from '../validation';
import { ISO_DATE, parseCalendarDate } from '../validation/dates';
import type { Answer } from '../validation/responses';
import { formatCents, inDollars } from './money';

export const REPORT_MAX_DAYS = 366;
const DEFAULT_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const GROUPINGS = ['day', 'lender', 'product'] as const;

/** The columns of a row, in the order of the CSV. */
export const REPORT_COLUMNS = [
  'group',
  'referrals',
  'started',
  'approved',
  'declined',
  'funded',
  'fundedAmount',
  'commission',
  'duplicates',
] as const;

type ReferralReportRow = Answer<'ReferralReportRow'>;

export interface ReportQuery {
  from?: string;
  to?: string;
  groupBy?: string;
}

/** A real calendar day written `YYYY-MM-DD`, as the instant it starts (UTC), or null. */
function dayStart(value: string): Date | null {
  return ISO_DATE.test(value) && parseCalendarDate(value) ? new Date(`${value}T00:00:00.000Z`) : null;
}

const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** `from`, `to` (days, UTC, both included) of a report, checked, with the first instants of each and after `to`. */
export function reportWindow(query: ReportQuery, now: Date) {
  const violations: FieldViolation[] = [];
  const today = new Date(`${isoDay(now)}T00:00:00.000Z`);
  const to = query.to === undefined ? today : dayStart(query.to);
  if (!to) violations.push(violation('to', 'format', 'must be a real date written YYYY-MM-DD'));
  const from =
    query.from === undefined ? new Date((to ?? today).getTime() - (DEFAULT_DAYS - 1) * DAY_MS) : dayStart(query.from);
  if (!from) violations.push(violation('from', 'format', 'must be a real date written YYYY-MM-DD'));
  if (from && to && from > to) violations.push(violation('from', 'order', 'must not be after to'));
  else if (from && to && (to.getTime() - from.getTime()) / DAY_MS + 1 > REPORT_MAX_DAYS)
    violations.push(violation('from', 'span', `must be at most ${REPORT_MAX_DAYS} days before to, both included`));
  if (violations.length > 0 || !from || !to) return invalid(...violations);
  return ok({ from: isoDay(from), to: isoDay(to), start: from, until: new Date(to.getTime() + DAY_MS) });
}

/** `groupBy`: `day` (the default), `lender`, `product`, or `tag:<key>`. */
export function reportGrouping(groupBy: string | undefined): Result<ReportGrouping> {
  const value = groupBy ?? 'day';
  if ((GROUPINGS as readonly string[]).includes(value)) return ok({ by: value as (typeof GROUPINGS)[number] });
  const tag = /^tag:(.*)$/s.exec(value);
  if (tag && new RegExp(CLIENT_TAG_KEY_PATTERN).test(tag[1])) return ok({ by: 'tag', key: tag[1] });
  return invalid(
    violation('groupBy', 'enum', `must be one of ${GROUPINGS.join(', ')} or tag:<key> (a client tag's key)`),
  );
}

/** The report of one partner (or, `partnerId` null, of all, for operators). */
export async function referralReport(ctx: DomainContext, options: { partnerId: string | null; query: ReportQuery }) {
  const window = reportWindow(options.query, ctx.clock());
  const grouping = reportGrouping(options.query.groupBy);
  if (!window.ok || !grouping.ok)
    return invalid(...[window, grouping].flatMap((r) => (r.ok ? [] : (r.error.details ?? []))));
  const rows = await referralReportRows(ctx.db, {
    partnerId: options.partnerId,
    from: window.value.start,
    until: window.value.until,
    grouping: grouping.value,
  });
  const shown = grouping.value.by === 'day' ? everyDay(rows, window.value) : rows;
  return ok({ report: { rows: shown.map(inDollars) }, window: window.value });
}

const NONE = {
  referrals: 0,
  started: 0,
  approved: 0,
  declined: 0,
  funded: 0,
  fundedAmountCents: 0,
  commissionCents: 0,
  duplicates: 0,
};

/** A row for each day of the window, in order: days without referrals count zero. */
function everyDay(rows: readonly ReportRow[], window: { start: Date; until: Date }): ReportRow[] {
  const byDay = new Map(rows.map((r) => [r.group, r]));
  const out: ReportRow[] = [];
  for (let at = window.start.getTime(); at < window.until.getTime(); at += DAY_MS) {
    const day = isoDay(new Date(at));
    out.push(byDay.get(day) ?? { group: day, ...NONE });
  }
  return out;
}

/**
 * The report as CSV (RFC 4180, CRLF): a header of the columns, then a row each; amounts with two decimals,
 * a missing group empty. A cell a spreadsheet would read as a formula (starting `=`, `+`, `-`, `@`) is
 * prefixed with `'`.
 */
export function reportCsv(report: Answer<'ReferralReport'>): string {
  const lines = [REPORT_COLUMNS.join(',')];
  const cell = (r: ReferralReportRow, column: (typeof REPORT_COLUMNS)[number]) =>
    column === 'group'
      ? csvCell(r.group ?? '')
      : column === 'fundedAmount' || column === 'commission'
        ? formatCents(Math.round(r[column] * 100))
        : r[column];
  for (const r of report.rows) lines.push(REPORT_COLUMNS.map((column) => cell(r, column)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
