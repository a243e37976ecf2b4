import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

/**
 * Debian's Chromium (`scripts/test-tools.sh` installs the `chromium` package when missing), driven by
 * playwright-core. The flags keep it from calling hosts of its own (background networking, component
 * updates, sync), so "no request to another host" checks see only what the page asks for.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where browser tests leave their screenshots (gitignored; CI keeps them as artefacts). */
export const ARTIFACTS = resolve(__dirname, '../../test-artifacts/console');

/** A browser with a fresh profile, and what its pages did that tests assert on. */
export interface TestBrowser {
  context: BrowserContext;
  /** console messages of type error and uncaught page errors, per page label */
  errors: string[];
  /** every request URL whose origin is not one of `origins` */
  foreign: string[];
  /** a new tab (its own sessionStorage), watched for errors and foreign requests when `watch` */
  page(label: string, opts?: { watch?: boolean }): Promise<Page>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh user-data-dir (one per spec file: it is the slow part) at 1280×800.
 * @param origins the origins pages may request (the api's); anything else is recorded in `foreign`
 */
export async function launchBrowser(origins: () => string[]): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'fw-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const errors: string[] = [];
  const foreign: string[] = [];
  mkdirSync(ARTIFACTS, { recursive: true });
  const browser: TestBrowser = {
    context,
    errors,
    foreign,
    async page(label, { watch = true } = {}) {
      const page = await context.newPage();
      if (watch) {
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(`${label}: console: ${m.text()}`);
        });
        page.on('pageerror', (e) => errors.push(`${label}: page error: ${e.message}`));
        page.on('request', (r) => {
          const url = r.url();
          if (url.startsWith('data:') || url.startsWith('blob:')) return;
          if (!origins().some((o) => url === o || url.startsWith(`${o}/`))) foreign.push(url);
        });
      }
      return page;
    },
    async screenshot(page, name) {
      const path = join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
  // the first tab Chromium opens with the profile: not ours, closed
  for (const p of context.pages()) await p.close();
  return browser;
}

/** Opens the console in `page` and signs in with `key` (typed into `input[name=apiKey]`, Enter). */
export async function signIn(page: Page, url: string, key: string, path = '/console'): Promise<void> {
  await page.goto(`${url}${path}`);
  await page.fill('input[name=apiKey]', key);
  await page.press('input[name=apiKey]', 'Enter');
  await page.waitForSelector('body[data-day=drawn]', { timeout: 15_000 });
}
