/**
 * `pnpm ops lender …` (lenders' keys for reporting outcomes) and `pnpm ops outcome simulate` (a lender's
 * outcomes in the sandbox), over the admin API (CONTRACT.md "Referral lifecycle"). Given `call` and
 * `print` by the command line that mounts them.
 */
import type { Command } from 'commander';

export type AdminCall = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;
export type Print = (json: boolean, data: unknown, lines: () => string[]) => void;

export function addLifecycleCommands(program: Command, call: AdminCall, print: Print): void {
  const lender = program.command('lender').description('lenders and their keys for reporting outcomes');
  lender
    .command('list')
    .description('the catalogue’s lenders and their keys (never the keys themselves)')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const data = await call('GET', '/lenders');
      const lenders = data.lenders as Array<{
        lenderId: string;
        name: string;
        active: boolean;
        keys: Array<{ keyId: string; prefix: string; environment: string; revokedAt: string | null }>;
      }>;
      print(opts.json, data, () =>
        lenders.flatMap((l) => [
          `${l.lenderId}  ${l.name}${l.active ? '' : '  (no longer in the catalogue)'}`,
          ...l.keys.map(
            (k) =>
              `    key ${k.keyId}  ${k.prefix}…  ${k.environment}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`,
          ),
        ]),
      );
    });
  const key = lender.command('key').description('lender keys');
  key
    .command('issue <lenderId>')
    .description('issue a key a lender reports outcomes with (shown once); revoke it with `ops key revoke`')
    .option('--environment <env>', 'sandbox or live (default: the server’s)')
    .option('--json', 'print JSON')
    .action(async (lenderId: string, opts) => {
      const data = await call(
        'POST',
        `/lenders/${encodeURIComponent(lenderId)}/keys`,
        opts.environment ? { environment: opts.environment } : {},
      );
      print(opts.json, data, () => [
        `Issued ${data.environment} key ${data.keyId} for lender ${data.lenderId}.`,
        `Lender key, shown this once: ${data.apiKey}`,
      ]);
    });
}

/** The events a simulation sends to bring a referral to each outcome, in the order they occur. */
export const SIMULATED_PATHS: Readonly<Record<string, readonly string[]>> = {
  application_started: ['application_started'],
  approved: ['application_started', 'approved'],
  declined: ['application_started', 'declined'],
  funded: ['application_started', 'approved', 'funded'],
  withdrawn: ['application_started', 'withdrawn'],
  cancelled: ['application_started', 'approved', 'funded', 'cancelled'],
};

export function addSimulationCommands(program: Command, call: AdminCall, print: Print): void {
  const outcome = program.command('outcome').description('lenders’ outcomes of referrals (sandbox simulation)');
  outcome
    .command('simulate <reference>')
    .description(
      'sandbox only: report outcomes for a referral (its lm_ref) as its lender would, one event per stage up to --through',
    )
    .requiredOption('--through <status>', Object.keys(SIMULATED_PATHS).join(', '))
    .option('--amount <dollars>', 'the funded amount (funded, cancelled)', '10000')
    .option('--reason <declineReason>', 'the decline reason (declined)', 'other')
    .option('--json', 'print JSON')
    .action(async (reference: string, opts) => {
      const path = SIMULATED_PATHS[opts.through];
      if (!path) throw new Error(`--through must be one of ${Object.keys(SIMULATED_PATHS).join(', ')}`);
      const start = Date.now() - path.length * 1000;
      const answers: Array<Record<string, unknown>> = [];
      for (const [i, type] of path.entries()) {
        const occurredAt = new Date(start + i * 1000).toISOString();
        answers.push(
          await call('POST', '/sandbox/outcomes', {
            reference,
            type,
            occurredAt,
            ...(type === 'funded' ? { fundedAmount: opts.amount, fundedAt: occurredAt } : {}),
            ...(type === 'declined' ? { declineReason: opts.reason } : {}),
          }),
        );
      }
      const last = answers[answers.length - 1];
      print(opts.json, { referralId: last.referralId, status: last.status, events: answers }, () => [
        ...path.map((type, i) => `    ${type}: ${answers[i].status}`),
        `Referral ${last.referralId} is now ${last.status}.`,
      ]);
    });
}
