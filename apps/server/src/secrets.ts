import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomSecret } from '@loanmatch/domain';

/**
 * A secret the server makes on first start and keeps in DATA_DIR (mode 0600), unless configured.
 * `created` is true only on the start that made it, so it is printed once.
 */
export function loadOrCreateSecret(
  dataDir: string,
  file: string,
  configured: string | undefined,
  prefix = '',
): { value: string; created: boolean } {
  if (configured) return { value: configured, created: false };
  const path = join(dataDir, file);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), created: false };
  mkdirSync(dataDir, { recursive: true });
  const value = `${prefix}${randomSecret()}`;
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return { value, created: true };
}
