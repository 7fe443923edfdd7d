/**
 * `pnpm ops …`: the operators' command line over the admin API. It talks HTTP to a running server
 * (ADMIN_URL, default http://127.0.0.1:3002/admin/v1) with ADMIN_TOKEN, or with the token the server
 * keeps in DATA_DIR/admin-token.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsentRecordView } from '@loanmatch/domain';
import { Command, InvalidArgumentError } from 'commander';
import { addLifecycleCommands, addSimulationCommands } from './lifecycle-commands';

export interface OpsIO {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  fetch: typeof fetch;
}

class OpsError extends Error {}

function adminUrl(env: OpsIO['env']): string {
  return (env.ADMIN_URL ?? `http://127.0.0.1:${env.PORT_ADMIN ?? '3002'}/admin/v1`).replace(/\/+$/, '');
}

function adminToken(env: OpsIO['env']): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const path = join(env.DATA_DIR ?? './data', 'admin-token');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    throw new OpsError(`no admin token: set ADMIN_TOKEN, or run where ${path} exists`);
  }
}

async function call(io: OpsIO, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await io.fetch(`${adminUrl(io.env)}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${adminToken(io.env)}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw new OpsError(`cannot reach the admin API at ${adminUrl(io.env)}: ${(err as Error).message}`);
  }
  const payload = (await res.json().catch(() => ({}))) as {
    success?: boolean;
    data?: Record<string, unknown>;
    error?: string;
    message?: string;
  };
  if (!res.ok || !payload.success)
    throw new OpsError(`${payload.error ?? res.status}: ${payload.message ?? res.statusText}`);
  return payload.data ?? {};
}

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

export function buildProgram(io: OpsIO): Command {
  const program = new Command('ops').description('LoanMatch operators’ command line').exitOverride();
  program.configureOutput({ writeOut: io.out, writeErr: io.err });
  const print = (json: boolean, data: unknown, lines: () => string[]) =>
    io.out(json ? `${JSON.stringify(data, null, 2)}\n` : `${lines().join('\n')}\n`);

  const partner = program.command('partner').description('partners and their keys');
  partner
    .command('create')
    .description('create a partner and its first API key (shown once)')
    .requiredOption('--name <name>', 'partner name')
    .option('--tier <tier>', 'free, standard or enterprise', 'standard')
    .option('--environment <env>', 'sandbox or live (default: the server’s)')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const data = await call(io, 'POST', '/partners', {
        name: opts.name,
        tier: opts.tier,
        ...(opts.environment ? { environment: opts.environment } : {}),
      });
      print(opts.json, data, () => [
        `Created partner ${data.partnerId} (${data.name}, ${data.tier}, ${data.environment}).`,
        `API key, shown this once: ${data.apiKey}`,
      ]);
    });
  partner
    .command('list')
    .description('list partners and their keys (never the keys themselves)')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const data = await call(io, 'GET', '/partners');
      const partners = data.partners as Array<{
        partnerId: string;
        name: string;
        tier: string;
        environment: string;
        keys: Array<{ keyId: string; prefix: string; revokedAt: string | null }>;
      }>;
      print(opts.json, data, () =>
        partners.flatMap((p) => [
          `${p.partnerId}  ${p.name}  ${p.tier}  ${p.environment}`,
          ...p.keys.map(
            (k) => `    key ${k.keyId}  ${k.prefix}…  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`,
          ),
        ]),
      );
    });

  const key = program.command('key').description('API keys');
  key
    .command('issue <partnerId>')
    .description('issue another API key for a partner (shown once)')
    .option('--json', 'print JSON')
    .action(async (partnerId: string, opts) => {
      const data = await call(io, 'POST', `/partners/${encodeURIComponent(partnerId)}/keys`);
      print(opts.json, data, () => [`Issued key ${data.keyId}. API key, shown this once: ${data.apiKey}`]);
    });
  key
    .command('revoke <keyId>')
    .description('revoke a partner’s API key or a lender’s key')
    .option('--json', 'print JSON')
    .action(async (keyId: string, opts) => {
      const data = await call(io, 'DELETE', `/keys/${encodeURIComponent(keyId)}`);
      print(opts.json, data, () => [`Revoked key ${data.keyId} at ${data.revokedAt}.`]);
    });

  const catalogue = program.command('catalogue').description('the lender catalogue');
  catalogue
    .command('show')
    .description('the catalogue in force: version and size')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const data = await call(io, 'GET', '/catalogue');
      print(opts.json, data, () => [
        `Catalogue effective from ${data.effectiveFrom}: ${data.lenders} lenders, ${data.products} products (in force since ${data.updatedAt}).`,
      ]);
    });
  catalogue
    .command('load <file>')
    .description('put a catalogue file in force on every process; a broken one is refused and the old one stays')
    .option('--json', 'print JSON')
    .action(async (file: string, opts) => {
      let document: unknown;
      try {
        document = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new OpsError(`cannot read ${file} as JSON: ${(err as Error).message}`);
      }
      const data = await call(io, 'PUT', '/catalogue', document);
      print(opts.json, data, () => [
        `Catalogue effective from ${data.effectiveFrom} is in force: ${data.lenders} lenders, ${data.products} products.`,
      ]);
    });

  const tier = program.command('tier').description('Variant B rate tiers');
  tier
    .command('list')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const data = await call(io, 'GET', '/tiers');
      const tiers = data.tiers as Array<{ tier: string; requestsPerHour: number }>;
      print(opts.json, data, () => tiers.map((t) => `${t.tier.padEnd(10)} ${t.requestsPerHour} requests per hour`));
    });
  tier
    .command('set <tier>')
    .requiredOption('--per-hour <n>', 'requests per hour', positiveInt)
    .option('--json', 'print JSON')
    .action(async (name: string, opts) => {
      const data = await call(io, 'PUT', `/tiers/${encodeURIComponent(name)}`, { requestsPerHour: opts.perHour });
      print(opts.json, data, () => [`Tier ${data.tier} now allows ${data.requestsPerHour} requests per hour.`]);
    });

  const application = program.command('application').description('applications');
  application
    .command('erase <applicationId>')
    .description(
      'erase the applicant’s personal data (step 5, Variant B’s intake); the rest of the application is kept for reporting',
    )
    .option('--json', 'print JSON')
    .action(async (applicationId: string, opts) => {
      const data = await call(io, 'DELETE', `/applications/${encodeURIComponent(applicationId)}/personal-data`);
      print(opts.json, data, () => [
        `Erased the personal data of application ${data.applicationId} (erased at ${data.erasedAt}).`,
      ]);
    });

  application
    .command('consents <applicationId>')
    .description(
      'the consent records of an application: what was agreed to, under which wording, when, through which partner',
    )
    .option('--json', 'print JSON')
    .action(async (applicationId: string, opts) => {
      const data = await call(io, 'GET', `/applications/${encodeURIComponent(applicationId)}/consents`);
      print(opts.json, data, () => consentLines(data as unknown as ConsentsReport));
    });

  const dataKey = program
    .command('data-key')
    .description('the key that seals applicant details (DATA_KEY, DATA_PREVIOUS_KEYS)');
  dataKey
    .command('status')
    .description('how many values (applicant details, employers and addresses, scores) each data key seals')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const data = (await call(io, 'GET', '/data-key')) as unknown as DataKeyReport;
      print(opts.json, data, () => dataKeyLines(data));
    });
  dataKey
    .command('rotate')
    .description(
      'finish a rotation: re-encrypt every value sealed under an earlier key with the current DATA_KEY, in batches, while the server serves',
    )
    .option('--json', 'print JSON')
    .action(async (opts) => {
      let reencrypted = 0;
      let data: DataKeyReport & { reencrypted: number; unreadable: number; complete: boolean };
      do {
        data = (await call(io, 'POST', '/data-key/re-encrypt')) as unknown as typeof data;
        reencrypted += data.reencrypted;
      } while (!data.complete);
      print(opts.json, { ...data, reencrypted }, () => [
        `Re-encrypted ${reencrypted} sealed value(s) under data key ${data.currentKeyId}.`,
        ...dataKeyLines(data),
      ]);
      if (data.remaining > 0)
        throw new OpsError(
          `${data.remaining} value(s) are still sealed under earlier keys that this server cannot open: configure those keys in DATA_PREVIOUS_KEYS and run again`,
        );
    });
  const admin = (method: string, path: string, body?: unknown) => call(io, method, path, body);
  addLifecycleCommands(program, admin, print);
  addSimulationCommands(program, admin, print);
  return program;
}

/** What `GET /admin/v1/applications/{id}/consents` answers. */
interface ConsentsReport {
  applicationId: string;
  consents: ConsentRecordView[];
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
    `    captured at: ${c.capturedAt ?? 'not stated by the partner'}`,
    `    recorded at: ${c.recordedAt} (the credit check)`,
    `    reference:   ${c.partnerReference ?? (c.erasedAt ? 'removed by erasure' : 'none')}`,
    ...(c.erasedAt ? [`    erased at:   ${c.erasedAt} (the facts above are kept)`] : []),
  ]);
}

interface DataKeyReport {
  currentKeyId: string;
  keys: Array<{ keyId: string; rows: number; current: boolean; configured: boolean }>;
  remaining: number;
  idempotencyKeys: Array<{ keyId: string; live: number; current: boolean; configured: boolean }>;
  idempotencyKeysRemaining: number;
}

function dataKeyLines(data: DataKeyReport): string[] {
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
    if (e.code?.startsWith('commander.'))
      return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : (e.exitCode ?? 2);
    io.err(`ops: ${e.message ?? String(err)}\n`);
    return 1;
  }
}
