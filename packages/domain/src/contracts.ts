/**
 * Operators retiring a contract: its schedule (`deprecatedAt`, `sunsetAt`, the migration guide's link) for
 * every partner or one, brownout windows, and who still calls it. Stored in the database; each process
 * keeps a copy, read again when older than two seconds (one read at a time, as the rate tiers are), so what
 * a partner's request is told, or refused with, is decided in memory. A failed read keeps the last copy.
 */
import { randomUUID } from 'node:crypto';
import {
  EVERY_PARTNER,
  deleteBrownout,
  findPartner,
  insertBrownout,
  readBrownouts,
  readContractUsage,
  readLifecycles,
  upsertLifecycle,
  deleteLifecycle,
  type BrownoutRow,
  type LifecycleRow,
  type Sql,
} from '@loanmatch/db';
import type { DomainContext } from './context';
import { fail, invalid, objectBody, ok, violation, type Result } from './errors';
import { freshCopy } from './fresh-copy';
import { canonicalUuid } from './ids';
import { csvCell, reportWindow, type ReportQuery } from './outcomes/referral-reports';
import { parseTime } from './validation/dates';

export const CONTRACTS = ['A', 'B'] as const;
export type Contract = (typeof CONTRACTS)[number];

/** How long a process may use the schedules it read from the database. */
const SNAPSHOT_MAX_AGE_MS = 2000;

export const otherContract = (contract: Contract): Contract => (contract === 'A' ? 'B' : 'A');

export type ContractLifecycles = ReturnType<typeof createContractLifecycles>;

/** The copy of one process; `now` is the clock its age is read on. */
export function createContractLifecycles(db: Sql, options: { now?: () => number } = {}) {
  const read = async (at: number) => {
    const [schedules, brownouts] = await Promise.all([readLifecycles(db), readBrownouts(db, new Date(at))]);
    return { schedules: new Map(schedules.map((s) => [`${s.contract}:${s.partnerId}`, s])), brownouts };
  };
  const copy = freshCopy(read, SNAPSHOT_MAX_AGE_MS, options.now);

  return {
    /** Reads the database now. */
    refresh: copy.refresh,
    /** The every-partner schedule of a contract, when one is set. */
    async scheduleOf(contract: Contract): Promise<LifecycleRow | undefined> {
      return (await copy.get()).schedules.get(`${contract}:${EVERY_PARTNER}`);
    },
    /** Headers to add to a partner's request at `at` (ms), and a refusal message when the contract is gone. */
    async statusOf(contract: Contract, partnerId: string, at: number) {
      const { schedules, brownouts } = await copy.get();
      const schedule = schedules.get(`${contract}:${partnerId}`) ?? schedules.get(`${contract}:${EVERY_PARTNER}`);
      const brownout = brownouts.find(
        (b) =>
          b.contract === contract &&
          (b.partnerId === null || b.partnerId === partnerId) &&
          b.startsAt.getTime() <= at &&
          at < b.endsAt.getTime(),
      );
      const { deprecatedAt, sunsetAt, link } = schedule ?? {};
      const headers: Array<[string, string]> = [];
      if (deprecatedAt && deprecatedAt.getTime() <= at) {
        headers.push(['Deprecation', `@${Math.floor(deprecatedAt.getTime() / 1000)}`]);
        if (link) headers.push(['Link', `<${link}>; rel="deprecation"`]);
      }
      if (sunsetAt) headers.push(['Sunset', sunsetAt.toUTCString()]);
      const retired =
        sunsetAt && sunsetAt.getTime() <= at
          ? `was retired on ${sunsetAt.toISOString()}`
          : brownout && `is in a scheduled brownout until ${brownout.endsAt.toISOString()} as it is being retired`;
      if (!retired) return { headers };
      const guide = link ? `; see ${link}` : '';
      return { headers, retired: `Variant ${contract} ${retired}: move to Variant ${otherContract(contract)}${guide}` };
    },
  };
}

/** The longest brownout an operator may schedule. */
const BROWNOUT_MAX_MS = 24 * 60 * 60 * 1000;
const LINK_MAX_LENGTH = 2000;

const iso = (date: Date | null) => date?.toISOString() ?? null;
const lifecycleView = (row: LifecycleRow) => ({
  contract: row.contract,
  partnerId: row.partnerId === EVERY_PARTNER ? null : row.partnerId,
  deprecatedAt: iso(row.deprecatedAt),
  sunsetAt: iso(row.sunsetAt),
  link: row.link,
  updatedAt: row.updatedAt.toISOString(),
});
const brownoutView = (row: BrownoutRow) => ({
  brownoutId: row.id,
  contract: row.contract,
  partnerId: row.partnerId,
  from: row.startsAt.toISOString(),
  to: row.endsAt.toISOString(),
});

function contractOf(value: string): Result<Contract> {
  return (CONTRACTS as readonly string[]).includes(value)
    ? ok(value as Contract)
    : invalid(violation('contract', 'enum', 'must be A or B'));
}

async function knownPartner(ctx: DomainContext, value: unknown): Promise<Result<string>> {
  const id = typeof value === 'string' ? canonicalUuid(value) : null;
  if (id && (await findPartner(ctx.db, id))) return ok(id);
  return invalid(violation('partnerId', 'exists', 'must be the id of a partner'));
}

/** An RFC 3339 time, or null when absent and not `required`. */
function timeField(body: Record<string, unknown>, field: string, required = false): Result<Date | null> {
  const value = body[field];
  if (required && value == null) return invalid(violation(field, 'required', 'is required'));
  if (value == null) return ok(null);
  const time = typeof value === 'string' ? parseTime(value) : undefined;
  if (!time) return invalid(violation(field, 'format', 'must be a date and time with its offset (RFC 3339)'));
  return ok(time);
}

/** The request's object body, refusing a field it does not know. */
function bodyOf(raw: unknown, known: readonly string[]): Result<Record<string, unknown>> {
  const body = objectBody(raw);
  if (!body.ok) return body;
  const extra = Object.keys(body.value).find((key) => !known.includes(key));
  return extra === undefined ? body : invalid(violation(extra, 'unknown', 'is not a field of this request'));
}

/** `{deprecatedAt, sunsetAt, link, force}`, each optional: the link absolute https (http too in the sandbox). */
function readSchedule(ctx: DomainContext, raw: unknown) {
  const body = bodyOf(raw, ['deprecatedAt', 'sunsetAt', 'link', 'force']);
  if (!body.ok) return body;
  const deprecatedAt = timeField(body.value, 'deprecatedAt');
  if (!deprecatedAt.ok) return deprecatedAt;
  const sunsetAt = timeField(body.value, 'sunsetAt');
  if (!sunsetAt.ok) return sunsetAt;
  if (deprecatedAt.value && sunsetAt.value && sunsetAt.value < deprecatedAt.value)
    return invalid(violation('sunsetAt', 'order', 'must not be before deprecatedAt'));
  const { link = null, force = false } = body.value;
  const schemes = ctx.env === 'sandbox' ? ['https:', 'http:'] : ['https:'];
  if (link !== null && (typeof link !== 'string' || link.length > LINK_MAX_LENGTH || !schemes.includes(schemeOf(link))))
    return invalid(violation('link', 'format', `must be an absolute ${schemes.join(' or ').replace(/:/g, '')} URL`));
  if (typeof force !== 'boolean') return invalid(violation('force', 'type', 'must be true or false'));
  return ok({ deprecatedAt: deprecatedAt.value, sunsetAt: sunsetAt.value, link, force });
}

const schemeOf = (link: string) => (URL.canParse(link) ? new URL(link).protocol : '');

type SchedulePath = { contract: string; partnerId?: string };

/** The path's contract and, for one partner's schedule, its partner (the nil id for every partner). */
async function scheduleKey(ctx: DomainContext, options: SchedulePath) {
  const contract = contractOf(options.contract);
  if (!contract.ok) return contract;
  const partner = options.partnerId === undefined ? ok(EVERY_PARTNER) : await knownPartner(ctx, options.partnerId);
  return partner.ok ? ok({ contract: contract.value, partnerId: partner.value }) : partner;
}

/**
 * 409 when, once the schedule of this key is `row` (or cleared, without one), a partner it applies to would
 * have both contracts sunset: for the every-partner schedule, each partner without its own for that contract.
 */
async function noContractLeft(ctx: DomainContext, key: { contract: Contract; partnerId: string }, row?: LifecycleRow) {
  const rows = (await readLifecycles(ctx.db)).filter(
    (r) => r.contract !== key.contract || r.partnerId !== key.partnerId,
  );
  if (row) rows.push(row);
  const find = (c: string, p: string) => rows.find((r) => r.contract === c && r.partnerId === p);
  const sunset = (c: Contract, p: string) => Boolean((find(c, p) ?? find(c, EVERY_PARTNER))?.sunsetAt);
  const partners = key.partnerId === EVERY_PARTNER ? [EVERY_PARTNER, ...rows.map((r) => r.partnerId)] : [key.partnerId];
  const affected = partners.filter((p) => p === key.partnerId || !find(key.contract, p));
  if (!affected.some((p) => sunset(key.contract, p) && sunset(otherContract(key.contract), p))) return undefined;
  const whom = key.partnerId === EVERY_PARTNER ? 'partners' : 'this partner';
  return fail(
    'NO_CONTRACT_LEFT',
    `Variant A and Variant B would both be sunset for ${whom}, leaving no contract; send force: true (pnpm ops: --force) to do so all the same`,
  );
}

/** `PUT /admin/v1[/partners/{partnerId}]/contracts/{contract}/lifecycle`: replaces the schedule. */
export async function setContractLifecycle(ctx: DomainContext, options: SchedulePath & { body: unknown }) {
  const key = await scheduleKey(ctx, options);
  if (!key.ok) return key;
  const schedule = readSchedule(ctx, options.body);
  if (!schedule.ok) return schedule;
  const { force, ...fields } = schedule.value;
  const row = { ...key.value, ...fields, updatedAt: ctx.clock() };
  const refused = force ? undefined : await noContractLeft(ctx, key.value, row);
  if (refused) return refused;
  await upsertLifecycle(ctx.db, row);
  return ok(lifecycleView(row));
}

/**
 * `DELETE` of the same paths (`?force=true` as for a PUT): the schedule is cleared, and a partner's then
 * follows the every-partner one.
 */
export async function clearContractLifecycle(ctx: DomainContext, options: SchedulePath & { force?: boolean }) {
  const key = await scheduleKey(ctx, options);
  if (!key.ok) return key;
  const refused = options.force ? undefined : await noContractLeft(ctx, key.value);
  if (refused) return refused;
  await deleteLifecycle(ctx.db, key.value.contract, key.value.partnerId);
  const partnerId = key.value.partnerId === EVERY_PARTNER ? null : key.value.partnerId;
  return ok({ contract: key.value.contract, partnerId, cleared: true });
}

/** `GET /admin/v1/contracts`: each contract's every-partner schedule and the partners' own. */
export async function listContracts(ctx: DomainContext) {
  const rows = await readLifecycles(ctx.db);
  const contracts = CONTRACTS.map((contract) => {
    const own = rows.filter((r) => r.contract === contract);
    const every = own.find((r) => r.partnerId === EVERY_PARTNER);
    return {
      contract,
      lifecycle: every ? lifecycleView(every) : null,
      overrides: own.filter((r) => r !== every).map(lifecycleView),
    };
  });
  return ok({ contracts });
}

/** `POST /admin/v1/contracts/{contract}/brownouts` `{from, to, partnerId?}`: at most 24 hours, ending after it starts. */
export async function scheduleBrownout(ctx: DomainContext, options: { contract: string; body: unknown }) {
  const contract = contractOf(options.contract);
  if (!contract.ok) return contract;
  const body = bodyOf(options.body, ['from', 'to', 'partnerId']);
  if (!body.ok) return body;
  const from = timeField(body.value, 'from', true);
  if (!from.ok) return from;
  const to = timeField(body.value, 'to', true);
  if (!to.ok) return to;
  const [startsAt, endsAt] = [from.value!, to.value!];
  if (endsAt <= startsAt) return invalid(violation('to', 'order', 'must be after from'));
  if (endsAt.getTime() - startsAt.getTime() > BROWNOUT_MAX_MS)
    return invalid(violation('to', 'span', 'must be at most 24 hours after from'));
  const partner = body.value.partnerId == null ? ok(null) : await knownPartner(ctx, body.value.partnerId);
  if (!partner.ok) return partner;
  const row = { id: randomUUID(), contract: contract.value, partnerId: partner.value, startsAt, endsAt };
  return ok(brownoutView(await insertBrownout(ctx.db, row)));
}

/** `GET /admin/v1/contracts/{contract}/brownouts`: those not over yet, earliest first. */
export async function listBrownouts(ctx: DomainContext, options: { contract: string }) {
  const contract = contractOf(options.contract);
  if (!contract.ok) return contract;
  const rows = await readBrownouts(ctx.db, ctx.clock());
  return ok({ brownouts: rows.filter((r) => r.contract === contract.value).map(brownoutView) });
}

/** `DELETE /admin/v1/contracts/{contract}/brownouts/{brownoutId}`. */
export async function cancelBrownout(ctx: DomainContext, options: { contract: string; brownoutId: string }) {
  const contract = contractOf(options.contract);
  if (!contract.ok) return contract;
  const id = canonicalUuid(options.brownoutId);
  const row = id ? await deleteBrownout(ctx.db, contract.value, id) : null;
  return row ? ok(brownoutView(row)) : fail('NOT_FOUND', 'Brownout not found');
}

/** `GET /admin/v1/reports/contract-usage?from=&to=`: each partner's requests on each contract over whole UTC days. */
export async function contractUsageReport(ctx: DomainContext, options: { query: ReportQuery }) {
  const window = reportWindow(options.query, ctx.clock());
  if (!window.ok) return window;
  const rows = await readContractUsage(ctx.db, window.value.start, window.value.until);
  const view = rows.map((r) => ({ ...r, lastSeenAt: r.lastSeenAt.toISOString() }));
  return ok({ window: { from: window.value.from, to: window.value.to }, rows: view });
}

const USAGE_COLUMNS = ['partnerId', 'partnerName', 'contract', 'requests', 'lastSeenAt'] as const;

/** The usage report as CSV (RFC 4180, CRLF): a header of the columns, then a row per partner and contract. */
export function contractUsageCsv(rows: Array<Record<(typeof USAGE_COLUMNS)[number], string | number>>): string {
  const lines = rows.map((r) => USAGE_COLUMNS.map((c) => csvCell(String(r[c]))).join(','));
  return `${[USAGE_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
