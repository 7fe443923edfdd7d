/**
 * Headless Chromium for tests of the pages we serve, through playwright-core with the system's
 * Chromium (Debian's `chromium` package; `.ci/run` installs it when missing). No browser is downloaded.
 * Each launch has a new, empty profile, removed on close, so no test sees another's storage.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export type { BrowserContext, Page };

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Quiet, offline and reproducible: no sandbox (containers), no GPU, nothing fetched in the background. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab of this browser. */
  newPage(): Promise<Page>;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `The browser tests need Chromium, not found at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set CHROMIUM_PATH to its binary.`,
    );
  const profile = mkdtempSync(join(tmpdir(), 'loanmatch-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
