/** What the ops tests share: the admin API on a loopback port, and `pnpm ops` run against it. */
import type { Server } from 'node:http';
import { createAdminApp } from '../../src/admin/app';
import type { DomainContext } from '@loanmatch/domain';
import { silentLogger, type TestContext } from '../../../../tests/support';
import { runOps } from '../../src/ops/cli';

export const TOKEN = 'lm_admin_ops-test-token-0123456789';

/** An admin API serving on a loopback port: its base URL, and how to stop it. */
export interface AdminApi {
  url: string;
  close(): Promise<void>;
}

/** The admin API over `ctx` (the test context's own by default) on a free loopback port. */
export async function serveAdminApi(t: TestContext, ctx: DomainContext = t.ctx): Promise<AdminApi> {
  const app = createAdminApp({ ctx, logger: silentLogger, ping: () => t.db.ping(), adminToken: TOKEN });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/admin/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The environment `pnpm ops` reads, pointed at the admin API at `url` with the test token. */
export const adminEnv = (url: string): Record<string, string> => ({ ADMIN_URL: url, ADMIN_TOKEN: TOKEN });

/** `pnpm ops <args>` with `env`: its exit code and what it wrote. */
export async function runOpsCapturing(args: string[], env: Record<string, string>) {
  let out = '';
  let err = '';
  const code = await runOps(args, { env, out: (s) => (out += s), err: (s) => (err += s), fetch });
  return { code, out, err };
}
