/**
 * `pnpm ops lender …`: lenders' keys for reporting outcomes (CONTRACT.md "Referral lifecycle"), over the
 * admin API. Given `call` and `print` by the command line that mounts them.
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
