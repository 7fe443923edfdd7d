/**
 * The shell examples of the README and docs/, run as written against a started server: only the key, the
 * ports and the lender's key and reference (which a reader copies from earlier output) are put in. Each
 * runs in an empty folder that must still be empty afterwards: the examples leave nothing behind.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, startServer, tempDataDir, tempDatabaseUrl, type Started } from './process';

const run = promisify(execFile);

/** The ```sh blocks of `file` in the section under `heading` (up to the next heading outside a block). */
function shellBlocks(file: string, heading: string): string[] {
  const blocks: string[] = [];
  let inSection = false;
  let block: string[] | undefined;
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    if (block) {
      if (!line.startsWith('```')) block.push(line);
      else {
        blocks.push(block.join('\n'));
        block = undefined;
      }
    } else if (/^#{1,6} /.test(line)) inSection = line === heading;
    else if (inSection && line === '```sh') block = [];
  }
  if (blocks.length === 0) throw new Error(`${file}: no shell block under "${heading}"`);
  return blocks;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the README and docs/ examples, run as written', () => {
  let server: Started;
  let dataDir: string;
  let ports: { a: number; b: number; admin: number; receiver: number };
  let folder: string;

  /** Runs `script` in bash, in the empty folder, with the documented addresses made this server's. */
  async function shell(script: string): Promise<string> {
    // The receiver's port first: a port or key put in after could hold the digits 4400.
    const local = script
      .replaceAll('4400', String(ports.receiver))
      .replaceAll('lm_sandbox_paste_your_key_here', server.demoApiKey!)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${ports.a}`)
      .replaceAll('127.0.0.1:3001', `127.0.0.1:${ports.b}`)
      .replaceAll('127.0.0.1:3002', `127.0.0.1:${ports.admin}`);
    // `node` is this Node's binary itself, not pnpm's wrapper script, so that killing a job started with & ends it.
    const PATH = `${dirname(process.execPath)}:${process.env.PATH}`;
    const { stdout } = await run('bash', ['-c', local], {
      cwd: folder,
      timeout: 60_000,
      env: { ...process.env, PATH },
    });
    expect(readdirSync(folder)).toEqual([]);
    return stdout;
  }

  beforeAll(async () => {
    ports = { a: await freePort(), b: await freePort(), admin: await freePort(), receiver: await freePort() };
    dataDir = tempDataDir();
    folder = mkdtempSync(join(tmpdir(), 'loanmatch-walk-'));
    server = await startServer({
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: await tempDatabaseUrl(),
        PORT_A: String(ports.a),
        PORT_B: String(ports.b),
        PORT_ADMIN: String(ports.admin),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    for (const dir of [dataDir, folder]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let variantA = '';

  it("when Variant A's walk-through runs, then each step answers as its comment says, down to the lender's redirect", async () => {
    const [block] = shellBlocks('README.md', '## Walk-through: Variant A with curl');
    variantA = await shell(block);
    expect(variantA).toMatch(/"status":"credit_checked"/);
    expect(variantA).toMatch(/^Idempotency-Replayed: true/im);
    expect(variantA).toMatch(/"acceptedOffers":\[\{"offerId"/);
    expect(variantA).toMatch(/^302 -> https?:\/\/\S+lm_ref=[0-9a-f-]{36}/m);
    expect(variantA).toMatch(/"referrals":\[\{"referralId"/);
    expect(variantA).toMatch(/"error":"VALIDATION_ERROR","message":"loanAmount: must be between/);
    // The tracking step follows the first-ranked offer.
    const first = /"acceptedOffers":\[\{"offerId":"([0-9a-f-]{36})"/.exec(variantA)?.[1];
    expect(variantA).toContain(`lm_ref=${first}`);
    expect(variantA).not.toMatch(/INTERNAL_ERROR|"error":"(?!VALIDATION_ERROR)/);
  });

  it("when Variant B's walk-through runs, then the thin application's offers are indicative and, completed, pre-qualified", async () => {
    const [block] = shellBlocks('README.md', '## Walk-through: Variant B with curl');
    // The token step's comment shows the answer's envelope as it is.
    const token = await fetch(`http://127.0.0.1:${ports.b}/v1/auth/token`, {
      method: 'POST',
      headers: { 'X-API-Key': server.demoApiKey!, 'Content-Type': 'application/json' },
      body: '{"grantType":"api_key"}',
    });
    const answer = JSON.stringify(await token.json()).replace(/"accessToken":"[^"]+"/, '"accessToken":"eyJ…"');
    expect(block).toContain(answer);
    const out = await shell(block);
    const [beforePatch, afterPatch] = out.split('"missingFields":[]');
    expect(beforePatch).toMatch(/"creditCheckComplete":true/);
    expect(beforePatch).toMatch(
      /^"certainty":"indicative"\n"conditions":\[\{"field":"[\s\S]*\n"assumedLoanTermMonths":\d+$/m,
    );
    expect(afterPatch).toMatch(/^\s+\d+ "certainty":"pre_qualified"$/m);
    expect(afterPatch).not.toMatch(/"certainty":"indicative"/);
    expect(afterPatch).toMatch(/"error":"INVALID_SECURITY_TOKEN"/);
  });

  it('when the migration guide’s sequence runs, then an application made on A reaches offers and a referral on B', async () => {
    const [block] = shellBlocks('docs/migrating-to-variant-b.md', '## Carrying an application over');
    const out = await shell(block);
    expect(out).toMatch(/"missingFields":\[\]/);
    expect(out).toMatch(/"creditCheckComplete":true/);
    expect(out).toMatch(/^302 -> https?:\/\/\S+lm_ref=[0-9a-f-]{36}/m);
    const applicationId = /"applicationId":"([0-9a-f-]{36})"/.exec(out)?.[1];
    expect(out).toMatch(new RegExp(`"referrals":\\[\\{"referralId":"[^"]+","applicationId":"${applicationId}"`));
    expect(out).not.toMatch(/"success":false/);
  });

  it('when the lender example reports on the referral the walk-through made, then 201 with the referral funded', async () => {
    const reference = /lm_ref=([0-9a-f-]{36})/.exec(variantA)?.[1];
    const lenderId = /"referrals":\[\{[\s\S]*?"lender":\{"id":"([^"]+)"/.exec(variantA)?.[1];
    expect(reference && lenderId).toBeTruthy();
    const issued = await fetch(`http://127.0.0.1:${ports.admin}/admin/v1/lenders/${lenderId}/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { data } = (await issued.json()) as { data: { apiKey: string } };
    const [block] = shellBlocks('docs/lenders.md', '## Reporting an event');
    const out = await shell(
      `LENDER_KEY=${data.apiKey}\n${block.replace(/"reference":"[0-9a-f-]{36}"/, `"reference":"${reference}"`)}`,
    );
    expect(out).toMatch(/"success":true,"data":\{"outcomeId":"[^"]+","referralId":"[^"]+","status":"funded"\}/);
  });

  it('when the webhooks page starts its receiver and registers it, then the endpoint is registered with its secret', async () => {
    const [block] = shellBlocks('docs/webhooks.md', '## Routes');
    const out = await shell(
      `BASE=http://127.0.0.1:3000/api/partner/v1\nAUTH="Authorization: Bearer ${server.demoApiKey}"\nJSON="Content-Type: application/json"\n${block}\nkill $!`,
    );
    expect(out).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+\/loanmatch-webhooks"[\s\S]*"secret":"whsec_/);
  });

  it('when the metrics example runs, then it prints Prometheus text', async () => {
    const [block] = shellBlocks('docs/observability.md', '## Metrics');
    expect(await shell(block)).toMatch(/^loanmatch_http_request_duration_seconds_bucket\{/m);
  });
});
