/** `pnpm ops contract …`: retiring a contract (schedules, brownouts) and who still calls each contract. */
import type { Command, OptionValues } from 'commander';

type Data = Record<string, unknown>;
type Admin = (method: string, path: string, body?: unknown) => Promise<Data>;
type Printing = (
  command: Command,
  run: (args: string[], opts: OptionValues) => Promise<Data>,
  lines: (data: Data) => string[],
) => Command;
type Row = Record<string, string | number | null>;

const whom = (row: Row) => (row.partnerId ? `partner ${row.partnerId}` : 'every partner');
const scheduleLine = (s: Row) =>
  `${whom(s)}: deprecated ${s.deprecatedAt ?? '-'}, sunset ${s.sunsetAt ?? '-'}, guide ${s.link ?? '-'}`;
const brownoutLine = (b: Row) => `${b.brownoutId}  Variant ${b.contract}  ${b.from} to ${b.to}  ${whom(b)}`;
const contractPath = (contract: string, opts: OptionValues = {}) =>
  `${opts.partner ? `/partners/${encodeURIComponent(opts.partner)}` : ''}/contracts/${encodeURIComponent(contract)}`;

export function contractCommands(program: Command, admin: Admin, printing: Printing): void {
  const contract = program.command('contract').description('retiring a contract: schedules, brownouts, usage');
  printing(
    contract.command('list').description('each contract’s schedule for every partner and the partners’ own'),
    () => admin('GET', '/contracts'),
    (data) =>
      (data.contracts as Array<{ contract: string; lifecycle: Row | null; overrides: Row[] }>).flatMap((c) => [
        `Variant ${c.contract}`,
        `    ${c.lifecycle ? scheduleLine(c.lifecycle) : 'every partner: nothing scheduled'}`,
        ...c.overrides.map((o) => `    ${scheduleLine(o)}`),
      ]),
  );
  printing(
    contract
      .command('set <contract>')
      .description('replace the schedule of a contract (A or B), for every partner or with --partner one')
      .option('--partner <partnerId>', 'the partner whose own schedule this is')
      .option('--deprecated-at <time>', 'from when answers carry Deprecation (RFC 3339)')
      .option('--sunset-at <time>', 'from when the contract answers 410 (RFC 3339)')
      .option('--link <url>', 'the migration guide')
      .option('--force', 'even when it leaves a partner no contract'),
    ([name], opts) =>
      admin('PUT', `${contractPath(name, opts)}/lifecycle`, {
        deprecatedAt: opts.deprecatedAt,
        sunsetAt: opts.sunsetAt,
        link: opts.link,
        force: opts.force,
      }),
    (data) => [`Variant ${data.contract}, ${scheduleLine(data as Row)}; in force on every process within seconds.`],
  );
  printing(
    contract
      .command('clear <contract>')
      .description('clear the schedule of a contract, for every partner or with --partner one')
      .option('--partner <partnerId>', 'the partner whose own schedule this is')
      .option('--force', 'even when it leaves a partner no contract'),
    ([name], opts) => admin('DELETE', `${contractPath(name, opts)}/lifecycle${opts.force ? '?force=true' : ''}`),
    (data) => [`Variant ${data.contract}: schedule cleared for ${whom(data as Row)}.`],
  );

  const brownout = contract.command('brownout').description('windows in which a contract answers 410');
  printing(
    brownout
      .command('add <contract>')
      .description('schedule a brownout of at most 24 hours')
      .requiredOption('--from <time>', 'start (RFC 3339)')
      .requiredOption('--to <time>', 'end (RFC 3339)')
      .option('--partner <partnerId>', 'only this partner'),
    ([name], opts) =>
      admin('POST', `${contractPath(name)}/brownouts`, { from: opts.from, to: opts.to, partnerId: opts.partner }),
    (data) => [`Scheduled ${brownoutLine(data as Row)}.`],
  );
  printing(
    brownout.command('list <contract>').description('brownouts not over yet'),
    ([name]) => admin('GET', `${contractPath(name)}/brownouts`),
    (data) =>
      (data.brownouts as Row[]).length ? (data.brownouts as Row[]).map(brownoutLine) : ['No brownout scheduled.'],
  );
  printing(
    brownout.command('cancel <contract> <brownoutId>'),
    ([name, id]) => admin('DELETE', `${contractPath(name)}/brownouts/${encodeURIComponent(id)}`),
    (data) => [`Cancelled ${brownoutLine(data as Row)}.`],
  );
  printing(
    contract
      .command('usage')
      .description('requests per partner on each contract over whole UTC days (the last 30 by default)')
      .option('--from <day>', 'first day, YYYY-MM-DD')
      .option('--to <day>', 'last day, YYYY-MM-DD'),
    (_, opts) => {
      const days = Object.entries(opts).filter(([name]) => name === 'from' || name === 'to');
      return admin('GET', `/reports/contract-usage?${new URLSearchParams(days)}`);
    },
    (data) => [
      `Requests from ${(data.window as Row).from} to ${(data.window as Row).to}:`,
      ...(data.rows as Row[]).map(
        (r) => `    ${r.partnerName} (${r.partnerId})  Variant ${r.contract}  ${r.requests}  last ${r.lastSeenAt}`,
      ),
    ],
  );
}
