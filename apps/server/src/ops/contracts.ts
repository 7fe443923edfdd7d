/** `pnpm ops contract …`: retiring a contract (schedules, brownouts) and who still calls each contract. */
import type { Answered, contractUsageReport, listBrownouts, listContracts } from '@loanmatch/domain';
import type { Command, OptionValues } from 'commander';

type ContractsView = Answered<typeof listContracts>;
type Schedule = NonNullable<ContractsView['contracts'][number]['lifecycle']>;
type BrownoutsView = Answered<typeof listBrownouts>;
type Brownout = BrownoutsView['brownouts'][number];
type UsageView = Answered<typeof contractUsageReport>;

type Admin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>;
type Printing = <D>(
  command: Command,
  run: (args: string[], opts: OptionValues) => Promise<D>,
  lines: (data: D, opts: OptionValues) => string[],
) => Command;

const scheduleLine = (s: Schedule) =>
  `${s.partnerId ? `partner ${s.partnerId}` : 'every partner'}: deprecated ${s.deprecatedAt ?? '-'}, sunset ${s.sunsetAt ?? '-'}, guide ${s.link ?? '-'}`;
const brownoutLine = (b: Brownout) =>
  `${b.brownoutId}  Variant ${b.contract}  ${b.from} to ${b.to}  ${b.partnerId ? `partner ${b.partnerId}` : 'every partner'}`;
/** The schedule's path: the every-partner one, or with `--partner` that partner's. */
const lifecyclePath = (contract: string, opts: OptionValues) =>
  `${opts.partner ? `/partners/${encodeURIComponent(opts.partner)}` : ''}/contracts/${encodeURIComponent(contract)}/lifecycle`;

export function contractCommands(program: Command, admin: Admin, printing: Printing): void {
  const contract = program.command('contract').description('retiring a contract: schedules, brownouts, usage');
  printing(
    contract.command('list').description('each contract’s schedule for every partner and the partners’ own'),
    () => admin<ContractsView>('GET', '/contracts'),
    (data) =>
      data.contracts.flatMap((c) => [
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
      admin<Schedule>('PUT', lifecyclePath(name, opts), {
        deprecatedAt: opts.deprecatedAt,
        sunsetAt: opts.sunsetAt,
        link: opts.link,
        force: opts.force,
      }),
    (data) => [`Variant ${data.contract}, ${scheduleLine(data)}; in force on every process within seconds.`],
  );
  printing(
    contract
      .command('clear <contract>')
      .description('clear the schedule of a contract, for every partner or with --partner one')
      .option('--partner <partnerId>', 'the partner whose own schedule this is'),
    ([name], opts) => admin('DELETE', lifecyclePath(name, opts)),
    (data) => [
      `Variant ${data.contract}: schedule cleared for ${data.partnerId ? `partner ${data.partnerId}` : 'every partner'}.`,
    ],
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
      admin<Brownout>('POST', `/contracts/${encodeURIComponent(name)}/brownouts`, {
        from: opts.from,
        to: opts.to,
        partnerId: opts.partner,
      }),
    (data) => [`Scheduled ${brownoutLine(data)}.`],
  );
  printing(
    brownout.command('list <contract>').description('brownouts not over yet'),
    ([name]) => admin<BrownoutsView>('GET', `/contracts/${encodeURIComponent(name)}/brownouts`),
    (data) => (data.brownouts.length ? data.brownouts.map(brownoutLine) : ['No brownout scheduled.']),
  );
  printing(
    brownout.command('cancel <contract> <brownoutId>'),
    ([name, brownoutId]) =>
      admin<Brownout>('DELETE', `/contracts/${encodeURIComponent(name)}/brownouts/${encodeURIComponent(brownoutId)}`),
    (data) => [`Cancelled ${brownoutLine(data)}.`],
  );

  printing(
    contract
      .command('usage')
      .description('requests per partner on each contract over whole UTC days (the last 30 by default)')
      .option('--from <day>', 'first day, YYYY-MM-DD')
      .option('--to <day>', 'last day, YYYY-MM-DD'),
    (_, opts) => {
      const query = new URLSearchParams(Object.entries({ from: opts.from, to: opts.to }).filter(([, v]) => v));
      return admin<UsageView>('GET', `/reports/contract-usage?${query}`);
    },
    (data) => [
      `Requests from ${data.window.from} to ${data.window.to}:`,
      ...data.rows.map(
        (r) => `    ${r.partnerName} (${r.partnerId})  Variant ${r.contract}  ${r.requests}  last ${r.lastSeenAt}`,
      ),
    ],
  );
}
