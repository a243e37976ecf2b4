import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { dayInZone, distanceM, wallClock } from '@app/core';
import { REPORT_RULES, REPORT_TYPES } from '@app/reports';
import { DEMO_SITES, DEMO_TIMEZONE, DEMO_WORKER_USERNAME } from '../../apps/cli/src/demo';
import { Child, getJson, startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';
import { gpxSchemaErrors, readCsv, readXlsx, readZip, reportFile } from '../support/report-readers';
import { startWorker } from '../support/worker';

/**
 * `npm run dev`'s demo on a fresh database (README): the built CLI migrates and seeds an empty
 * database, the built api and worker start on it, and `demo-live` — through the api like any client —
 * adds places at the demo jobs and the yard, a zone and an alert rule, and replays the demo worker's
 * day (the real recorded drive, parked at his two jobs and the yard) through pushlocations. Then the
 * day's events are there, a new user's first locate, gettracks and getplaces answer with that data,
 * and every report type comes back with content for him and today.
 */
const run = promisify(execFile);
const CLI = resolve(__dirname, '../../dist/apps/cli/src/main.js');
const server = new URL(process.env.DATABASE_URL!);
const dbName = `${server.pathname.slice(1)}_demo`;
const dbUrl = (() => {
  const u = new URL(server.toString());
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const env = { DATABASE_URL: dbUrl, QUEUE_PREFIX: `${process.env.QUEUE_PREFIX ?? 'fieldwork-test'}-demo` };

async function cli(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, maxBuffer: 1 << 22 });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

async function call(url: string, key: string, name: string, data: unknown): Promise<any> {
  const res = await fetch(`${url}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'API-Key': key },
    body: JSON.stringify({ data }),
  });
  return res.json();
}

describe('the demo on a fresh database (npm run dev)', () => {
  const admin = new Client({
    connectionString: (() => {
      const u = new URL(server.toString());
      u.pathname = '/postgres';
      return u.toString();
    })(),
  });
  const db = new Client({ connectionString: dbUrl });

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  });
  afterAll(async () => {
    await stopAllChildren();
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  });

  it('seeds, replays the worker’s day through the api: check-ins, a completed job, stops, an alert, clock-in/out; every report type is non-empty', async () => {
    expect(await cli('migrate')).toMatchObject({ migrated: expect.any(Number) });
    // the day (about an hour) must start after the company's midnight: in the first hours of the
    // day in Zagreb, the demo company lives in Tokyo instead (8 hours ahead)
    const zone = wallClock(Date.now(), DEMO_TIMEZONE).hour >= 2 ? DEMO_TIMEZONE : 'Asia/Tokyo';
    const seeded = await cli('seed-demo', '--timezone', zone);
    expect(seeded).toMatchObject({ seeded: true, username: 'dispatch@demo.fieldwork.test' });
    await db.connect();
    const api = await startApiProcess(env);
    await startWorker('demo-worker', env, (sql, params) => db.query(sql, params));

    const replayed = await cli('demo-live', '--url', api.url, '--key', seeded.apiKey);
    // 8 demo jobs + the yard; the trace's 104 timed points and 110 parked ones (10 + 50 + 30 + 20: 55 min at one per 30 s)
    expect(replayed).toMatchObject({ places: 9, zones: 1, alerts: 1, fixes: 214 });
    const today = dayInZone(Date.now(), zone);
    expect(dayInZone(replayed.from, zone)).toBe(today);

    const located = await call(api.url, seeded.apiKey, 'locate', { teams: true, withAddress: true });
    expect(located.status).toBe(0);
    const luka = located.accounts.find((a: { usr: string }) => a.usr === DEMO_WORKER_USERNAME);
    // parked at the yard at the end of the day
    expect(luka).toMatchObject({ address: 'Višnjan yard' });
    expect(distanceM(luka, DEMO_SITES.yard)).toBeLessThan(30);
    expect(Date.now() - luka.ts).toBeLessThan(5 * 60_000);

    // the day's events, written by the api and the worker (geofences, alerts)
    const actions = async () =>
      new Set(
        (await db.query<{ action: string }>(`SELECT DISTINCT action FROM outbox_events`)).rows.map((r) => r.action),
      );
    const wanted = ['placecheckin', 'placecheckout', 'jobcheckin', 'jobcheckout', 'jobcompleted', 'alerttriggered', 'clockin', 'clockout'];
    await waitFor('the day’s events', async () => {
      const seen = await actions();
      return wanted.every((a) => seen.has(a)) ? true : undefined;
    }, {
      timeoutMs: 30_000,
      intervalMs: 500,
    }).catch(async (e) => {
      throw new Error(`${(e as Error).message}: seen ${[...(await actions())].join(', ')}`);
    });

    const now = Date.now();
    const tracks = await waitFor(
      'the worker to build the drive’s tracks',
      async () => {
        const answer = await call(api.url, seeded.apiKey, 'gettracks', { uids: [luka.uid], from: now - 86_400_000, until: now + 60_000 });
        const fixes = answer.tracks?.reduce((n: number, t: { waypoint_count: number }) => n + t.waypoint_count, 0);
        return answer.status === 0 && answer.tracks.length > 1 && fixes > 50 ? answer.tracks : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(tracks[0]).toMatchObject({ owner_uid: luka.uid, kind: 'track_entry', short_encoded: expect.any(String) });
    const shared = await getJson(tracks[0].share_url);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ type: 'Feature', geometry: { type: 'LineString' } });

    const all = await call(api.url, seeded.apiKey, 'getplaces', {});
    expect(all.places.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['Boiler service', 'Leaking radiator', 'Višnjan yard']));
    const boiler = all.places.find((p: { name: string }) => p.name === 'Boiler service');
    // the jobs now name their places; Luka's route is numbered from 1
    const jobs = await call(api.url, seeded.apiKey, 'getjobs', {});
    expect(jobs.jobs.every((j: { placeUid: string }) => typeof j.placeUid === 'string' && j.placeUid.length > 0)).toBe(true);
    const own = jobs.jobs.filter((j: { worker?: string }) => j.worker === DEMO_WORKER_USERNAME);
    expect(own.map((j: { number: number }) => j.number).sort()).toEqual([1, 2]);
    expect(own.find((j: { destinationName: string }) => j.destinationName === 'Boiler service')).toMatchObject({
      tsCheckIn: expect.any(Number),
      tsCheckOut: expect.any(Number),
      tsDoneSuccess: expect.any(Number),
    });

    // every report type, for the demo worker (or his first job's place) and today
    for (const type of REPORT_TYPES) {
      const rule = REPORT_RULES[type];
      const format = rule.formats.includes('csv') ? 'csv' : rule.formats.includes('xlsx') ? 'xlsx' : 'zip';
      const accounts = rule.subjects === 'places' ? [boiler.uid] : rule.subjects === 'members' ? [DEMO_WORKER_USERNAME] : undefined;
      const dates = rule.range === 'none' ? {} : { day: today };
      const file = await reportFile(api, { reporttype: type, format, ...dates, ...(accounts ? { accounts } : {}) }, seeded.apiKey);
      const rows = format === 'csv' ? readCsv(file.body) : format === 'xlsx' ? readXlsx(file.body) : [];
      if (format === 'zip') {
        const files = [...(await readZip(file.body)).values()];
        expect(files.length).toBeGreaterThan(0);
        for (const f of files) expect(gpxSchemaErrors(f)).toBeNull();
        expect(files.map((f) => (f.toString('utf8').match(/<trkpt /g) ?? []).length).reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
        continue;
      }
      // a row of content: one that is not only a name and zeros / a "total" label
      const content = rows.slice(1).filter((r) => r.some((c) => c !== null && c !== '' && c !== 0 && c !== '0' && !/^(0:00:00|0(\.0+)?|total)$/i.test(String(c)) && c !== luka.name));
      if (content.length === 0) throw new Error(`${type}: no content rows in ${JSON.stringify(rows)}`);
    }

    // then he keeps driving in real time (demo-follow, as npm run dev runs it) until SIGTERM
    const followFrom = Date.now();
    const follow = new Child('demo-follow', process.execPath, [CLI, 'demo-follow', '--url', api.url], { ...process.env, ...env });
    const moved = await waitFor(
      'a live fix',
      async () => {
        const answer = await call(api.url, seeded.apiKey, 'locate', { teams: true });
        const now = answer.accounts?.find((a: { usr: string }) => a.usr === DEMO_WORKER_USERNAME);
        return now && now.ts >= followFrom ? now : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 500 },
    ).catch((e) => {
      throw new Error(`${(e as Error).message}\n${follow.output()}`);
    });
    expect(distanceM(moved, DEMO_SITES.yard)).toBeLessThan(100); // the loop starts at the yard
    expect(await follow.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(JSON.parse(follow.stdout.trim().split('\n').pop()!)).toEqual({ fixes: expect.any(Number) });
    // its key is revoked on the way out
    const keys = await db.query(`SELECT revoked_at FROM api_keys WHERE label = 'demo live'`);
    expect(keys.rows).toEqual([{ revoked_at: expect.anything() }]);
  }, 240_000);
});
