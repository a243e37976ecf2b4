/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Page } from 'playwright-core';
import { launchBrowser, signIn, TestBrowser } from '../support/browser';
import { DemoDay, startDemoDay } from '../support/demo-day';
import { stopAllChildren, waitFor } from '../support/proc-child';

/**
 * The dispatcher's console in a real Chromium (Debian's, driven by playwright-core) against the built
 * api and worker on the demo day (`npm run dev`'s seed and replay): sign-in, the members and jobs
 * drawn from the actions and kept live by the stream, acting through the ordinary actions, and a page
 * that logs no error and asks no host but ours (no CONSOLE_TILE_URL). Screenshots in
 * test-artifacts/console/.
 */
const STATES = ['moving', 'halted', 'stale', 'off'];
const ANA = 'ana.horvat@demo.fieldwork.test';
const JURE = 'jure.krajnc@demo.fieldwork.test';
const MARKO = 'marko.zupan@demo.fieldwork.test';

describe('the dispatcher console on the demo day (Chromium)', () => {
  let demo: DemoDay;
  let browser: TestBrowser;
  let page: Page;
  const call = async (name: string, data: unknown, key = demo.key): Promise<any> => {
    const res = await fetch(`${demo.api.url}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'API-Key': key },
      body: JSON.stringify({ data }),
    });
    const body = (await res.json()) as any;
    if (body.status !== 0) throw new Error(`${name}: ${JSON.stringify(body)}`);
    return body;
  };
  const uidOf = async (username: string): Promise<string> =>
    (await call('getaccounts', {})).accounts.find((a: { username: string }) => a.username === username).uid;
  /** The job rows of a worker's panel, in the order drawn. */
  const rowsOf = (username: string) =>
    page.$$eval(`section[data-worker="${username}"] [data-job-id]`, (els) =>
      els.map((e) => ({ id: (e as HTMLElement).dataset.jobId!, number: Number((e as HTMLElement).dataset.number) })),
    );

  beforeAll(async () => {
    // positions read every second (default 2 s): a fix shows within that plus a read
    demo = await startDemoDay('console', { STREAM_POSITION_MS: '1000' });
    browser = await launchBrowser(() => [demo.api.url]);
    page = await browser.page('dispatcher');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    await stopAllChildren();
  });

  it('serves the page with its own CSP, and signs in with an API key kept in sessionStorage only; the stream opens', async () => {
    const res = await fetch(`${demo.api.url}/console/day/20260101/job/X`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    const script = /src="(\/console\/assets\/console-[^"]+\.js)"/.exec(await res.text())![1];
    const asset = await fetch(`${demo.api.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect([asset.status, asset.headers.get('content-encoding')]).toEqual([200, 'gzip']);

    await signIn(page, demo.api.url, demo.key);
    await page.waitForSelector('body[data-stream=open]');
    expect(await page.evaluate(() => [Object.keys(sessionStorage).length, localStorage.length, document.cookie])).toEqual([1, 0, '']);
    expect(await page.evaluate(() => performance.getEntriesByName('day-drawn').length)).toBe(1);
  });

  it('shows the demo members with data-state and their last positions', async () => {
    const { accounts } = await call('getaccounts', {});
    for (const a of accounts) {
      const entry = page.locator(`[data-member-uid="${a.uid}"]`);
      expect(STATES).toContain(await entry.getAttribute('data-state'));
    }
    const located = await page.$$eval('[data-member-uid][data-lat]', (els) => els.map((e) => (e as HTMLElement).dataset.state));
    expect(located.length).toBeGreaterThanOrEqual(5);
    expect(located.filter((s) => s === 'moving').length).toBeGreaterThanOrEqual(4);
    // every job of the day has its row, with the connector's progress
    const { jobs } = await call('getjobs', { worker: '*' });
    const rows = await page.$$eval('[data-job-id]', (els) =>
      els.map((e) => [(e as HTMLElement).dataset.jobId, (e as HTMLElement).dataset.progress]),
    );
    expect(rows.map(([id]) => id).sort()).toEqual(jobs.map((j: { id: string }) => j.id).sort());
    expect(rows.find(([, p]) => p === 'success')).toBeDefined();
    await browser.screenshot(page, 'demo-day');
  });

  it('a pushlocations through the API moves that member’s entry (data-lat/data-lng) within 2 s', async () => {
    const uid = await uidOf(ANA);
    const to = { lat: 45.27711, lng: 13.71234 };
    await call('pushlocations', { locations: [{ ts: Date.now(), ...to, acc: 4, spd: 5 }] }, demo.workerKeys.get(ANA));
    const t0 = Date.now();
    await page.waitForFunction(
      ([u, lat, lng]) => {
        const el = document.querySelector<HTMLElement>(`[data-member-uid="${u}"]`);
        return el?.dataset.lat === String(lat) && el.dataset.lng === String(lng);
      },
      [uid, to.lat, to.lng] as const,
      { timeout: 2_000, polling: 50 },
    );
    expect(Date.now() - t0).toBeLessThanOrEqual(2_000);
  });

  it('a job check-in through the API changes its row’s data-progress within 2 s', async () => {
    const { jobs } = await call('getjobs', { worker: ANA });
    const job = jobs[0];
    expect(await page.getAttribute(`[data-job-id="${job.id}"]`, 'data-progress')).toBe('scheduled');
    await call('editjobs', { jobs: { [job.id]: { tsCheckIn: Date.now() } } });
    const t0 = Date.now();
    await page.waitForSelector(`[data-job-id="${job.id}"][data-progress=started]`, { timeout: 2_000 });
    expect(Date.now() - t0).toBeLessThanOrEqual(2_000);
    // its details: the fields and its events so far (the live check-in among them)
    await page.click(`[data-job-id="${job.id}"] button.title`);
    await page.waitForSelector('.job-details:not([hidden])');
    expect(await page.textContent('.job-details')).toMatch(/checked in[\s\S]*event jobcheckin/);
    expect(new URL(page.url()).pathname).toBe(`/console/day/${job.day}/job/${job.id}`);
    await page.click('button[aria-label="Close job details"]');
  });

  it('an alert firing appears in the feed (data-firing-id) and its member is highlighted', async () => {
    const uid = await uidOf(MARKO);
    const { id: ruleId } = await call('createalert', { title: 'Marko’s battery', action: 'battery_low', members: [MARKO] });
    await call(
      'pushlocations',
      { locations: [{ ts: Date.now(), lat: 45.2741, lng: 13.7165, acc: 5, spd: 0, bat: 8 }] },
      demo.workerKeys.get(MARKO),
    );
    const firing = await waitFor('the battery_low firing', async () => (await call('getalertfirings', { ruleId })).firings[0], {
      timeoutMs: 15_000,
      intervalMs: 200,
    });
    await page.waitForSelector(`[data-firing-id="${firing.id}"]`, { timeout: 5_000 });
    expect(await page.textContent(`[data-firing-id="${firing.id}"]`)).toContain('Marko’s battery');
    await page.waitForSelector(`[data-member-uid="${uid}"].alerted`);
    await browser.screenshot(page, 'alerts-feed');
  });

  it('selecting a member draws their route (today’s jobs in number order) and track', async () => {
    const luka = await uidOf('luka.novak@demo.fieldwork.test');
    const tracks = waitFor('gettracks', () =>
      page.waitForResponse((r) => r.url().endsWith('/api/gettracks'), { timeout: 5_000 }).then((r) => r.json()),
    );
    await page.click(`[data-member-uid="${luka}"] button`);
    expect((await tracks).tracks.length).toBeGreaterThan(0);
    await page.waitForFunction(() => [...document.querySelectorAll('.route-stop')].map((e) => e.textContent).join(',') === '1,2');
    expect(await page.getAttribute(`[data-member-uid="${luka}"] button`, 'aria-pressed')).toBe('true');
    await browser.screenshot(page, 'selected-route');
  });

  it('splits the unassigned jobs into regions (distributejobs), drawn with a legend', async () => {
    await page.click('form.split button[type=submit]');
    await page.waitForSelector('.legend >> text=Regions');
    expect(await page.textContent('.status')).toMatch(/split into 2 regions/);
  });

  it('assigning a job in the UI is seen by getjobs', async () => {
    const { jobs } = await call('getjobs', { worker: '' });
    const job = jobs[0];
    await page.selectOption(`[data-job-id="${job.id}"] select.assign`, ANA);
    await waitFor('getjobs to show the assignment', async () => (await call('getjobs', { id: job.id })).jobs[0].worker === ANA, {
      timeoutMs: 5_000,
    });
    await page.waitForSelector(`section[data-worker="${ANA}"] [data-job-id="${job.id}"]`);
  });

  it('optimise from the UI renumbers the worker’s jobs (optimizeroute), drawn in the new order', async () => {
    // Jure gets four more jobs numbered in a zigzag along a line: 2 (west), 3 (east), 4 (west), 5 (east)
    const base = { lat: 45.2705, lng: 13.7045 };
    const { day } = (await call('getjobs', { worker: JURE })).jobs[0];
    await call('createjobs', {
      jobs: [0, 3, 1, 4].map((k, i) => ({
        destinationName: `Zigzag ${i + 2}`,
        destinationLat: base.lat,
        destinationLng: base.lng + k * 0.004,
        worker: JURE,
        number: i + 2,
        day,
      })),
    });
    await waitFor('the new jobs drawn', async () => (await rowsOf(JURE)).length === 5);
    const before = (await rowsOf(JURE)).map((r) => r.id);
    await page.click(`section[data-worker="${JURE}"] button:has-text("Optimise route")`);
    const answer = await waitFor(
      'the new order in getjobs',
      async () => {
        const { jobs } = await call('getjobs', { worker: JURE });
        const order = [...jobs]
          .sort((a: { number: number }, b: { number: number }) => a.number - b.number)
          .map((j: { id: string }) => j.id);
        return order.join() !== before.join() ? order : undefined;
      },
      { timeoutMs: 10_000 },
    );
    await page.waitForFunction(
      ([worker, ids]) =>
        [...document.querySelectorAll<HTMLElement>(`section[data-worker="${worker}"] [data-job-id]`)].map((e) => e.dataset.jobId).join() ===
        ids.join(),
      [JURE, answer] as const,
      { timeout: 5_000 },
    );
    expect((await rowsOf(JURE)).map((r) => r.number)).toEqual([1, 2, 3, 4, 5]);
    await page.waitForFunction(() => document.querySelectorAll('.route-stop').length === 5);
  });

  it('logs no console error and asks no host but ours (CONSOLE_TILE_URL empty)', async () => {
    expect(browser.errors).toEqual([]);
    expect(browser.foreign).toEqual([]);
  });
});
