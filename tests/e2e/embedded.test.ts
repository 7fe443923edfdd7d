import { request as httpRequest } from 'node:http';
import { VALID_STEPS } from '../support';
import { applicant, createRequest, partnerA } from './clients';
import { api, run, startServer, tempDataDir, type Started } from './process';

jest.setTimeout(90_000);

/** Create, steps 2-4 and the credit check, through the partner SDK; answers the client and the application id. */
async function fullFlow(base: string, key: string, type: keyof typeof VALID_STEPS, idemKey: string) {
  const partner = partnerA(base, key);
  const { client, last } = partner;
  const { applicationId: id } = await client.createApplication(createRequest(type), {
    idempotencyKey: `${idemKey}-create`,
  });
  expect(last().status).toBe(201);
  for (const step of [2, 3, 4] as const) {
    await client.saveStep(id, step, { ...VALID_STEPS[type][step] });
    expect(last().status).toBe(200);
  }
  await client.runCreditCheck(id, applicant(), { idempotencyKey: `${idemKey}-check`, sandboxScore: 'very_good' });
  expect(last().status).toBe(200);
  return { id, partner };
}

describe('pnpm start on the embedded database', () => {
  const dataDir = tempDataDir();
  let server: Started;
  let demoKey: string;

  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('when started on an empty data folder, then it prints the demo key and the admin token once, and the whole flow works', async () => {
    server = await startServer({ env: { DATA_DIR: dataDir } });
    expect(server.demoApiKey).toMatch(/^lm_sandbox_/);
    expect(server.adminToken).toMatch(/^lm_admin_/);
    demoKey = server.demoApiKey!;
    const base = server.urls['Variant A'];
    expect(base).toMatch(/\/api\/partner\/v1$/);
    const { id, partner } = await fullFlow(base, server.demoApiKey!, 'car', 'first');
    const got = await partner.client.getApplication(id);
    expect(got).toMatchObject({ status: 'credit_checked', lastStep: 5 });
    expect(partner.last().headers.get('x-request-id')).toBeTruthy();

    const root = server.urls['Variant A'].replace('/api/partner/v1', '');
    expect((await api(root, 'GET', '/healthz')).status).toBe(200);
    expect((await api(root, 'GET', '/readyz')).status).toBe(200);
    expect(
      (await api(server.urls['Admin API'], 'GET', '/partners', { key: server.adminToken })).body.data.partners[0].name,
    ).toBe('Demo Partner');
  });

  it('when pnpm ops runs beside it, then it reads the admin token from DATA_DIR and creates a partner', async () => {
    const res = await run(
      ['apps/server/src/ops/main.ts', 'partner', 'create', '--name', 'Acme', '--tier', 'standard', '--json'],
      {
        DATA_DIR: dataDir,
        ADMIN_URL: server.urls['Admin API'],
      },
    );
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.out)).toMatchObject({ name: 'Acme', apiKey: expect.stringMatching(/^lm_sandbox_/) });
  });

  it('when SIGTERM arrives during a request, then the request completes and the process exits 0', async () => {
    const url = new URL(`${server.urls['Variant A']}/applications`);
    const body = JSON.stringify({ formType: 'personal', data: { loanAmount: 4321 } });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            Authorization: `Bearer ${server.demoApiKey}`,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            'Idempotency-Key': 'drained',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10)); // the request is in flight: headers sent, body not finished
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 300);
    });
    const res = await answer;
    expect(res.status).toBe(201);
    expect(await server.stop()).toBe(0);
  });

  it('when restarted on the same folder, then nothing is printed again and data and idempotency keys survive', async () => {
    server = await startServer({ env: { DATA_DIR: dataDir } });
    expect(server.demoApiKey).toBeUndefined();
    expect(server.adminToken).toBeUndefined();
    const partners = await run(['apps/server/src/ops/main.ts', 'partner', 'list', '--json'], {
      DATA_DIR: dataDir,
      ADMIN_URL: server.urls['Admin API'],
    });
    const demo = JSON.parse(partners.out).partners.find((p: { name: string }) => p.name === 'Demo Partner');
    expect(demo).toBeDefined();
    // The demo key printed on the first start still works; the drained create is replayed, not repeated.
    const { client, last } = partnerA(server.urls['Variant A'], demoKey);
    await client.createApplication({ formType: 'personal', data: { loanAmount: 4321 } }, { idempotencyKey: 'drained' });
    expect(last().status).toBe(201);
    expect(last().headers.get('idempotency-replayed')).toBe('true');
  });
});

describe('pnpm start with a bad setting', () => {
  it('when PORT_A is not a port, then it exits 1 naming the variable', async () => {
    const res = await run(['apps/server/src/main.ts'], { PORT_A: 'eighty', DATA_DIR: tempDataDir() });
    expect(res.code).toBe(1);
    expect(res.err).toContain('PORT_A must be a whole number');
  });
});
