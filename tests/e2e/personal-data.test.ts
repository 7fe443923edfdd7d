/**
 * Personal data at rest on started processes and PostgreSQL: details and employers are sealed under a key
 * made in DATA_DIR; a rotation to DATA_KEY is finished with `pnpm ops data-key rotate`, after which the
 * new key alone reads everything; `pnpm ops application erase` refuses the next check. Nothing in any
 * table holds the details in clear.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { VALID_STEPS, createPgDatabase, richFlatApplication } from '../support';
import { api, run, startServer, tempDataDir, type Started } from './process';

jest.setTimeout(180_000);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ADMIN_TOKEN = `lm_admin_${randomBytes(24).toString('hex')}`;
const JWT_SECRET = randomBytes(32).toString('hex');
const API_KEY = `lm_sandbox_${randomBytes(32).toString('base64url')}`;
const PEOPLE = [
  { firstName: 'Marguerite', lastName: 'Vandersloot', email: 'marguerite.v@example.net', mobileNumber: '0433221100' },
  { firstName: 'Ptolemy', lastName: 'Ashgrove', email: 'ptolemy.ashgrove@example.net', mobileNumber: '0433998877' },
];
const CLEAR = [...PEOPLE.flatMap((p) => Object.values(p)), VALID_STEPS.personal[3].employerName];
const REMOTE_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

/** Every row of every table, as JSON text. */
async function everyRow(client: Client): Promise<string> {
  const tables = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const texts: string[] = [];
  for (const { name } of tables.rows)
    texts.push(
      ...(await client.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM "${name}" t`)).rows.map((r) => r.j),
    );
  return texts.join('\n');
}

/** A partner with an API key, written as the admin API writes them (the key as its SHA-256 digest). */
async function partnerWithKey(client: Client): Promise<void> {
  const partnerId = randomUUID();
  await client.query(
    "INSERT INTO partners (id, name, tier, environment) VALUES ($1, 'Sealed Partner', 'standard', 'sandbox')",
    [partnerId],
  );
  await client.query('INSERT INTO api_keys (id, partner_id, key_hash, prefix) VALUES ($1, $2, $3, $4)', [
    randomUUID(),
    partnerId,
    sha256(API_KEY),
    API_KEY.slice(0, 15),
  ]);
}

describe('personal data on started processes over PostgreSQL', () => {
  const dataDir = tempDataDir();
  let database: { url: string; drop(): Promise<void> };
  let client: Client;
  let server: Started | undefined;
  let apps: Array<{ id: string; securityToken: string }>;

  beforeAll(async () => {
    database = await createPgDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await server?.stop();
    await client.end();
    await database.drop();
  });

  const start = (env: Record<string, string> = {}) =>
    startServer({
      env: {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        ADMIN_TOKEN,
        JWT_SECRET,
        WEBHOOK_DISPATCHER: 'off',
        ...env,
      },
    });

  const tokenOf = async (base: string) =>
    (await api(base, 'POST', '/auth/token', { headers: { 'X-API-Key': API_KEY }, body: { grantType: 'api_key' } })).body
      .data.accessToken;

  async function checkB(base: string, app: { id: string; securityToken: string }) {
    const token = await tokenOf(base);
    return api(base, 'POST', `/applications/${app.id}/credit-check`, {
      key: token,
      headers: { 'X-Sandbox-Score': 'good' },
      body: { securityToken: app.securityToken, dateOfBirth: '1988-07-14' },
    });
  }

  it('when applications are made without DATA_KEY, then their details and employers are sealed under a key made in DATA_DIR (mode 0600)', async () => {
    server = await start();
    await partnerWithKey(client);
    const base = server.urls['Variant B'];
    const token = await tokenOf(base);
    apps = [];
    for (const person of PEOPLE) {
      const { mobileNumber, ...names } = person;
      const created = await api(base, 'POST', '/applications', {
        key: token,
        body: { ...richFlatApplication(names), phone: mobileNumber, dateOfBirth: undefined },
      });
      expect(created.status).toBe(201);
      apps.push({ id: created.body.data.applicationId, securityToken: created.body.data.securityToken });
    }
    const rows = (await client.query('SELECT details_sealed, key_id FROM applicants')).rows;
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.details_sealed).toMatch(new RegExp(`^v1\\.${row.key_id}\\.`));
    const steps = (await client.query('SELECT step_3::text AS clear, step_3_sealed FROM applications')).rows;
    expect(steps).toHaveLength(2);
    for (const row of steps) expect(row.step_3_sealed).toMatch(/^v1\./);
    expect(steps[0].clear).toContain('"employmentType"');
    const dump = await everyRow(client);
    for (const value of CLEAR) expect(dump).not.toContain(value);
    expect(statSync(join(dataDir, 'data-key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'data-key'), 'utf8').trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(server.output()).toContain('DATA_KEY is unset');
    for (const value of CLEAR) expect(server.output()).not.toContain(value);
    expect(await server.stop()).toBe(0);
  });

  it('when DATA_KEY replaces the made key, then ops data-key rotate moves every row, and the new key alone reads them', async () => {
    const madeKey = readFileSync(join(dataDir, 'data-key'), 'utf8').trim();
    const newKey = randomBytes(32).toString('hex');
    server = await start({ DATA_KEY: newKey, DATA_PREVIOUS_KEYS: madeKey });
    const env = { ADMIN_URL: server.urls['Admin API'], ADMIN_TOKEN };
    const rotated = await run(['apps/server/src/ops/main.ts', 'data-key', 'rotate'], env);
    expect(rotated.err).toBe('');
    expect(rotated.code).toBe(0);
    // Each application: its details and its employer.
    expect(rotated.out).toContain('Re-encrypted 4 sealed value(s)');
    expect(rotated.out).toContain(
      'No sealed values or live idempotency keys under earlier keys: DATA_PREVIOUS_KEYS can be emptied.',
    );
    expect(await server.stop()).toBe(0);

    server = await start({ DATA_KEY: newKey, ADMIN_HOST: '0.0.0.0' });
    const checked = await checkB(server.urls['Variant B'], apps[0]);
    expect(checked.status).toBe(200);
    expect(checked.body.data).toMatchObject({ applicationId: apps[0].id, creditCheckComplete: true });

    const adminPort = new URL(server.urls['Admin API']).port;
    const consents = await run(['apps/server/src/ops/main.ts', 'application', 'consents', apps[0].id], {
      ADMIN_URL: `http://127.0.0.1:${adminPort}/admin/v1`,
      ADMIN_TOKEN,
    });
    expect(consents.code).toBe(0);
    expect(consents.out).toContain('    given:       creditCheck yes, privacy no, marketing no, terms no\n');
    const erased = await run(['apps/server/src/ops/main.ts', 'application', 'erase', apps[1].id], {
      ADMIN_URL: `http://127.0.0.1:${adminPort}/admin/v1`,
      ADMIN_TOKEN,
    });
    expect(erased.code).toBe(0);
    expect(erased.out).toContain(`Erased the personal data of application ${apps[1].id}`);
    const refused = await checkB(server.urls['Variant B'], apps[1]);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('PERSONAL_DATA_ERASED');

    // Bound to every interface, the admin listener still answers loopback callers only.
    if (REMOTE_ADDRESS) {
      const remote = await api(`http://${REMOTE_ADDRESS}:${adminPort}/admin/v1`, 'GET', '/partners', {
        key: ADMIN_TOKEN,
      });
      expect(remote.status).toBe(403);
      expect(remote.body.error).toBe('FORBIDDEN');
    }

    const dump = await everyRow(client);
    for (const value of CLEAR) expect(dump).not.toContain(value);
    for (const value of CLEAR) expect(server.output()).not.toContain(value);
    expect(await server.stop()).toBe(0);
    server = undefined;
  });
});
