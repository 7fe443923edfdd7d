/**
 * The operator console in a real browser (headless Chromium) against `pnpm start`: sign in with the
 * admin token, lower a tier's limit on the page, and see Variant B enforce it and the page count it.
 */
import { randomBytes } from 'node:crypto';
import { REDIS_URL, createPgDatabase, flatApplication, openTestRedis } from '../support';
import { launchBrowser, type Page, type TestBrowser } from '../support/browser';
import { partnerB } from './clients';
import { api, startServer, tempDataDir, tempDatabaseUrl, type Started } from './process';

jest.setTimeout(120_000);

const LIMIT = 3;

describe('operator console on pnpm start', () => {
  let server: Started;
  let browser: TestBrowser;
  let page: Page;
  let consoleUrl: string;
  let B: string;
  let ADMIN: string;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServer({ env: { DATA_DIR: tempDataDir(), DATABASE_URL: await tempDatabaseUrl() } });
    B = server.urls['Variant B'];
    ADMIN = server.urls['Admin API'];
    consoleUrl = `${new URL(ADMIN).origin}/admin/console`;
    browser = await launchBrowser();
    page = await browser.newPage();
    // Script errors and Content-Security-Policy violations both surface here.
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${msg.location().url})`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const cellOf = (tier: string, name: string) => page.locator(`#tiers tr[data-tier="${tier}"] .${name}`);

  it('when a wrong token is entered, then the console says it was refused and shows no data', async () => {
    await page.goto(consoleUrl);
    await page.fill('#token', 'lm_admin_this-is-not-the-token-at-all');
    await page.click('#sign-in button[type="submit"]');
    await page.waitForSelector('#status.error');
    expect(await page.textContent('#status')).toContain('refused');
    expect(await page.isVisible('#console')).toBe(false);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it('when an operator lowers the free tier to N on the page, then a free partner’s request N+1 on Variant B is refused with 429, and the page counts the requests and the refusal', async () => {
    const created = await api(ADMIN, 'POST', '/partners', {
      key: server.adminToken,
      body: { name: 'Console Free', tier: 'free' },
    });
    expect(created.status).toBe(201);
    const apiKey: string = created.body.data.apiKey;

    await page.goto(consoleUrl);
    await page.fill('#token', server.adminToken!);
    await page.click('#sign-in button[type="submit"]');
    await page.waitForSelector('#partners tbody tr');
    expect(await page.textContent('#partners tbody')).toContain('Console Free');
    expect(await page.inputValue('#tiers tr[data-tier="free"] input')).toBe('100');

    await page.fill('#tiers tr[data-tier="free"] input', String(LIMIT));
    await page.click('#tiers tr[data-tier="free"] button[type="submit"]');
    await page.locator('#status', { hasText: `free: ${LIMIT} requests per hour` }).waitFor();
    const tiers = await api(ADMIN, 'GET', '/tiers', { key: server.adminToken });
    expect(tiers.body.data.tiers.find((t: { tier: string }) => t.tier === 'free').requestsPerHour).toBe(LIMIT);

    const exchange = () =>
      api(B, 'POST', '/auth/token', { headers: { 'X-API-Key': apiKey }, body: { grantType: 'api_key' } });
    for (let i = 1; i <= LIMIT; i++) expect((await exchange()).status).toBe(200);
    const refused = await exchange();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    expect(refused.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"free"; q=${LIMIT}; w=3600;`));

    await page.click('#refresh');
    await cellOf('free', 'refused').filter({ hasText: /^1$/ }).waitFor();
    expect(await cellOf('free', 'requests').textContent()).toBe(String(LIMIT + 1));
    expect(await cellOf('free', 'refused').textContent()).toBe('1');
    expect(await cellOf('standard', 'requests').textContent()).toBe('0');
    expect(await page.inputValue('#tiers tr[data-tier="free"] input')).toBe(String(LIMIT));
  });

  it('when a lender has read an application’s lead, then the application view lists that disclosure', async () => {
    const A = server.urls['Variant A'];
    const { client: b } = partnerB(B, server.demoApiKey!);
    const { applicationId, securityToken } = await b.createApplication(flatApplication() as never);
    await b.runCreditCheck(applicationId, securityToken, {}, { sandboxScore: 'excellent' });
    const [offer] = (await b.match(applicationId, securityToken)).acceptedOffers;
    const followed = await fetch(offer.trackingUrl.replace(/^http:\/\/[^/]+/, new URL(A).origin), {
      redirect: 'manual',
    });
    const reference = new URL(followed.headers.get('location')!).searchParams.get('lm_ref')!;
    const issued = await api(ADMIN, 'POST', `/lenders/${offer.lender.id}/keys`, { key: server.adminToken });
    const lead = await api(new URL(A).origin, 'GET', `/api/lender/v1/leads/${reference}`, {
      key: issued.body.data.apiKey,
    });
    expect(lead.status).toBe(200);

    await page.fill('#application-id', applicationId);
    await page.click('#application-form button[type="submit"]');
    const row = page.locator('#disclosures tbody tr');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().locator('td').allTextContents()).toEqual([
      expect.any(String),
      offer.lender.id,
      reference,
      'read by the lender',
    ]);

    // An id that names nothing: the refusal is said, and the previous application's rows are gone.
    await page.fill('#application-id', 'not-an-application');
    await page.click('#application-form button[type="submit"]');
    await page.locator('#status', { hasText: 'Could not load the application' }).waitFor();
    expect(await row.count()).toBe(0);
  });

  it('when the page is reloaded, then the tab is still signed in; the token was in no URL or cookie; signing out forgets it', async () => {
    await page.reload();
    await page.waitForSelector('#tiers tr[data-tier="free"]');
    expect(page.url()).toBe(consoleUrl);
    expect(await page.evaluate('document.cookie')).toBe('');
    expect((await browser.context.cookies()).length).toBe(0);
    expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual(['loanmatch.adminToken']);
    await page.click('#sign-out');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(await page.isVisible('#sign-in')).toBe(true);
    expect(await page.locator('#tiers tbody tr').count()).toBe(0);
  });

  it('when the console ran, then no script error or policy violation was reported', () => {
    // The wrong-token test makes the browser log the 401 it got, the unknown application's the 404 of its
    // lookup; nothing else may appear.
    const expected = (p: string) => /status of 401/.test(p) || /status of 404 .*\/not-an-application\//.test(p);
    expect(problems.filter((p) => !expected(p))).toEqual([]);
  });
});

describe('the console’s counts across processes (start:b twice and start:admin on PostgreSQL and Redis)', () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let redis: Awaited<ReturnType<typeof openTestRedis>>;
  const started: Started[] = [];
  const adminToken = `lm_admin_${randomBytes(24).toString('base64url')}`;

  beforeAll(async () => {
    db = await createPgDatabase();
    redis = await openTestRedis();
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await redis?.close();
    await db?.drop();
  });

  it('when two B processes serve a free partner over its limit, then the admin process reports every request and refusal of both', async () => {
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: redis.prefix,
      ADMIN_TOKEN: adminToken,
      JWT_SECRET: randomBytes(32).toString('hex'),
    };
    const admin = await startServer({ mode: 'admin', env: { ...env, DATA_DIR: tempDataDir() } });
    started.push(admin);
    const [b1, b2] = await Promise.all([
      startServer({ mode: 'b', env: { ...env, DATA_DIR: tempDataDir() } }),
      startServer({ mode: 'b', env: { ...env, DATA_DIR: tempDataDir() } }),
    ]);
    started.push(b1, b2);
    const ADMIN = admin.urls['Admin API'];
    expect((await api(ADMIN, 'PUT', '/tiers/free', { key: adminToken, body: { requestsPerHour: LIMIT } })).status).toBe(
      200,
    );
    const created = await api(ADMIN, 'POST', '/partners', {
      key: adminToken,
      body: { name: 'Two processes', tier: 'free' },
    });
    const apiKey: string = created.body.data.apiKey;

    // Alternating processes: the limit is shared in Redis, so the fourth request is refused wherever it lands.
    const statuses: number[] = [];
    for (const b of [b1, b2, b1, b2, b1]) {
      statuses.push(
        (
          await api(b.urls['Variant B'], 'POST', '/auth/token', {
            headers: { 'X-API-Key': apiKey },
            body: { grantType: 'api_key' },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);

    // Each B process writes its counts to Redis once a second.
    let free: { requests: number; refused: number } | undefined;
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
      const usage = await api(ADMIN, 'GET', '/usage', { key: adminToken });
      expect(usage.body.data.shared).toBe(true);
      free = usage.body.data.tiers.find((t: { tier: string }) => t.tier === 'free');
      if (free?.requests === 5) break;
    }
    expect(free).toEqual({ tier: 'free', requests: 5, refused: 2 });
  });
});
