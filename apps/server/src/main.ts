/**
 * `pnpm start` (all listeners in one process), `pnpm start:a`, `pnpm start:b`, `pnpm start:admin`.
 * SIGTERM and SIGINT drain requests in flight, then exit 0.
 */
import { ConfigError, loadConfig } from './config';
import { MODES, startRuntime, type Mode } from './runtime';

async function main(): Promise<void> {
  const mode = (process.argv[2] ?? 'all') as Mode;
  if (!MODES.includes(mode)) throw new ConfigError(`unknown mode "${mode}"; expected one of ${MODES.join(', ')}`);
  const config = loadConfig();
  const runtime = await startRuntime(config, mode);

  const lines = [
    `LoanMatch (${config.env}) is running${config.databaseUrl ? '' : ` on embedded PostgreSQL in ${config.dataDir}`}:`,
  ];
  for (const l of runtime.listeners) lines.push(`  ${l.name.padEnd(10)} ${l.url}`);
  if (runtime.firstStart.demoApiKey) {
    lines.push(
      '',
      'Created "Demo Partner" (sandbox). Its API key, shown this once:',
      `  ${runtime.firstStart.demoApiKey}`,
    );
  }
  if (runtime.firstStart.adminToken) {
    lines.push(
      '',
      `Admin token, shown this once (also kept in ${config.dataDir}/admin-token for pnpm ops):`,
      `  ${runtime.firstStart.adminToken}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.logger.info('draining', { signal });
    runtime
      .stop()
      .then(() => process.exit(0))
      .catch((err) => {
        runtime.logger.error('shutdown failed', { error: String(err) });
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  const message =
    err instanceof ConfigError
      ? `Configuration error: ${err.message}`
      : `Failed to start: ${err instanceof Error ? err.message : String(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
