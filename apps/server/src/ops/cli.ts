/**
 * `pnpm ops …`: the operators' command line over the admin API at ADMIN_URL, with ADMIN_TOKEN or the
 * token in DATA_DIR/admin-token. Every command prints lines, or with `--json` the API's data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  validateOutcomeEvent,
  type Answered,
  type getApplicationConsents,
  type getDataKeyStatus,
  type listLenders,
  type listPartners,
  type listTiers,
  type reencryptPersonalData,
} from '@loanmatch/domain';
import { Command, InvalidArgumentError, type OptionValues } from 'commander';
import { contractCommands } from './contracts';

type DataKeyStatus = Answered<typeof getDataKeyStatus>;
type ReencryptionReport = Answered<typeof reencryptPersonalData>;
type ConsentsReport = Answered<typeof getApplicationConsents>;

export interface OpsIO {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  fetch: typeof fetch;
}

type Data = Record<string, unknown>;

async function call<T = Data>(io: OpsIO, method: string, path: string, body?: unknown): Promise<T> {
  const base = (io.env.ADMIN_URL ?? `http://127.0.0.1:${io.env.PORT_ADMIN ?? '3002'}/admin/v1`).replace(/\/+$/, '');
  const token = adminToken(io.env);
  let res: Response;
  try {
    res = await io.fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw new Error(`cannot reach the admin API at ${base}: ${(err as Error).message}`);
  }
  const payload = (await res.json().catch(() => ({}))) as {
    success?: boolean;
    data?: T;
    error?: string;
    message?: string;
  };
  if (!res.ok || !payload.success)
    throw new Error(`${payload.error ?? res.status}: ${payload.message ?? res.statusText}`);
  return payload.data ?? ({} as T);
}

function adminToken(env: OpsIO['env']): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const path = join(env.DATA_DIR ?? './data', 'admin-token');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new Error(`no admin token: set ADMIN_TOKEN, or run where ${path} exists`);
  }
}

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

const id = encodeURIComponent;

/** The events a simulation sends to bring a referral to each outcome, in the order they occur. */
const SIMULATED_PATHS: Readonly<Record<string, readonly string[]>> = {
  application_started: ['application_started'],
  approved: ['application_started', 'approved'],
  declined: ['application_started', 'declined'],
  funded: ['application_started', 'approved', 'funded'],
  withdrawn: ['application_started', 'withdrawn'],
  cancelled: ['application_started', 'approved', 'funded', 'cancelled'],
};

function buildProgram(io: OpsIO): Command {
  const program = new Command('ops').description('LoanMatch operators’ command line').exitOverride();
  program.configureOutput({ writeOut: io.out, writeErr: io.err });
  const admin = <T = Data>(method: string, path: string, body?: unknown) => call<T>(io, method, path, body);
  const print = (json: boolean, data: unknown, lines: () => string[]) =>
    io.out(json ? `${JSON.stringify(data, null, 2)}\n` : `${lines().join('\n')}\n`);
  /** Adds `--json` and the action: `run` gets the command's arguments and options and answers the data to print. */
  const printing = <D>(
    command: Command,
    run: (args: string[], opts: OptionValues) => Promise<D>,
    lines: (data: D, opts: OptionValues) => string[],
  ) =>
    command.option('--json', 'print JSON').action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const opts = self.opts();
      const data = await run(self.args, opts);
      print(opts.json, data, () => lines(data, opts));
    });

  const partner = program.command('partner').description('partners and their keys');
  printing(
    partner
      .command('create')
      .description('create a partner and its first API key (shown once)')
      .requiredOption('--name <name>', 'partner name')
      .option('--tier <tier>', 'free, standard or enterprise', 'standard')
      .option('--environment <env>', 'sandbox or live (default: the server’s)'),
    (_, opts) =>
      admin('POST', '/partners', { name: opts.name, tier: opts.tier, environment: opts.environment || undefined }),
    (data) => [
      `Created partner ${data.partnerId} (${data.name}, ${data.tier}, ${data.environment}).`,
      `API key, shown this once: ${data.apiKey}`,
    ],
  );
  printing(
    partner.command('list').description('list partners and their keys (never the keys themselves)'),
    () => admin<Answered<typeof listPartners>>('GET', '/partners'),
    (data) =>
      data.partners.flatMap((p) => [
        `${p.partnerId}  ${p.name}  ${p.tier}  ${p.environment}`,
        ...p.keys.map((k) => `    key ${k.keyId}  ${k.prefix}…  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`),
      ]),
  );

  const key = program.command('key').description('API keys');
  printing(
    key.command('issue <partnerId>').description('issue another API key for a partner (shown once)'),
    ([partnerId]) => admin('POST', `/partners/${id(partnerId)}/keys`),
    (data) => [`Issued key ${data.keyId}. API key, shown this once: ${data.apiKey}`],
  );
  printing(
    key.command('revoke <keyId>').description('revoke a partner’s API key or a lender’s key'),
    ([keyId]) => admin('DELETE', `/keys/${id(keyId)}`),
    (data) => [`Revoked key ${data.keyId} at ${data.revokedAt}.`],
  );

  const catalogue = program.command('catalogue').description('the lender catalogue');
  printing(
    catalogue.command('show').description('the catalogue in force: version and size'),
    () => admin('GET', '/catalogue'),
    (data) => [
      `Catalogue effective from ${data.effectiveFrom}: ${data.lenders} lenders, ${data.products} products (in force since ${data.updatedAt}).`,
    ],
  );
  printing(
    catalogue
      .command('load <file>')
      .description('put a catalogue file in force on every process; a broken one is refused and the old one stays'),
    ([file]) => {
      let document: unknown;
      try {
        document = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new Error(`cannot read ${file} as JSON: ${(err as Error).message}`);
      }
      return admin('PUT', '/catalogue', document);
    },
    (data) => [
      `Catalogue effective from ${data.effectiveFrom} is in force: ${data.lenders} lenders, ${data.products} products.`,
    ],
  );

  const tier = program.command('tier').description('Variant B rate tiers');
  printing(
    tier.command('list').description('each tier and the requests an hour it allows a partner'),
    () => admin<Answered<typeof listTiers>>('GET', '/tiers'),
    (data) => data.tiers.map((t) => `${t.tier.padEnd(10)} ${t.requestsPerHour} requests per hour`),
  );
  printing(
    tier
      .command('set <tier>')
      .description('change the requests an hour of a tier; every process applies it within 2 s')
      .requiredOption('--per-hour <n>', 'requests per hour', positiveInt),
    ([name], opts) => admin('PUT', `/tiers/${id(name)}`, { requestsPerHour: opts.perHour }),
    (data) => [`Tier ${data.tier} now allows ${data.requestsPerHour} requests per hour.`],
  );

  contractCommands(program, admin, printing);

  const application = program.command('application').description('applications');
  printing(
    application
      .command('erase <applicationId>')
      .description(
        'erase the applicant’s personal data (step 5, Variant B’s intake, addresses and employer in steps 1-4, the exact score); the rest is kept for reporting',
      ),
    ([applicationId]) => admin('DELETE', `/applications/${id(applicationId)}/personal-data`),
    (data) => [`Erased the personal data of application ${data.applicationId} (erased at ${data.erasedAt}).`],
  );
  printing(
    application
      .command('consents <applicationId>')
      .description(
        'the consent records of an application: what was agreed to, under which wording, when, through which partner',
      ),
    ([applicationId]) => admin<ConsentsReport>('GET', `/applications/${id(applicationId)}/consents`),
    consentLines,
  );
  printing(
    application
      .command('disclosures <applicationId>')
      .description(
        'the leads of an application shown to lenders: which lender, which referral, pulled or pushed, when',
      ),
    ([applicationId]) => admin<{ disclosures: Data[] }>('GET', `/applications/${id(applicationId)}/disclosures`),
    (data) =>
      data.disclosures.length === 0
        ? ['No lead of this application has been shown to a lender.']
        : data.disclosures.map((d) => `${d.at}  ${d.lenderId}  ${d.reference}  ${d.channel}`),
  );
  printing(
    program
      .command('lead')
      .description('leads as lenders receive them')
      .command('show <reference>')
      .description('a lead (its lm_ref) as its lender reads it; not recorded as shown to the lender'),
    ([reference]) => admin('GET', `/leads/${id(reference)}`),
    (data) => JSON.stringify(data, null, 2).split('\n'),
  );

  const dataKey = program
    .command('data-key')
    .description('the key that seals applicant details (DATA_KEY, DATA_PREVIOUS_KEYS)');
  printing(
    dataKey
      .command('status')
      .description('how many values (applicant details, employers and addresses, scores) each data key seals'),
    () => admin<DataKeyStatus>('GET', '/data-key'),
    dataKeyLines,
  );
  dataKey
    .command('rotate')
    .description(
      'finish a rotation: re-encrypt every value sealed under an earlier key with the current DATA_KEY, in batches, while the server serves',
    )
    .option('--json', 'print JSON')
    .action(async (opts) => {
      let reencrypted = 0;
      let data: ReencryptionReport;
      do {
        data = await admin<ReencryptionReport>('POST', '/data-key/re-encrypt');
        reencrypted += data.reencrypted;
      } while (!data.complete);
      print(opts.json, { ...data, reencrypted }, () => [
        `Re-encrypted ${reencrypted} sealed value(s) under data key ${data.currentKeyId}.`,
        ...dataKeyLines(data),
      ]);
      if (data.remaining > 0)
        throw new Error(
          `${data.remaining} value(s) are still sealed under earlier keys that this server cannot open: configure those keys in DATA_PREVIOUS_KEYS and run again`,
        );
    });
  const lender = program.command('lender').description('lenders and their keys for reporting outcomes');
  printing(
    lender.command('list').description('the catalogue’s lenders and their keys (never the keys themselves)'),
    () => admin<Answered<typeof listLenders>>('GET', '/lenders'),
    (data) =>
      data.lenders.flatMap((l) => [
        `${l.lenderId}  ${l.name}${l.active ? '' : '  (no longer in the catalogue)'}`,
        ...l.keys.map(
          (k) =>
            `    key ${k.keyId}  ${k.prefix}…  ${k.environment}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`,
        ),
      ]),
  );
  printing(
    lender
      .command('key')
      .description('lender keys')
      .command('issue <lenderId>')
      .description('issue a key a lender reports outcomes with (shown once); revoke it with `ops key revoke`')
      .option('--environment <env>', 'sandbox or live (default: the server’s)'),
    ([lenderId], opts) =>
      admin('POST', `/lenders/${id(lenderId)}/keys`, { environment: opts.environment || undefined }),
    (data) => [
      `Issued ${data.environment} key ${data.keyId} for lender ${data.lenderId}.`,
      `Lender key, shown this once: ${data.apiKey}`,
    ],
  );

  printing(
    program
      .command('outcome')
      .description('lenders’ outcomes of referrals (sandbox simulation)')
      .command('simulate <reference>')
      .description(
        'sandbox only: report outcomes for a referral (its lm_ref) as its lender would, one event per stage up to --through',
      )
      .requiredOption('--through <status>', Object.keys(SIMULATED_PATHS).join(', '))
      .option('--amount <dollars>', 'the funded amount (funded, cancelled)', '10000')
      .option('--reason <declineReason>', 'the decline reason (declined)', 'other'),
    async ([reference], opts) => {
      const path = SIMULATED_PATHS[opts.through];
      if (!path) throw new Error(`--through must be one of ${Object.keys(SIMULATED_PATHS).join(', ')}`);
      // One event a second, ending now; each checked before any is sent, so a bad one records none.
      const start = Date.now() - path.length * 1000;
      const bodies = path.map((type, i) => {
        const occurredAt = new Date(start + i * 1000).toISOString();
        return {
          reference,
          type,
          occurredAt,
          ...(type === 'funded' ? { fundedAmount: opts.amount, fundedAt: occurredAt } : {}),
          ...(type === 'declined' ? { declineReason: opts.reason } : {}),
        };
      });
      for (const body of bodies) {
        const checked = validateOutcomeEvent({ eventId: 'simulated', ...body }, new Date());
        if (!checked.ok) throw new Error(`${checked.error.code}: ${checked.error.message}`);
      }
      const events: Data[] = [];
      for (const body of bodies) events.push(await admin('POST', '/sandbox/outcomes', body));
      const last = events[events.length - 1];
      return { referralId: last.referralId, status: last.status, events };
    },
    (data, opts) => [
      ...SIMULATED_PATHS[opts.through].map((type) => `    ${type}`),
      `Referral ${data.referralId} is now ${data.status}.`,
    ],
  );
  return program;
}

function consentLines(data: ConsentsReport): string[] {
  if (data.consents.length === 0)
    return [`Application ${data.applicationId} has no consent record: no credit check has run.`];
  return data.consents.flatMap((c) => [
    `Consent record ${c.consentRecordId} of application ${data.applicationId}, partner ${c.partnerId}:`,
    `    given:       ${Object.entries(c.consents)
      .map(([kind, given]) => `${kind} ${given ? 'yes' : 'no'}`)
      .join(', ')}`,
    `    wording:     version ${c.textVersion}${c.textVersionStated ? '' : ' (not stated by the partner: the version current at the check)'}`,
    ...Object.entries(c.wording).map(([kind, text]) => `      ${kind}: ${text}`),
    `    captured at: ${c.capturedAt ?? 'not stated by the partner'}`,
    `    recorded at: ${c.recordedAt} (the credit check)`,
    `    reference:   ${c.partnerReference ?? (c.erasedAt ? 'removed by erasure' : 'none')}`,
    ...(c.erasedAt ? [`    erased at:   ${c.erasedAt} (the facts above are kept)`] : []),
  ]);
}

function dataKeyLines(data: DataKeyStatus): string[] {
  const state = (k: { current: boolean; configured: boolean }, lost: string) =>
    k.current ? 'current' : k.configured ? 'earlier key, configured' : `earlier key, NOT configured: ${lost}`;
  return [
    `Current data key: ${data.currentKeyId}.`,
    ...data.keys.map((k) => `    ${k.keyId}  ${k.rows} sealed value(s)  ${state(k, 'these values cannot be read')}`),
    ...data.idempotencyKeys.map(
      (k) => `    ${k.keyId}  ${k.live} live idempotency key(s)  ${state(k, 'their retries cannot be compared')}`,
    ),
    data.remaining > 0
      ? `${data.remaining} sealed value(s) under earlier keys: run pnpm ops data-key rotate before removing any key from DATA_PREVIOUS_KEYS.`
      : data.idempotencyKeysRemaining > 0
        ? `No sealed values under earlier keys, but ${data.idempotencyKeysRemaining} live idempotency key(s) are: keep the earlier keys in DATA_PREVIOUS_KEYS until they expire (24 hours after their request at most).`
        : 'No sealed values or live idempotency keys under earlier keys: DATA_PREVIOUS_KEYS can be emptied.',
  ];
}

/** Runs the CLI; answers the exit code. */
export async function runOps(argv: string[], io: OpsIO): Promise<number> {
  try {
    await buildProgram(io).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    const e = err as { code?: string; exitCode?: number; message?: string };
    // Commander's own exits (help, a usage error) carry their code: 0 for help it was asked for.
    if (e.code?.startsWith('commander.')) return e.exitCode ?? 2;
    io.err(`ops: ${e.message ?? String(err)}\n`);
    return 1;
  }
}
