/**
 * The reference pages of both front-ends in a real browser: headless Chromium (Debian's package; CI
 * installs it) driven by playwright-core against the started service. No skip: without Chromium the
 * launch fails and so does this test.
 */
import { launchBrowser, type TestBrowser } from '../support/browser';
import { startServer, tempDataDir, tempDatabaseUrl, type Started } from './process';

jest.setTimeout(120_000);

interface Operation {
  method: string;
  path: string;
  summary: string;
}

/** The operations of a document, as the page should show them. */
function operationsOf(document: { paths: Record<string, Record<string, { summary?: string }>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method, path, summary: op.summary ?? '' })),
  );
}

describe('GET /docs in headless Chromium', () => {
  let server: Started;
  let browser: TestBrowser;

  beforeAll(async () => {
    server = await startServer({ env: { DATA_DIR: tempDataDir(), DATABASE_URL: await tempDatabaseUrl() } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop('SIGKILL');
  });

  it.each([
    ['A', 'Variant A', 'Submit step 5 and run the soft credit check'],
    ['B', 'Variant B', 'Exchange your API key for an access token'],
  ])(
    "when Variant %s's /docs is opened, then it shows every operation of /openapi.json, and no request leaves the origin",
    async (_name, listener, expectedSummary) => {
      const origin = new URL(server.urls[listener]).origin;
      const document = (await (await fetch(`${origin}/openapi.json`)).json()) as Parameters<typeof operationsOf>[0];
      const operations = operationsOf(document);
      expect(operations.length).toBeGreaterThan(10);

      const page = await browser.newPage();
      const requested: string[] = [];
      const complaints: string[] = [];
      page.on('request', (req) => requested.push(req.url()));
      page.on('pageerror', (error) => complaints.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text()))
          complaints.push(`console: ${message.text()}`);
      });

      const response = await page.goto(`${origin}/docs`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
      expect(response?.headers()['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);

      // Swagger UI has read the document and drawn one block per operation.
      await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
      const shown = await page.$$eval('.opblock', (blocks) =>
        blocks.map((block) => ({
          path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
          method: block.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase() ?? '',
          summary: block.querySelector('.opblock-summary-description')?.textContent?.trim() ?? '',
        })),
      );
      for (const operation of operations) expect(shown).toContainEqual(operation);
      expect(shown.map((s) => s.summary)).toContain(expectedSummary);
      // The webhooks section: what a partner's endpoint receives.
      expect(await page.locator('text=application.status_changed').count()).toBeGreaterThan(0);
      await page.screenshot({
        path: `${process.env.DOCS_SCREENSHOT_DIR ?? tempDataDir()}/docs-${_name}.png`,
        fullPage: false,
      });

      expect(requested).toContain(`${origin}/openapi.json`);
      expect(requested.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
      expect(complaints).toEqual([]);
      await page.close();
    },
  );
});
