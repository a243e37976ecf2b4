/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { dayInZone } from '@app/core';
import { uniqueUsername } from '../support/api';
import { launchBrowser, signIn, TestBrowser } from '../support/browser';
import { ApiProcess, getJson, spawnNode, startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';

/**
 * The console in Chromium against the built api: what a worker's key and another company's data look
 * like from it (the stream's audience and the actions' scoping, seen in the page), and the stream
 * resuming by itself with Last-Event-ID after the api restarts.
 */
const run = promisify(execFile);
const CLI = resolve(__dirname, '../../dist/apps/cli/src/main.js');
const API_ENV = { STREAM_POSITION_MS: '1000' };

async function cli(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [CLI, ...args], { env: process.env, maxBuffer: 1 << 22 });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

interface Company {
  key: string;
  workers: Array<{ uid: string; username: string; name: string; key: string }>;
  jobs: Array<{ id: string; destinationName: string; worker?: string }>;
}

describe('the console: what a key may see, and reconnecting (Chromium)', () => {
  let api: ApiProcess;
  let browser: TestBrowser;
  let a: Company;
  let b: Company;
  let admin: Page;

  const call = async (name: string, data: unknown, key: string, url = api.url): Promise<any> => {
    const res = await fetch(`${url}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'API-Key': key },
      body: JSON.stringify({ data }),
    });
    const body = (await res.json()) as any;
    if (body.status !== 0) throw new Error(`${name}: ${JSON.stringify(body)}`);
    return body;
  };
  const push = (w: { key: string }, lat: number, lng: number) =>
    call('pushlocations', { tracking: true, locations: [{ ts: Date.now(), lat, lng, acc: 5, spd: 4 }] }, w.key);

  /** A company with two workers (located) and three jobs today: one each, one unassigned. */
  async function company(label: string, at: { lat: number; lng: number }): Promise<Company> {
    const owner = await cli('create-company', '--name', `${label} Co`, '--username', uniqueUsername(`${label}.owner`));
    const workers = [];
    for (const n of ['One', 'Two']) {
      const username = uniqueUsername(`${label}.${n}`.toLowerCase());
      const name = `${label} Worker ${n}`;
      const { uid } = await call('createaccount', { username, name, password: 'correct horse battery' }, owner.apiKey);
      const { apiKey } = await cli('create-api-key', '--username', username);
      workers.push({ uid, username, name, key: apiKey });
    }
    const { jobs } = await call(
      'createjobs',
      {
        jobs: [workers[0].username, workers[1].username, undefined].map((worker, i) => ({
          destinationName: `${label} job ${i + 1}`,
          destinationLat: at.lat + i * 0.002,
          destinationLng: at.lng,
          day: dayInZone(Date.now(), 'UTC'),
          ...(worker ? { worker } : {}),
        })),
      },
      owner.apiKey,
    );
    for (const [i, w] of workers.entries()) await push(w, at.lat + 0.001 * i, at.lng + 0.001);
    return { key: owner.apiKey, workers, jobs };
  }

  /** Waits until the member's entry shows `lat`. */
  const movedTo = (page: Page, uid: string, lat: number) =>
    page.waitForFunction(
      ([u, l]) => document.querySelector<HTMLElement>(`[data-member-uid="${u}"]`)?.dataset.lat === String(l),
      [uid, lat] as const,
      { timeout: 5_000 },
    );

  beforeAll(async () => {
    api = await startApiProcess(API_ENV);
    a = await company('Alpha', { lat: 46.05, lng: 14.5 });
    b = await company('Bravo', { lat: 46.06, lng: 14.51 });
    browser = await launchBrowser(() => [api.url]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stopAllChildren();
  });

  it('a worker’s key sees only its own jobs and position, also live', async () => {
    const [me, other] = a.workers;
    const page = await browser.page('worker');
    await signIn(page, api.url, me.key);
    await page.waitForSelector('body[data-stream=open]');
    expect(await page.$$eval('[data-member-uid]', (els) => els.map((e) => (e as HTMLElement).dataset.memberUid))).toEqual([me.uid]);
    expect(await page.$$eval('[data-job-id]', (els) => els.map((e) => (e as HTMLElement).dataset.jobId))).toEqual([a.jobs[0].id]);
    expect(await page.$$('select.assign, form.split')).toHaveLength(0);
    // live: the other worker moves and his job is checked in; then I move
    await push(other, 46.052, 14.502);
    await call('editjobs', { jobs: { [a.jobs[1].id]: { tsCheckIn: Date.now() } } }, a.key);
    await push(me, 46.0512, 14.5012);
    await movedTo(page, me.uid, 46.0512);
    await new Promise((r) => setTimeout(r, 1_500));
    const html = await page.content();
    for (const secret of [other.uid, other.name, a.jobs[1].id, a.jobs[1].destinationName, a.jobs[2].id, a.jobs[2].destinationName])
      expect(html).not.toContain(secret);
    await browser.screenshot(page, 'worker-view');
    await page.close();
  });

  it('another company’s data never appears, also live', async () => {
    admin = await browser.page('admin');
    await signIn(admin, api.url, a.key);
    await admin.waitForSelector('body[data-stream=open]');
    const uids = await admin.$$eval('[data-member-uid]', (els) => els.map((e) => (e as HTMLElement).dataset.memberUid));
    expect(uids).toEqual(expect.arrayContaining(a.workers.map((w) => w.uid)));
    expect((await admin.$$eval('[data-job-id]', (els) => els.map((e) => (e as HTMLElement).dataset.jobId))).sort()).toEqual(
      a.jobs.map((j) => j.id).sort(),
    );
    // Bravo moves, checks in and creates a job; then Alpha's worker moves
    await push(b.workers[0], 46.061, 14.511);
    await call('editjobs', { jobs: { [b.jobs[0].id]: { tsCheckIn: Date.now() } } }, b.key);
    const { jobs: extra } = await call(
      'createjobs',
      { jobs: [{ destinationName: 'Bravo secret job', destinationLat: 46.06, destinationLng: 14.51, day: dayInZone(Date.now(), 'UTC') }] },
      b.key,
    );
    await push(a.workers[0], 46.0513, 14.5013);
    await movedTo(admin, a.workers[0].uid, 46.0513);
    await new Promise((r) => setTimeout(r, 1_500));
    const html = await admin.content();
    for (const secret of [
      ...b.workers.flatMap((w) => [w.uid, w.name]),
      ...b.jobs.flatMap((j) => [j.id, j.destinationName]),
      extra[0].id,
      'Bravo secret job',
    ])
      expect(html).not.toContain(secret);
    expect(browser.errors).toEqual([]);
    expect(browser.foreign).toEqual([]);
  });

  it('the stream reconnects by itself after the api restarts, showing "reconnecting", and resumes with Last-Event-ID', async () => {
    const streams: Array<string | undefined> = [];
    admin.on('request', (r) => {
      if (r.url().endsWith('/v1/stream')) streams.push(r.headers()['last-event-id']);
    });
    const port = api.port;
    await api.child.stop('SIGTERM');
    await admin.waitForSelector('body[data-stream=reconnecting]', { timeout: 10_000 });
    expect(await admin.textContent('.stream-state')).toBe('reconnecting…');
    await browser.screenshot(admin, 'reconnecting');
    // while it is down, a job is checked in through another api instance
    const other = await startApiProcess(API_ENV);
    const job = a.jobs[0];
    await call('editjobs', { jobs: { [job.id]: { tsCheckIn: Date.now() } } }, a.key, other.url);
    // the api comes back on its port; the console reconnects and replays what it missed
    const restarted = spawnNode(`api:${port}`, 'dist/apps/api/src/main.js', { SHUTDOWN_DRAIN_MS: '0', ...API_ENV, PORT: String(port) });
    await waitFor('the restarted api', async () => restarted.running && (await getJson(`${api.url}/health/live`, 1_000)).status === 200, {
      timeoutMs: 30_000,
      intervalMs: 150,
    });
    await admin.waitForSelector('body[data-stream=open]', { timeout: 15_000 });
    await admin.waitForSelector(`[data-job-id="${job.id}"][data-progress=started]`, { timeout: 5_000 });
    expect(streams.length).toBeGreaterThan(0);
    expect(streams.every((id) => id !== undefined && /^\d+$/.test(id))).toBe(true);
  }, 90_000);
});
