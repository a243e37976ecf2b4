/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * `BENCH_ONLY=console npm run bench`: the dispatcher's console in Debian's Chromium (bench/README.md,
 * "console"): sign-in → `day-drawn` on the demo day with a cold cache; frame times with 2,000 members
 * moving at 400 position events/s through the real stream; the bundle's size as served (gzip).
 */
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import { newId } from '@app/core';
import { ARTIFACTS, CHROMIUM, CHROMIUM_ARGS } from '../test/support/browser';
import { DemoDay, startDemoDay } from '../test/support/demo-day';
import { SseStream } from '../test/support/sse';
import { fmt, percentile, PartReport, printPart } from './stats';

const CONFIG = {
  signIns: Number(process.env.BENCH_CONSOLE_SIGNINS ?? 5),
  members: 2_000,
  eventsPerSecond: 400,
  warmupSeconds: 5,
  measureSeconds: Number(process.env.BENCH_CONSOLE_SECONDS ?? 15),
};
const TARGETS = { dayDrawnMs: 1_000, frameP95Ms: 50, bundleKb: 400 };

/** A browser with a fresh profile: an empty HTTP cache. */
async function freshBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'fw-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Sign-in (Enter) → `day-drawn`, and navigation → `day-drawn` with the key already in the tab, ms. */
async function dayDrawn(url: string, key: string): Promise<{ signIn: number; load: number }> {
  const a = await freshBrowser();
  let signIn: number;
  try {
    const page = await a.context.newPage();
    await page.goto(`${url}/console`);
    await page.fill('input[name=apiKey]', key);
    await page.press('input[name=apiKey]', 'Enter');
    await page.waitForSelector('body[data-day=drawn]', { timeout: 20_000 });
    signIn = await page.evaluate(
      () => performance.getEntriesByName('day-drawn')[0].startTime - performance.getEntriesByName('sign-in')[0].startTime,
    );
  } finally {
    await a.close();
  }
  const b = await freshBrowser();
  try {
    const page = await b.context.newPage();
    await page.addInitScript((k) => sessionStorage.setItem('fieldwork.console.apiKey', k), key);
    await page.goto(`${url}/console`);
    await page.waitForSelector('body[data-day=drawn]', { timeout: 20_000 });
    const load = await page.evaluate(() => performance.getEntriesByName('day-drawn')[0].startTime);
    return { signIn, load };
  } finally {
    await b.close();
  }
}

/** Bytes on the wire for `path` asked with `Accept-Encoding: gzip` (no decoding). */
function servedBytes(url: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      })
      .on('error', reject);
  });
}

/** A company of `n` located members (SQL, as bench/locate.ts seeds), spread over ~1.5 km. */
async function seedMembers(demo: DemoDay, n: number): Promise<{ key: string; companyId: string; ids: string[] }> {
  const owner = await demo.cli('create-company', '--name', 'Bench console', '--username', `bench.console.${Date.now()}@example.test`);
  const now = Date.now();
  const ids = Array.from({ length: n }, () => newId());
  await demo.db.query(
    `WITH u AS (INSERT INTO member_usernames (username, company_id, member_id)
                SELECT lower('bench.' || id || '@example.test'), $1, id FROM unnest($2::varchar[]) AS u(id))
     INSERT INTO members (id, company_id, username, name, email, phone, teams, created_at, updated_at)
     SELECT id, $1, 'bench.' || id || '@example.test', 'Member ' || i, 'm' || i || '@example.test', '+386 40 ' || i, '[]'::jsonb, $3 + i, $3 + i
       FROM unnest($2::varchar[]) WITH ORDINALITY AS u(id, i)`,
    [owner.companyUid, ids, now],
  );
  await demo.db.query(
    `INSERT INTO member_locations (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, tracking_status, updated_at)
     SELECT $1, id, $3, 46.05 + (i % 45) * 0.0003, 14.50 + (i / 45) * 0.0004, 10, i % 360, 4, 300, 80, true, $3
       FROM unnest($2::varchar[]) WITH ORDINALITY AS u(id, i)`,
    [owner.companyUid, ids, now],
  );
  return { key: owner.apiKey, companyId: owner.companyUid, ids };
}

/**
 * 2,000 members on the page; their latest locations move at `eventsPerSecond` rows per second (what
 * ingestion writes, as bench/locate.ts moves them), which the api's stream turns into position events;
 * frame deltas from requestAnimationFrame in the page, after a warm-up.
 */
async function frames(demo: DemoDay, log: (l: string) => void): Promise<{ deltas: number[]; positions: number; seconds: number }> {
  const { key, companyId, ids } = await seedMembers(demo, CONFIG.members);
  mkdirSync(ARTIFACTS, { recursive: true });
  const b = await freshBrowser();
  const watcher = await SseStream.open(`${demo.api.url}/v1/stream?events=position`, { 'api-key': key });
  let moving = true;
  const mover = (async () => {
    // round-robin, so every row moved is a different member within the stream's 2-s window (one event each)
    const tick = 100;
    const perTick = (CONFIG.eventsPerSecond * tick) / 1000;
    for (let next = 0; moving; next = (next + perTick) % ids.length) {
      const t0 = Date.now();
      await demo.db.query(
        `UPDATE member_locations SET ts = $3, lat = lat + (random() - 0.5) * 0.0002, lng = lng + (random() - 0.5) * 0.0002, spd = 4, updated_at = $3
          WHERE company_id = $1 AND member_id = ANY($2::varchar[])`,
        [companyId, ids.slice(next, next + perTick), Date.now()],
      );
      await new Promise((r) => setTimeout(r, Math.max(0, tick - (Date.now() - t0))));
    }
  })();
  try {
    const page = await b.context.newPage();
    await page.goto(`${demo.api.url}/console`);
    await page.fill('input[name=apiKey]', key);
    await page.press('input[name=apiKey]', 'Enter');
    await page.waitForSelector('body[data-day=drawn]', { timeout: 30_000 });
    log(`console: ${await page.locator('[data-member-uid]').count()} members listed; warming up ${CONFIG.warmupSeconds} s`);
    await new Promise((r) => setTimeout(r, CONFIG.warmupSeconds * 1000));
    const before = watcher.events.length;
    const t0 = Date.now();
    const deltas = await page.evaluate(
      (ms) =>
        new Promise<number[]>((resolve) => {
          const out: number[] = [];
          let last = performance.now();
          const end = last + ms;
          const frame = (t: number) => {
            out.push(t - last);
            last = t;
            if (t < end) requestAnimationFrame(frame);
            else resolve(out);
          };
          requestAnimationFrame(frame);
        }),
      CONFIG.measureSeconds * 1000,
    );
    const seconds = (Date.now() - t0) / 1000;
    await page.screenshot({ path: join(ARTIFACTS, 'bench-2000-members.png') });
    return { deltas: deltas.slice(1), positions: watcher.events.length - before, seconds };
  } finally {
    moving = false;
    await mover;
    watcher.close();
    await b.close();
  }
}

export async function runConsoleBench(opts: { serverVersion: string; loadAtStart: string; log: (l: string) => void }): Promise<number> {
  const { log } = opts;
  log('console: seeding the demo day on a database of its own (built api and worker)');
  const demo = await startDemoDay('console');
  try {
    const runs: Array<{ signIn: number; load: number }> = [];
    for (let i = 0; i < CONFIG.signIns; i++) runs.push(await dayDrawn(demo.api.url, demo.key));
    log(`console: sign-in → day-drawn ${runs.map((r) => fmt(r.signIn, 0)).join(', ')} ms`);

    const html = await (await fetch(`${demo.api.url}/console`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
    const served = await Promise.all(assets.map((a) => servedBytes(`${demo.api.url}${a}`)));
    const bundleKb = served.reduce((s, x) => s + x.bytes, 0) / 1024;

    log(
      `console: ${CONFIG.members} members, ${CONFIG.eventsPerSecond} location rows/s for ${CONFIG.warmupSeconds + CONFIG.measureSeconds} s`,
    );
    const f = await frames(demo, log);

    const rows: string[][] = [];
    let failed = 0;
    const row = (name: string, ours: string, baseline: string, target: string, ok: boolean) => {
      rows.push([name, ours, baseline, '', target, ok ? 'pass' : 'FAIL']);
      if (!ok) failed++;
    };
    const signIns = runs.map((r) => r.signIn);
    const loads = runs.map((r) => r.load);
    row(
      `sign-in (Enter) → day-drawn, demo day, fresh profile (cold cache), ${runs.length} runs: p50 / max (ms)`,
      `${fmt(percentile(signIns, 50), 0)} / ${fmt(Math.max(...signIns), 0)}`,
      `page load → day-drawn, key in the tab: ${fmt(percentile(loads, 50), 0)} / ${fmt(Math.max(...loads), 0)}`,
      `≤ ${TARGETS.dayDrawnMs} ms`,
      Math.max(...signIns) <= TARGETS.dayDrawnMs,
    );
    const p95 = percentile(f.deltas, 95);
    row(
      `${CONFIG.members} members, position events ${fmt(f.positions / f.seconds, 0)}/s: frame time p50 / p95 / max (ms, rAF deltas, ${f.deltas.length} frames)`,
      `${fmt(percentile(f.deltas, 50))} / ${fmt(p95)} / ${fmt(Math.max(...f.deltas))}`,
      '16.7 (60 Hz)',
      `p95 ≤ ${TARGETS.frameP95Ms} ms`,
      p95 <= TARGETS.frameP95Ms,
    );
    row(
      `bundle served (gzip): ${assets.length} files (${served.map((s) => s.encoding).join(', ')})`,
      `${fmt(bundleKb)} kB`,
      '',
      `≤ ${TARGETS.bundleKb} kB`,
      bundleKb <= TARGETS.bundleKb,
    );
    const report: PartReport = {
      rows,
      failed,
      notes: [
        `Chromium ${CHROMIUM} headless at 1280×800; the built api and worker on the demo day (bench/README.md, "console").`,
        `Position events counted by a second stream client of the same company; the location rows of ${CONFIG.eventsPerSecond} different members move each second (10 updates of ${CONFIG.eventsPerSecond / 10}, round-robin).`,
      ],
    };
    return printPart('console', report, opts);
  } finally {
    await demo.stop();
  }
}
