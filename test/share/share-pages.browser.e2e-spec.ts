import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import { createCompany, startApi, TestApi } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { ROOT } from '../support/proc-child';
import { sharedTrack, SharedTrack } from './share-fixtures';

/**
 * A track share page in a real browser (issue #27 item 5): Debian's Chromium driven by playwright-core
 * opens the page the api serves (no tiles: CONSOLE_TILE_URL unset) and checks that the track's path is
 * drawn with its start and end, that the page logs no error, and that nothing is requested from any
 * host but ours. A screenshot goes to test-artifacts/ (gitignored). Needs `npm run build` (the
 * bundle) and /usr/bin/chromium (scripts/test-tools.sh installs it).
 */
const PREFIX = `fieldwork-share-browser-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
delete process.env.CONSOLE_TILE_URL;

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

describe('share pages in Chromium', () => {
  let api: TestApi;
  let shared: SharedTrack;
  let profile: string;
  let context: BrowserContext;

  beforeAll(async () => {
    api = await startApi();
    const company = await createCompany(api, { timezone: 'Europe/Ljubljana' });
    shared = await sharedTrack(api, company, { name: 'Ana Novak' });
    profile = mkdtempSync(path.join(tmpdir(), 'fieldwork-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 800 },
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  it('draws the track with its start and end, logs no error, and asks no other host for anything', async () => {
    const origin = new URL(api.url).origin;
    const requests: string[] = [];
    const errors: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`HTTP ${r.status()} ${r.url()}`);
    });

    const res = await page.goto(`${api.url}/share/tracks/${shared.token}`, { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('body[data-drawn="true"]', { timeout: 10_000 });

    // the line: one SVG path with many points, spread over the map
    const track = page.locator('path.share-track');
    await expect(track.count()).resolves.toBe(1);
    const d = (await track.getAttribute('d')) ?? '';
    expect((d.match(/L/g) ?? []).length).toBeGreaterThan(20);
    const box = await track.boundingBox();
    expect(box!.width > 200 || box!.height > 200).toBe(true);
    // start and end, labelled with their local times
    await expect(page.locator('path.share-start').count()).resolves.toBe(1);
    await expect(page.locator('path.share-end').count()).resolves.toBe(1);
    const labels = await page.locator('.share-mark-label').allTextContents();
    expect(labels).toEqual([expect.stringMatching(/^Start \d\d:\d\d$/), expect.stringMatching(/^End \d\d:\d\d$/)]);
    // the header is the page's own text, the map has its scale
    await expect(page.locator('h1').textContent()).resolves.toBe('Ana Novak');
    await expect(page.locator('.leaflet-control-scale').count()).resolves.toBe(1);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'share-track.png') });

    expect(errors).toEqual([]);
    const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'));
    expect(foreign).toEqual([]);
    // the page, its script and stylesheet were all fetched from us
    expect(requests.some((u) => /\/share\/assets\/share-[A-Z0-9]+\.js$/.test(u))).toBe(true);
    expect(requests.some((u) => /\/share\/assets\/share-[A-Z0-9]+\.css$/.test(u))).toBe(true);
  });
});
