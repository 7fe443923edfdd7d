/** The two documents as the tool tests take them, and where the tools' entry points are. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { variantADocument, variantBDocument, type Schema } from '@loanmatch/http';

/** Both documents as a deployment serves them: each listener at a public https address. */
export function servedDocuments(): { a: Schema; b: Schema } {
  return {
    a: variantADocument({
      basePath: '/api/partner/v1',
      publicUrl: 'https://partners.example.test',
      environment: 'sandbox',
    }),
    b: variantBDocument({ basePath: '/v1', publicUrl: 'https://partners-b.example.test', environment: 'sandbox' }),
  };
}

/**
 * A folder for the files a tool reads, below this one (Spectral resolves its ruleset's overrides against
 * paths under the ruleset's folder), removed by `remove`.
 */
export function workFolder(): { dir: string; write(name: string, value: unknown): string; remove(): void } {
  const dir = mkdtempSync(join(__dirname, 'work-'));
  return {
    dir,
    write: (name, value) => {
      const path = join(dir, name);
      writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The JavaScript entry of a package's command, run with this Node (not a shell wrapper). */
export function commandOf(pkg: string, bin: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = require(manifest) as { bin: Record<string, string> };
  return join(manifest, '..', bins[bin]);
}
