import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { VALID_STEPS, eventually, startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support';
import { partnerA } from './clients';
import { ROOT, run, startServer, tempDataDir, tempDatabaseUrl, type Started } from './process';

jest.setTimeout(120_000);

type Verify = (secret: string, headers: Record<string, unknown>, rawBody: string) => boolean;

/** The README's own verification snippet, run as a partner would paste it: what it shows must work. */
function readmeVerifier(): Verify {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Webhooks'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code?.includes('function verifyWebhook'))
    throw new Error('README.md has no verifyWebhook snippet under "## Webhooks"');
  return new Function('require', `${code}\nreturn verifyWebhook;`)(require) as Verify;
}

const bodyOf = (r: ReceivedWebhook) => JSON.parse(r.body);
const at = (path: string) => (r: ReceivedWebhook) => r.path === path;
/** Fast retries, so a test does not wait minutes; everything else is the default. */
const FAST = { WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms' };

type Partner = ReturnType<typeof partnerA>;

async function register({ client, last }: Partner, url: string): Promise<{ webhookId: string; secret: string }> {
  const registered = await client.webhooks.register({ url });
  expect(last().status).toBe(201);
  return registered;
}

describe('webhooks on pnpm start', () => {
  let server: Started;
  let receiver: WebhookReceiver;
  let partner: Partner;
  const verify = readmeVerifier();

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startServer({ env: { DATA_DIR: tempDataDir(), DATABASE_URL: await tempDatabaseUrl(), ...FAST } });
    partner = partnerA(server.urls['Variant A'], server.demoApiKey!);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await receiver?.close();
  });

  it('when a partner registers an endpoint and saves an application, then the endpoint gets each status change, signed as the README and the Standard Webhooks library verify it', async () => {
    const { secret } = await register(partner, `${receiver.origin}/hooks`);
    const { applicationId: id } = await partner.client.createApplication({
      formType: 'home',
      data: { ...VALID_STEPS.home[1] },
    });
    await partner.client.saveStep(id, 2, { ...VALID_STEPS.home[2] });
    expect(partner.last().status).toBe(200);

    const got = await receiver.waitFor(2, { filter: at('/hooks') });
    expect(got.map((r) => bodyOf(r).data)).toEqual([
      { applicationId: id, status: 'draft', previousStatus: null, lastStep: 1 },
      { applicationId: id, status: 'in_progress', previousStatus: 'draft', lastStep: 2 },
    ]);
    for (const r of got) {
      expect(verify(secret, r.headers, r.body)).toBe(true);
      expect(new StandardWebhook(secret).verify(r.body, r.headers as Record<string, string>)).toEqual(bodyOf(r));
      expect(verify(secret, r.headers, r.body.replace('draft', 'matched'))).toBe(false);
      expect(verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, r.headers, r.body)).toBe(false);
    }
  });

  it('when the endpoint fails twice and then succeeds, then it receives the event three times and no more', async () => {
    let n = 0;
    receiver.reply((_, r) => (r.path === '/flaky' && ++n <= 2 ? { status: 503 } : { status: 204 }));
    const { webhookId } = await register(partner, `${receiver.origin}/flaky`);
    await partner.client.webhooks.sendTest(webhookId);
    expect(partner.last().status).toBe(200);
    const got = await receiver.waitFor(3, { filter: at('/flaky') });
    // The schedule allows three retries: once the success is recorded and nothing is pending, none can follow.
    const log = await eventually(
      () => partner.client.webhooks.listDeliveries(webhookId),
      (l) => l.pending === 0 && l.deliveries.length === 3,
    );
    expect(log.pending).toBe(0);
    expect(receiver.received.filter(at('/flaky'))).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(log.deliveries.map((d) => [d.status, d.responseStatus])).toEqual([
      ['succeeded', 204],
      ['failed', 503],
      ['failed', 503],
    ]);
  });

  it('when the secret is rotated, then deliveries carry two signatures and each secret alone verifies them', async () => {
    receiver.reply(() => ({ status: 204 }));
    const { webhookId, secret: before } = await register(partner, `${receiver.origin}/rotated`);
    const { secret: after } = await partner.client.webhooks.rotateSecret(webhookId);
    expect(partner.last().status).toBe(200);
    await partner.client.webhooks.sendTest(webhookId);
    expect(partner.last().status).toBe(200);
    const [got] = await receiver.waitFor(1, { filter: at('/rotated') });
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [after, before]) {
      expect(verify(secret, got.headers, got.body)).toBe(true);
      expect(new StandardWebhook(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({
        type: 'webhook.test',
        data: { webhookId },
      });
    }
  });
});

describe('a process killed after a status change, before its delivery', () => {
  const dataDir = tempDataDir();
  let receiver: WebhookReceiver;
  let server: Started | undefined;
  let databaseUrl: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await receiver.close();
  });

  it('when it is restarted with its dispatcher on, then the endpoint receives the events, in order', async () => {
    databaseUrl = await tempDatabaseUrl();
    server = await startServer({
      env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ...FAST, WEBHOOK_DISPATCHER: 'off' },
    });
    const demoKey = server.demoApiKey!;
    const partner = partnerA(server.urls['Variant A'], demoKey);
    const { webhookId, secret } = await register(partner, `${receiver.origin}/after-crash`);
    const { applicationId: id } = await partner.client.createApplication(
      { formType: 'personal', data: { ...VALID_STEPS.personal[1] } },
      { idempotencyKey: 'crash-1' },
    );
    expect(partner.last().status).toBe(201);
    await partner.client.saveStep(id, 2, { ...VALID_STEPS.personal[2] });
    expect(partner.last().status).toBe(200);

    // Acknowledged, not yet delivered: the process dies without any chance to send.
    expect(await partner.client.webhooks.listDeliveries(webhookId)).toMatchObject({ pending: 2, deliveries: [] });
    expect(await server.stop('SIGKILL')).toBeNull();
    expect(receiver.received).toHaveLength(0);

    server = await startServer({ env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ...FAST } });
    const got = await receiver.waitFor(2, { filter: at('/after-crash') });
    expect(got.map((r) => bodyOf(r).data)).toEqual([
      { applicationId: id, status: 'draft', previousStatus: null, lastStep: 1 },
      { applicationId: id, status: 'in_progress', previousStatus: 'draft', lastStep: 2 },
    ]);
    for (const r of got)
      expect(new StandardWebhook(secret).verify(r.body, r.headers as Record<string, string>)).toEqual(bodyOf(r));
    const restarted = partnerA(server.urls['Variant A'], demoKey);
    const log = await eventually(
      () => restarted.client.webhooks.listDeliveries(webhookId),
      (l) => l.pending === 0 && l.deliveries.length === 2,
    );
    expect(log).toMatchObject({ pending: 0, deliveries: [{ status: 'succeeded' }, { status: 'succeeded' }] });
    expect(receiver.received.filter(at('/after-crash'))).toHaveLength(2);
  });
});

describe('webhook settings', () => {
  it('when WEBHOOK_RETRY_SCHEDULE or WEBHOOK_DISPATCHER is not valid, then the server exits 1 naming the variable', async () => {
    const schedule = await run(['apps/server/src/main.ts'], {
      WEBHOOK_RETRY_SCHEDULE: '5s,soon',
      DATA_DIR: tempDataDir(),
    });
    expect(schedule.code).toBe(1);
    expect(schedule.err).toContain('WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of up to 20 durations');
    const dispatcher = await run(['apps/server/src/main.ts'], { WEBHOOK_DISPATCHER: 'maybe', DATA_DIR: tempDataDir() });
    expect(dispatcher.code).toBe(1);
    expect(dispatcher.err).toContain('WEBHOOK_DISPATCHER must be one of on, off');
  });
});
