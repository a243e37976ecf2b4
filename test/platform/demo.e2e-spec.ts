import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { dayInZone } from '@app/core';
import { getJson, startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';
import { gpxSchemaErrors, readZip, reportFile } from '../support/report-readers';
import { startWorker } from '../support/worker';

/**
 * `npm run dev`'s demo on a fresh database (README): the built CLI migrates and seeds an empty
 * database, the built api and worker start on it, and `demo-live` — through the api like any client —
 * adds places at the demo jobs and replays the real recorded drive through pushlocations. Then a new
 * user's first locate, gettracks and getplaces answer with that real data.
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

  it('seeds, replays a real drive through the api, and locate, gettracks and getplaces show it', async () => {
    expect(await cli('migrate')).toMatchObject({ migrated: expect.any(Number) });
    const seeded = await cli('seed-demo');
    expect(seeded).toMatchObject({ seeded: true, username: 'dispatch@demo.fieldwork.test' });
    await db.connect();
    const api = await startApiProcess(env);
    await startWorker('demo-worker', env, (sql, params) => db.query(sql, params));

    const replayed = await cli('demo-live', '--url', api.url, '--key', seeded.apiKey);
    // 8 demo jobs + the drive's yard and stop; the trace's 104 timed points (apps/cli/demo-data/README.md)
    expect(replayed).toEqual({ places: 10, fixes: 104 });

    const located = await call(api.url, seeded.apiKey, 'locate', { teams: true, withAddress: true });
    expect(located.status).toBe(0);
    const luka = located.accounts.find((a: { usr: string }) => a.usr === 'luka.novak@demo.fieldwork.test');
    // the drive's last fix (45.2733349521, 13.7139970623), inside the yard's 60 m
    expect(luka).toMatchObject({ lat: 45.2733349521, lng: 13.7139970623, address: 'Višnjan yard' });
    expect(Date.now() - luka.ts).toBeLessThan(5 * 60_000);

    const now = Date.now();
    const tracks = await waitFor(
      'the worker to build the drive’s tracks',
      async () => {
        const answer = await call(api.url, seeded.apiKey, 'gettracks', { uids: [luka.uid], from: now - 86_400_000, until: now + 60_000 });
        const fixes = answer.tracks?.reduce((n: number, t: { waypoint_count: number }) => n + t.waypoint_count, 0);
        return answer.status === 0 && answer.tracks.length > 0 && fixes > 50 ? answer.tracks : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(tracks[0]).toMatchObject({ owner_uid: luka.uid, kind: 'track_entry', short_encoded: expect.any(String) });
    expect(tracks[0].distance).toBeGreaterThan(500);
    const shared = await getJson(tracks[0].share_url);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ type: 'Feature', geometry: { type: 'LineString' } });

    const places = await call(api.url, seeded.apiKey, 'getplaces', { max: 5 });
    expect(places.status).toBe(0);
    expect(places.places).toHaveLength(5);
    const all = await call(api.url, seeded.apiKey, 'getplaces', {});
    expect(all.places.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['Boiler service', 'Višnjan yard', 'Višnjan customer']),
    );

    // the jobs now name their places
    const jobs = await call(api.url, seeded.apiKey, 'getjobs', {});
    expect(jobs.jobs.every((j: { placeUid: string }) => typeof j.placeUid === 'string' && j.placeUid.length > 0)).toBe(true);

    // the printed report line: today's drive as GPX files (the demo company is in Europe/Ljubljana)
    const today = dayInZone(Date.now(), 'Europe/Ljubljana');
    const gpx = await reportFile(api, { reporttype: 'gpx', format: 'zip', day: today, accounts: ['luka.novak@demo.fieldwork.test'] }, seeded.apiKey);
    const files = [...(await readZip(gpx.body)).values()];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(gpxSchemaErrors(file)).toBeNull();
    expect(files.map((f) => (f.toString('utf8').match(/<trkpt /g) ?? []).length).reduce((a, b) => a + b, 0)).toBeGreaterThan(50);
  }, 120_000);
});
