/**
 * The operator console's funnel in a real browser (headless Chromium) against `pnpm start`: a partner's
 * application goes from create to a funded loan, and the console draws it per stage, per partner and per
 * lender.
 */
import { VALID_STEPS, validApplicant } from '../support';
import { launchBrowser, type Page, type TestBrowser } from '../support/browser';
import { api, startServer, tempDataDir, tempDatabaseUrl, type Started } from './process';

jest.setTimeout(120_000);

describe('the funnel in the operator console on pnpm start', () => {
  let server: Started;
  let browser: TestBrowser;
  let page: Page;
  let partnerId: string;
  let lenderId: string;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServer({ env: { DATA_DIR: tempDataDir(), DATABASE_URL: await tempDatabaseUrl() } });
    const A = server.urls['Variant A'];
    const ADMIN = server.urls['Admin API'];
    const admin = { key: server.adminToken };
    const created = await api(ADMIN, 'POST', '/partners', { ...admin, body: { name: 'Funnel Partner' } });
    partnerId = created.body.data.partnerId;
    const key = created.body.data.apiKey;

    const app = (
      await api(A, 'POST', '/applications', { key, body: { formType: 'personal', data: VALID_STEPS.personal[1] } })
    ).body.data.applicationId;
    for (const step of [2, 3, 4] as const)
      await api(A, 'PATCH', `/applications/${app}`, { key, body: { step, data: VALID_STEPS.personal[step] } });
    await api(A, 'POST', `/applications/${app}/credit-check`, {
      key,
      headers: { 'Idempotency-Key': `check-${app}`, 'X-Sandbox-Score': 'excellent' },
      body: { data: validApplicant() },
    });
    const offer = (await api(A, 'POST', `/applications/${app}/match`, { key })).body.data.acceptedOffers[0];
    lenderId = offer.lender.id;
    const followed = await fetch(offer.trackingUrl.replace(/^http:\/\/[^/]+/, new URL(A).origin), {
      redirect: 'manual',
    });
    const reference = new URL(followed.headers.get('location')!).searchParams.get('lm_ref');
    const lenderKey = (await api(ADMIN, 'POST', `/lenders/${lenderId}/keys`, { ...admin, body: {} })).body.data.apiKey;
    const at = new Date(Date.now() - 60_000).toISOString();
    const funded = await api(new URL(A).origin, 'POST', '/api/lender/v1/outcomes', {
      key: lenderKey,
      body: { reference, eventId: 'console-1', type: 'funded', occurredAt: at, fundedAmount: 18_000, fundedAt: at },
    });
    expect(funded.status).toBe(201);

    browser = await launchBrowser();
    page = await browser.newPage();
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()} (${msg.location().url})`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const value = (selector: string) => page.getAttribute(selector, 'data-value');

  it('when an operator signs in, then the funnel is drawn stage by stage, the partner’s own funnel beside the others, and the lender’s funded loan', async () => {
    await page.goto(`${new URL(server.urls['Admin API']).origin}/admin/console`);
    await page.fill('#token', server.adminToken!);
    await page.click('#sign-in button[type="submit"]');
    await page.waitForSelector('#funnel-chart rect[data-stage="funded"]');
    for (const stage of ['applications', 'creditChecks', 'matches', 'referrals', 'funded'])
      expect([stage, await value(`#funnel-chart rect[data-stage="${stage}"]`)]).toEqual([stage, '1']);
    expect(await value('#funnel-chart rect[data-stage="duplicates"]')).toBe('0');
    expect(await page.textContent('#funnel-totals')).toContain('1 funded, $18,000.00');

    const mine = `#partners-chart g[data-group="${partnerId}"]`;
    expect(await page.textContent(mine)).toContain('Funnel Partner');
    expect(await value(`${mine} rect[data-stage="funded"]`)).toBe('1');
    expect(
      await page.locator('#partners-chart g[data-group] rect[data-stage="applications"][data-value="0"]').count(),
    ).toBe(1); // the demo partner

    const lender = `#lenders-chart g[data-group="${lenderId}"]`;
    for (const stage of ['referrals', 'started', 'approved', 'funded'])
      expect([stage, await value(`${lender} rect[data-stage="${stage}"]`)]).toEqual([stage, '1']);
    expect(Number(await page.getAttribute(`${lender} rect[data-stage="funded"]`, 'width'))).toBeGreaterThan(0);

    // The partner's six requests on Variant A (the redirect and the lender's call are not the partner's),
    // once its process wrote them (every 5 s).
    const calls = `#contracts-chart g[data-group="${partnerId}"] rect[data-stage="A"]`;
    for (let tries = 0; tries < 40 && (await page.locator(`${calls}[data-value="6"]`).count()) === 0; tries++) {
      await page.click('#funnel-form button[type="submit"]');
      await page.waitForTimeout(250);
    }
    expect(await value(calls)).toBe('6');
    expect(await value(`#contracts-chart g[data-group="${partnerId}"] rect[data-stage="B"]`)).toBe('0');
  });

  it('when the operator picks another partner or a window without activity, then the charts show nothing for it', async () => {
    const demo = await page.locator('#funnel-partner option', { hasText: 'Demo Partner' }).getAttribute('value');
    await page.selectOption('#funnel-partner', demo!);
    await page.click('#funnel-form button[type="submit"]');
    // A bar of 0 has no width: attached, not visible.
    await page.locator('#funnel-chart rect[data-stage="applications"][data-value="0"]').waitFor({ state: 'attached' });
    expect(await page.textContent('#lenders-chart')).toContain('Nothing in this window.');

    await page.selectOption('#funnel-partner', '');
    await page.fill('#funnel-from', '2020-01-01');
    await page.fill('#funnel-to', '2020-01-31');
    await page.click('#funnel-form button[type="submit"]');
    await page.locator('#funnel-totals', { hasText: '2020-01-01 to 2020-01-31: 0 funded' }).waitFor();
    expect(await value('#funnel-chart rect[data-stage="applications"]')).toBe('0');
  });

  it('when the console ran, then no script error or policy violation was reported', () => {
    expect(problems).toEqual([]);
  });
});
