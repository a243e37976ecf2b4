import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeIntegers, decodePolyline } from '@app/core';
import { Fix, FixTasksProducer, TrackBuilder } from '@app/locations';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { startApiProcess, stopAllChildren, waitFor } from '../support/proc-child';
import { startWorker } from '../support/worker';
import { GPX_TRACES, parseGpxFixes, readGpxFixes } from '../support/gpx';
import { GPX_FIXTURES_DIR } from '../support/fixtures-dir';
import { independentStretches } from '../support/track-stretches';

/**
 * Tracks end to end: the real traces of test/fixtures/gpx pushed through pushlocations and /osmand
 * (shifted to recent times), tracks built by the BUILT worker's Locations processor (the `tracks` fix
 * consumer), read back with gettracks and the public share links (GPX checked by xmllint against the
 * GPX 1.1 schema, GeoJSON against RFC 7946's structure). The other cases also run the consumer
 * directly (the same service, on the api's module) to control when a rebuild happens; the worker's
 * concurrent runs of the same tasks must not change their outcome (the consumer is idempotent).
 */
const PREFIX = `fieldwork-tracks-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

describe('tracks', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api);
    await startWorker('worker', { QUEUE_PREFIX: PREFIX }, (sql, params) => db.query(sql, params));
  }, 60_000);

  afterAll(async () => {
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  const MIN = 60_000;
  const DAY = 24 * 3600 * 1000;

  /** Shifts a trace so its last fix is `endsAgoMs` before now; keeps the intervals. */
  function shifted(fixes: Fix[], endsAgoMs: number): Fix[] {
    const sorted = [...fixes].sort((a, b) => a.ts - b.ts);
    const delta = Date.now() - endsAgoMs - sorted[sorted.length - 1].ts;
    return sorted.map((f) => ({ ...f, ts: f.ts + delta }));
  }

  /** pushlocations with the member's key, in calls of at most 1000 fixes; every fix must be accepted. */
  async function push(key: string, fixes: Fix[], extra: Record<string, unknown> = {}): Promise<void> {
    for (let i = 0; i < fixes.length; i += 1000) {
      const locations = fixes.slice(i, i + 1000).map((f) => ({
        ts: f.ts,
        lat: f.lat,
        lng: f.lng,
        ...(f.elv !== null ? { elv: f.elv } : {}),
        ...(f.acc !== null ? { acc: f.acc } : {}),
        ...(f.dir !== null ? { dir: f.dir } : {}),
        ...(f.spd !== null ? { spd: f.spd } : {}),
      }));
      const res = await action<{ accepted: number; rejected: unknown[] }>(api, 'pushlocations', { locations, ...extra }, { key });
      expect(res.body).toMatchObject({ status: 0, accepted: locations.length, rejected: [] });
    }
  }

  /** Runs the `tracks` fix consumer for a member's task, as the worker's Locations processor does. */
  const build = (memberId: string, fromTs: number, toTs = fromTs, companyId = company.companyUid) =>
    api.app.get(TrackBuilder).onFixes({ companyId, memberId, fromTs, toTs });

  const gettracks = (key: string, data: Record<string, unknown>) => action<any>(api, 'gettracks', data, { key });

  /** The member's tracks and share rows exactly as stored (path as text). */
  const stored = (memberId: string) =>
    db.query(
      `SELECT t.*, ST_AsText(t.path) AS path_text, s.token AS share_row FROM tracks t
         LEFT JOIN track_shares s ON s.company_id = t.company_id AND s.track_id = t.id
        WHERE t.company_id = $1 AND t.member_id = $2 ORDER BY t.start_ts`,
      [company.companyUid, memberId],
    );

  function xmllint(xml: string): { status: number | null; output: string } {
    const dir = mkdtempSync(path.join(tmpdir(), 'gpx-'));
    try {
      const file = path.join(dir, 'track.gpx');
      writeFileSync(file, xml);
      const res = spawnSync('xmllint', ['--noout', '--schema', path.join(GPX_FIXTURES_DIR, 'gpx.xsd'), file], { encoding: 'utf8' });
      if (res.error) throw new Error(`xmllint not runnable (bash scripts/test-tools.sh installs it): ${res.error.message}`);
      return { status: res.status, output: res.stderr + res.stdout };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** RFC 7946 checks of a track Feature: structure, [lng, lat(, elv)] order, finite numbers, bbox. */
  function expectRfc7946Track(g: any, fixes: Fix[]) {
    expect(g.type).toBe('Feature');
    expect(g.geometry.type).toBe('LineString');
    expect(Array.isArray(g.geometry.coordinates)).toBe(true);
    expect(g.geometry.coordinates.length).toBe(fixes.length);
    g.geometry.coordinates.forEach((c: number[], i: number) => {
      expect(c.length === 2 || c.length === 3).toBe(true);
      c.forEach((n) => expect(Number.isFinite(n)).toBe(true));
      expect(c[0]).toBeCloseTo(fixes[i].lng, 9);
      expect(c[1]).toBeCloseTo(fixes[i].lat, 9);
      expect(c[0]).toBeGreaterThanOrEqual(-180);
      expect(c[0]).toBeLessThanOrEqual(180);
      expect(c[1]).toBeGreaterThanOrEqual(-90);
      expect(c[1]).toBeLessThanOrEqual(90);
    });
    expect(g.bbox).toHaveLength(4);
    const [w, s, e, n] = g.bbox as number[];
    expect(s).toBeLessThanOrEqual(n);
    expect(w).toBeLessThanOrEqual(e); // these traces don't cross the antimeridian
    for (const c of g.geometry.coordinates) {
      expect(c[0]).toBeGreaterThanOrEqual(w);
      expect(c[0]).toBeLessThanOrEqual(e);
      expect(c[1]).toBeGreaterThanOrEqual(s);
      expect(c[1]).toBeLessThanOrEqual(n);
    }
    expect(typeof g.properties).toBe('object');
  }

  /**
   * Traccar Client's query form, one fix a request: `id` = the member's device id, `timestamp` Unix
   * seconds, `altitude` m (the traces have whole seconds and no speeds).
   */
  async function osmand(deviceId: string, fixes: Fix[]): Promise<void> {
    for (const f of fixes) {
      const params = new URLSearchParams({ id: deviceId, lat: String(f.lat), lon: String(f.lng), timestamp: String(f.ts / 1000) });
      if (f.elv !== null) params.set('altitude', String(f.elv));
      const res = await fetch(`${api.url}/osmand?${params}`);
      expect([res.status, await res.text()]).toEqual([200, '']);
    }
  }

  const PATHS = GPX_TRACES.flatMap((file) => [
    [file, 'pushlocations'],
    [file, '/osmand'],
  ]) as Array<[string, 'pushlocations' | '/osmand']>;

  describe.each(PATHS)('real trace %s through %s', (file, via) => {
    let member: { uid: string; key: string };
    let fixes: Fix[];
    let tracks: any[];

    beforeAll(async () => {
      member = await createMember(api, company);
      // whole seconds, as both paths carry them
      fixes = shifted(readGpxFixes(file), 30 * MIN).map((f) => ({ ...f, ts: Math.round(f.ts / 1000) * 1000 }));
      if (via === 'pushlocations') {
        await push(member.key, fixes);
      } else {
        const deviceId = `traccar-${member.uid}`;
        expect((await action(api, 'editaccount', { uid: member.uid, device_id: deviceId }, { key: company.key })).body.status).toBe(0);
        await osmand(deviceId, fixes);
      }
      // the worker's fixes tasks: done once a rebuild has seen the last fix
      const expected = independentStretches(fixes);
      await waitFor(
        `the worker's tracks of ${file} via ${via}`,
        async () => {
          const rows = await stored(member.uid);
          return rows.length === expected.length && Number(rows.at(-1).end_ts) === expected.at(-1)!.fixes.at(-1)!.ts;
        },
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      const res = await gettracks(member.key, { uids: [member.uid], from: fixes[0].ts - DAY, until: Date.now() + MIN, withCourse: true });
      expect(res.http).toBe(200);
      tracks = res.body.tracks;
    });

    it('each built track matches the stretch the split rule gives, computed independently (distance, duration within 1 %)', () => {
      const expected = independentStretches(fixes);
      expect(tracks.length).toBe(expected.length);
      tracks.forEach((t, k) => {
        const e = expected[k];
        expect([t.start_ts, t.end_ts]).toEqual([e.fixes[0].ts, e.fixes.at(-1)!.ts]);
        if (e.distance > 0) expect(Math.abs(t.distance / e.distance - 1)).toBeLessThan(0.01);
        else expect(t.distance).toBe(0);
        if (e.durationMs > 0) expect(Math.abs((t.end_ts - t.start_ts) / e.durationMs - 1)).toBeLessThan(0.01);
        expect(t.waypoint_count).toBe(e.fixes.length);
      });
    });

    it('every Track entry field of the spec; the polyline decodes back to the used fixes within 1e-5°', () => {
      const expected = independentStretches(fixes);
      tracks.forEach((t, k) => {
        expect(Number.isSafeInteger(t.id)).toBe(true);
        expect(t).toMatchObject({ kind: 'track_entry', labels: 0, owner_uid: member.uid });
        for (const key of [
          'start_lat',
          'start_lng',
          'end_lat',
          'end_lng',
          'distance',
          'speed_avg',
          'speed_max',
          'lat_min',
          'lat_max',
          'lng_min',
          'lng_max',
        ])
          expect(Number.isFinite(t[key])).toBe(true);
        for (const key of ['altitude_min', 'altitude_max', 'altitude_gain', 'altitude_loss']) expect(Number.isInteger(t[key])).toBe(true);
        expect(t.share_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/share\/tracks\/[0-9a-f]{32}$/);
        const decoded = decodePolyline(t.short_encoded);
        expect(decoded).toHaveLength(expected[k].fixes.length);
        decoded.forEach((p, i) => {
          expect(Math.abs(p.lat - expected[k].fixes[i].lat)).toBeLessThanOrEqual(1e-5);
          expect(Math.abs(p.lng - expected[k].fixes[i].lng)).toBeLessThanOrEqual(1e-5);
        });
        const course = decodeIntegers(t.course_encoded);
        expect(course).toHaveLength(expected[k].fixes.length);
        course.forEach((h) => expect(h >= 0 && h < 360).toBe(true));
        expect(t.speed_avg).toBeCloseTo(t.end_ts > t.start_ts ? t.distance / ((t.end_ts - t.start_ts) / 1000) : 0, 9);
      });
    });

    it('the share URL serves valid GPX 1.1 (xmllint) and RFC 7946 GeoJSON of the same points', async () => {
      const expected = independentStretches(fixes);
      for (const [k, t] of tracks.entries()) {
        const url = t.share_url.replace(/^http:\/\/127\.0\.0\.1:\d+/, api.url);
        const gpx = await fetch(`${url}.gpx`);
        expect(gpx.status).toBe(200);
        expect(gpx.headers.get('content-type')).toMatch(/^application\/gpx\+xml/);
        expect(gpx.headers.get('content-disposition')).toBe(`attachment; filename="track-${t.id}.gpx"`);
        const xml = await gpx.text();
        const lint = xmllint(xml);
        expect(lint.output).toMatch(/validates/);
        expect(lint.status).toBe(0);
        expect(parseGpxFixes(xml).map((f) => [f.ts, f.lat, f.lng])).toEqual(expected[k].fixes.map((f) => [f.ts, f.lat, f.lng]));

        for (const suffix of ['', '.geojson']) {
          const res = await fetch(`${url}${suffix}`);
          expect(res.status).toBe(200);
          expect(res.headers.get('content-type')).toMatch(/^application\/geo\+json/);
          const g: any = await res.json();
          if (expected[k].fixes.length >= 2) expectRfc7946Track(g, expected[k].fixes);
          expect(g.properties.id).toBe(t.id);
        }
      }
    });
  });

  it('without withCourse there is no course_encoded; the legacy accounts shape keys tracks by the key as sent', async () => {
    const member = await createMember(api, company);
    const fixes = shifted(readGpxFixes('around-visnjan-with-car.gpx'), 20 * MIN);
    await push(member.key, fixes);
    await build(member.uid, fixes[0].ts);
    const range = { from: fixes[0].ts, until: fixes.at(-1)!.ts };
    const modern = await gettracks(company.key, { uids: [member.uid], ...range });
    expect(modern.body.tracks).toHaveLength(1);
    expect(modern.body.tracks[0]).not.toHaveProperty('course_encoded');
    const legacy = await gettracks(company.key, { accounts: [member.username, member.uid, 'nobody@example.test'], ...range });
    expect(legacy.body).toEqual({
      status: 0,
      accounts: { [member.username]: modern.body.tracks, [member.uid]: modern.body.tracks, 'nobody@example.test': [] },
    });
    // uids wins over accounts
    expect((await gettracks(company.key, { uids: [member.uid], accounts: [member.uid], ...range })).body).toEqual(modern.body);
  });

  it('tracks overlapping [from, until), oldest first: a range ending at a track start leaves it out', async () => {
    const member = await createMember(api, company);
    const fixes = shifted(readGpxFixes('cerknicko-jezero.gpx'), 15 * MIN);
    await push(member.key, fixes);
    await build(member.uid, fixes[0].ts);
    const all = (await gettracks(company.key, { uids: [member.uid], from: fixes[0].ts, until: Date.now() })).body.tracks;
    expect(all.length).toBeGreaterThan(2);
    for (let k = 1; k < all.length; k++) expect(all[k].start_ts).toBeGreaterThan(all[k - 1].end_ts);
    const second = all[1];
    const only = (await gettracks(company.key, { uids: [member.uid], from: second.start_ts, until: second.end_ts })).body.tracks;
    expect(only.map((t: any) => t.id)).toEqual([second.id]);
    const before = (await gettracks(company.key, { uids: [member.uid], from: all[0].start_ts, until: second.start_ts })).body.tracks;
    expect(before.map((t: any) => t.id)).toEqual([all[0].id]);
  });

  it('range: until before from, or more than 31 days → -1 naming the field; from and until are required', async () => {
    const me = { uids: [company.ownerUid] };
    const T = Date.UTC(2020, 0, 1);
    const back = await gettracks(company.key, { ...me, from: T + 2000, until: T + 1000 });
    expect([back.http, back.body.status]).toEqual([400, -1]);
    expect(back.body.error).toMatch(/data\.until/);
    const long = await gettracks(company.key, { ...me, from: T, until: T + 31 * DAY + 1 });
    expect([long.http, long.body.status]).toEqual([400, -1]);
    expect(long.body.error).toMatch(/data\.until.*31 days/);
    expect((await gettracks(company.key, { ...me, from: T, until: T + 31 * DAY })).body).toEqual({ status: 0, tracks: [] });
    expect((await gettracks(company.key, { ...me, from: 0, until: 0 })).body).toEqual({ status: 0, tracks: [] });
    const missing = await gettracks(company.key, { ...me, from: T });
    expect([missing.http, missing.body.status]).toEqual([400, -1]);
    expect(missing.body.error).toMatch(/until/);
    const neither = await gettracks(company.key, { from: T, until: T + 1 });
    expect(neither.body.error).toMatch(/data\.uids/);
  });

  it('a from or until that looks like seconds → -1 naming the unit; a wrong type is a type error', async () => {
    const me = { uids: [company.ownerUid] };
    const s = Math.floor(Date.UTC(2026, 10, 27) / 1000);
    const secs = await gettracks(company.key, { ...me, from: s, until: Date.UTC(2026, 10, 27) + 1000 });
    expect({ http: secs.http, body: secs.body }).toEqual({
      http: 400,
      body: { status: -1, error: `data.from: must be ms since the epoch; ${s} looks like seconds` },
    });
    const both = await gettracks(company.key, { ...me, from: s, until: s + 60 });
    expect(both.body).toEqual({
      status: -1,
      error: `data.from: must be ms since the epoch; ${s} looks like seconds; data.until: must be ms since the epoch; ${s + 60} looks like seconds`,
    });
    const typed = await gettracks(company.key, { ...me, from: String(Date.UTC(2026, 10, 27)), until: Date.UTC(2026, 10, 28) });
    expect(typed.body).toEqual({ status: -1, error: 'data.from: must be an integer number' });
  });

  it('the open track: included with end_ts = its last fix, extended in place (same id and token) by later fixes', async () => {
    const member = await createMember(api, company);
    const now = Date.now();
    const first = [0, 1, 2, 3].map((i) => ({
      ts: now - (4 - i) * MIN,
      lat: 46.05 + i * 0.002,
      lng: 14.5,
      acc: 10,
      dir: null,
      spd: null,
      elv: null,
      bat: null,
    }));
    await push(member.key, first, { tracking: true, tracking_ts: first[0].ts });
    await build(member.uid, first[0].ts);
    const [open] = (await gettracks(member.key, { uids: [member.uid], from: now - 10 * MIN, until: now + MIN })).body.tracks;
    expect(open.end_ts).toBe(first[3].ts);
    expect((await stored(member.uid))[0].open).toBe(true);

    const later = { ts: Date.now(), lat: 46.05 + 5 * 0.002, lng: 14.5, acc: 10, dir: null, spd: null, elv: null, bat: null };
    await push(member.key, [later]);
    await build(member.uid, later.ts);
    const [extended] = (await gettracks(member.key, { uids: [member.uid], from: now - 10 * MIN, until: now + 2 * MIN })).body.tracks;
    expect([extended.id, extended.share_url]).toEqual([open.id, open.share_url]);
    expect(extended.end_ts).toBe(later.ts);
    expect(extended.waypoint_count).toBe(5);

    // tracking switched off closes it
    const off = await action(api, 'pushlocations', { locations: [], tracking: false, tracking_ts: later.ts }, { key: member.key });
    expect(off.body.status).toBe(0);
    expect(
      await db.query(`SELECT tracking FROM clock_events WHERE company_id = $1 AND member_id = $2 ORDER BY ts`, [
        company.companyUid,
        member.uid,
      ]),
    ).toEqual([{ tracking: true }, { tracking: false }]);
    await build(member.uid, later.ts);
    expect((await stored(member.uid)).map((t: any) => t.open)).toEqual([false]);
  });

  it('idempotent: the fixes task run again (and retried from the middle) changes no row', async () => {
    const member = await createMember(api, company);
    const fixes = shifted(readGpxFixes('korita-zbevnica.gpx'), 20 * MIN);
    await push(member.key, fixes);
    await build(member.uid, fixes[0].ts, fixes.at(-1)!.ts);
    const before = await stored(member.uid);
    expect(before.length).toBeGreaterThan(3);
    expect(before.every((t: any) => t.share_row === t.share_token)).toBe(true);
    expect(before.filter((t: any) => t.waypoint_count >= 2).every((t: any) => t.path_text?.startsWith('LINESTRING'))).toBe(true);
    await build(member.uid, fixes[0].ts, fixes.at(-1)!.ts);
    await build(member.uid, fixes[Math.floor(fixes.length / 2)].ts, fixes.at(-1)!.ts);
    await build(member.uid, fixes.at(-1)!.ts);
    expect(await stored(member.uid)).toEqual(before);
    const [{ shares }] = await db.query(
      `SELECT count(*)::int AS shares FROM track_shares WHERE company_id = $1 AND track_id = ANY($2::bigint[])`,
      [company.companyUid, before.map((t: any) => t.id)],
    );
    expect(shares).toBe(before.length);
  });

  it.each(GPX_TRACES)(
    '%s pushed in small calls: the open track extended by each call equals, row for row, the tracks rebuilt from scratch',
    async (file) => {
      const member = await createMember(api, company);
      const builder = api.app.get(TrackBuilder);
      const fixes = shifted(readGpxFixes(file), MIN);
      const sizes = [1, 7, 23, 50, 3, 120];
      const modes: string[] = [];
      // stored straight into the table, so no worker task races the builds this test makes
      const insert = async (rows: Fix[]) => {
        await db.query(`SELECT location_fixes_ensure_partition($1), location_fixes_ensure_partition($2)`, [rows[0].ts, rows.at(-1)!.ts]);
        await db.query(
          `INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, acc, dir, spd, elv, bat, received_at)
         SELECT $1, $2, f.ts, f.lat, f.lng, f.acc, f.dir, f.spd, f.elv, f.bat, 0
           FROM jsonb_to_recordset($3::jsonb) AS f(ts bigint, lat float8, lng float8, acc int, dir int, spd float8, elv int, bat int)`,
          [
            company.companyUid,
            member.uid,
            JSON.stringify(
              rows.map((f) => ({
                ...f,
                acc: f.acc && Math.round(f.acc),
                dir: f.dir && Math.round(f.dir),
                elv: f.elv && Math.round(f.elv),
              })),
            ),
          ],
        );
      };
      for (let i = 0, k = 0; i < fixes.length; k++) {
        const chunk = fixes.slice(i, i + sizes[k % sizes.length]);
        i += chunk.length;
        await insert(chunk);
        // the task's start, as the api enqueues it: the 10-minute bucket of the call's first fix
        // built as if live: a second after the call's last fix
        const summary = await builder.rebuild(
          company.companyUid,
          member.uid,
          Math.floor(chunk[0].ts / (10 * MIN)) * (10 * MIN),
          chunk.at(-1)!.ts + 1000,
        );
        modes.push(summary.mode);
      }
      // a late fix inside the open track: its task cannot append, the track is rebuilt
      const [{ build_state: state }] = await db.query(`SELECT build_state FROM tracks WHERE company_id = $1 AND member_id = $2 AND open`, [
        company.companyUid,
        member.uid,
      ]);
      const inside = fixes.filter((f) => f.ts >= state.firstFixTs && f.ts <= state.lastFixTs);
      const [a, b] = inside.slice(Math.floor(inside.length / 2));
      await insert([{ ...a, ts: Math.floor((a.ts + b.ts) / 2) }]);
      expect((await builder.rebuild(company.companyUid, member.uid, Math.floor(a.ts / (10 * MIN)) * (10 * MIN))).mode).toBe('rebuild');

      const comparable = (rows: any[]) =>
        rows.map((row) =>
          Object.fromEntries(Object.entries(row).filter(([k]) => !['id', 'share_token', 'share_row', 'updated_at'].includes(k))),
        );
      const incremental = await stored(member.uid);
      // a trace that ends stopped has no open track for a while: those calls rebuild
      expect(modes).toContain('append');
      expect(incremental.at(-1).open).toBe(true);
      expect(incremental.at(-1).build_state).not.toBeNull();
      await db.transaction(async (m) => {
        await m.query(
          `WITH s AS (DELETE FROM track_shares WHERE company_id = $1 AND track_id IN (SELECT id FROM tracks WHERE company_id = $1 AND member_id = $2) RETURNING token)
           DELETE FROM share_tokens WHERE token IN (SELECT token FROM s)`,
          [company.companyUid, member.uid],
        );
        await m.query(`DELETE FROM tracks WHERE company_id = $1 AND member_id = $2`, [company.companyUid, member.uid]);
      });
      expect((await builder.rebuild(company.companyUid, member.uid, fixes[0].ts)).mode).toBe('rebuild');
      expect(comparable(await stored(member.uid))).toEqual(comparable(incremental));
    },
  );

  it('appends prove "no late fix" from the ingest marker alone; a late fix stored inside the open track (either ingest path) still rebuilds it', async () => {
    const member = await createMember(api, company);
    const builder = api.app.get(TrackBuilder);
    // the api stores through its real statements but sends no task, so only this test's builds run (each
    // "as if live": a second after its newest fix), with the ranges it chooses
    const enqueue = jest.spyOn(api.app.get(FixTasksProducer), 'enqueue').mockImplementation(() => undefined);
    try {
      // a straight drive, a fix every 10 s for 30 min: one open track, no stop
      const t0 = Date.now() - 40 * MIN;
      const at = (i: number) => ({
        ts: t0 + i * 10_000,
        lat: 46.05 + (i * 100) / 111_132,
        lng: 14.5,
        acc: 5,
        dir: null,
        spd: null,
        elv: null,
        bat: null,
      });
      const fixes = Array.from({ length: 180 }, (_, i) => at(i));
      const lateFixes = async () =>
        Number(
          (
            await db.query(`SELECT late_fix_count FROM member_locations WHERE company_id = $1 AND member_id = $2`, [
              company.companyUid,
              member.uid,
            ])
          )[0].late_fix_count,
        );
      const live = (fromTs: number, newest: number) => builder.rebuild(company.companyUid, member.uid, fromTs, newest + 1000);
      await push(member.key, fixes.slice(0, 120));
      expect((await live(fixes[0].ts, fixes[119].ts)).mode).toBe('rebuild');
      // in order, and a retried call (all duplicates): nothing is late, each append reads no track
      for (let i = 120; i < 180; i += 20) {
        const chunk = fixes.slice(i, i + 20);
        await push(member.key, chunk);
        if (i === 140) {
          const locations = chunk.map(({ ts, lat, lng, acc }) => ({ ts, lat, lng, acc }));
          expect((await action<any>(api, 'pushlocations', { locations }, { key: member.key })).body).toMatchObject({
            status: 0,
            accepted: 0,
          });
        }
        expect(await live(chunk[0].ts, chunk.at(-1)!.ts)).toMatchObject({ mode: 'append', lateCheck: 'marker', updated: 1 });
      }
      expect(await lateFixes()).toBe(0);

      // late fixes 15 and 20 min into the track (halfway between two stored ones, on the line), through
      // the single statement and then the tracking transaction, built by tasks whose range starts after
      // them (as a coalesced task's may): only the marker can tell the builder
      const late = [at(90.5), at(120.5)];
      for (const [k, fix] of late.entries()) {
        await push(member.key, [fix], k === 0 ? {} : { tracking: true });
        expect(await lateFixes()).toBe(k + 1);
        expect(await live(fixes[170].ts, fixes[179].ts)).toMatchObject({ mode: 'rebuild' });
        const [track] = await stored(member.uid);
        expect(Number(track.waypoint_count)).toBe(180 + k + 1);
        // built again: nothing changes, and the marker is the one the rebuild saw
        expect(await live(fixes[170].ts, fixes[179].ts)).toMatchObject({ mode: 'append', lateCheck: 'marker', unchanged: 1 });
      }

      // the same fixes stored for another member and built from scratch: the same rows
      const reference = await createMember(api, company);
      const all = [...fixes, ...late].sort((a, b) => a.ts - b.ts);
      await db.query(
        `INSERT INTO location_fixes (company_id, member_id, ts, lat, lng, acc, received_at)
         SELECT $1, $2, f.ts, f.lat, f.lng, f.acc, 0 FROM jsonb_to_recordset($3::jsonb) AS f(ts bigint, lat float8, lng float8, acc int)`,
        [company.companyUid, reference.uid, JSON.stringify(all)],
      );
      expect((await builder.rebuild(company.companyUid, reference.uid, all[0].ts, fixes[179].ts + 1000)).mode).toBe('rebuild');
      const comparable = (rows: any[]) =>
        rows.map((row) => ({
          ...Object.fromEntries(
            Object.entries(row).filter(([k]) => !['id', 'member_id', 'share_token', 'share_row', 'updated_at', 'build_state'].includes(k)),
          ),
          build_state: row.build_state && { ...row.build_state, lateFixes: undefined },
        }));
      expect(comparable(await stored(member.uid))).toEqual(comparable(await stored(reference.uid)));
    } finally {
      enqueue.mockRestore();
    }
  });

  it('a late fix inside a stop that splits two tracks joins them: the first keeps its id and token, the second is deleted with its share', async () => {
    const member = await createMember(api, company);
    const t0 = Date.now() - 60 * MIN;
    const at = (min: number, northM: number) => ({
      ts: t0 + min * MIN,
      lat: 46.05 + northM / 111_132,
      lng: 14.5,
      acc: 5,
      dir: null,
      spd: null,
      elv: null,
      bat: null,
    });
    // drive, stop 6 min (fixes at 3, 6, 9), drive on
    const fixes = [at(0, 0), at(1, 500), at(3, 1000), at(6, 1010), at(9, 1005), at(10, 1500), at(11, 2000)];
    await push(member.key, fixes);
    await build(member.uid, fixes[0].ts);
    const split = await stored(member.uid);
    expect(split.map((t: any) => t.waypoint_count)).toEqual([3, 3]);
    // a late fix 300 m away in the middle of the stop: no stop any more, one track
    await push(member.key, [at(5, 1300)]);
    await build(member.uid, at(5, 1300).ts);
    const joined = await stored(member.uid);
    expect(joined).toHaveLength(1);
    expect([joined[0].id, joined[0].share_token]).toEqual([split[0].id, split[0].share_token]);
    expect(Number(joined[0].waypoint_count)).toBe(8);
    const gone = await fetch(`${api.url}/share/tracks/${split[1].share_token}`);
    expect(gone.status).toBe(404);
  });

  describe('permissions and tenancy', () => {
    let teamCo: TestCompany;
    let a: { uid: string; key: string; username: string };
    let b: { uid: string; key: string; username: string };
    let c: { uid: string; key: string; username: string };
    let from: number;

    beforeAll(async () => {
      teamCo = await createCompany(api);
      await action(
        api,
        'editcompany',
        {
          teams_config: [
            { id: 1, name: 'One' },
            { id: 2, name: 'Two' },
          ],
        },
        { key: teamCo.key },
      );
      a = await createMember(api, teamCo, { teams: [1] });
      b = await createMember(api, teamCo, { teams: [1] });
      c = await createMember(api, teamCo, { teams: [2] });
      const trace = readGpxFixes('around-visnjan-with-car.gpx');
      const fixes = shifted(trace, 20 * MIN);
      from = fixes[0].ts;
      for (const m of [a, b, c]) {
        await push(m.key, fixes);
        await build(m.uid, from, fixes.at(-1)!.ts, teamCo.companyUid);
      }
    });

    it('a worker sees itself and team-mates; another team → left out (flat) or [] (legacy)', async () => {
      const range = { from, until: Date.now() };
      const flat = await gettracks(a.key, { uids: [a.uid, b.uid, c.uid], ...range });
      expect(flat.body.status).toBe(0);
      expect(flat.body.tracks.map((t: any) => t.owner_uid).sort()).toEqual([a.uid, b.uid].sort());
      const legacy = await gettracks(a.key, { accounts: [a.uid, b.username, c.uid], ...range });
      expect(legacy.body.accounts[a.uid]).toHaveLength(1);
      expect(legacy.body.accounts[b.username]).toHaveLength(1);
      expect(legacy.body.accounts[c.uid]).toEqual([]);
      // the administrator sees all
      const admin = await gettracks(teamCo.key, { uids: [a.uid, b.uid, c.uid], ...range });
      expect(admin.body.tracks).toHaveLength(3);
    });

    it("another company's uids are unknown: nothing (flat), [] (legacy)", async () => {
      const range = { from, until: Date.now() };
      expect((await gettracks(company.key, { uids: [a.uid, c.uid], ...range })).body).toEqual({ status: 0, tracks: [] });
      expect((await gettracks(company.key, { accounts: [a.uid, b.username], ...range })).body).toEqual({
        status: 0,
        accounts: { [a.uid]: [], [b.username]: [] },
      });
    });

    it('share links: unknown or malformed token → 404 JSON, no key needed for a real one', async () => {
      for (const token of ['0123456789abcdef0123456789abcdef', 'nope', '0123456789abcdef0123456789abcdef.gpx', '%FF', '%ED%A0%80.gpx']) {
        const res = await fetch(`${api.url}/share/tracks/${token}`);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toMatchObject({ status: 1001, error: expect.stringMatching(/not found/) });
      }
      const [t] = (await gettracks(teamCo.key, { uids: [a.uid], from, until: Date.now() })).body.tracks;
      const res = await fetch(t.share_url.replace(/^http:\/\/127\.0\.0\.1:\d+/, api.url));
      expect(res.status).toBe(200);
    });
  });

  it('share links are rate-limited per client IP (the unauthenticated budget): 429 with Retry-After', async () => {
    const member = await createMember(api, company);
    const fixes = shifted(readGpxFixes('around-visnjan-with-car.gpx'), 20 * MIN);
    await push(member.key, fixes);
    await build(member.uid, fixes[0].ts);
    const [t] = (await gettracks(company.key, { uids: [member.uid], from: fixes[0].ts, until: Date.now() })).body.tracks;
    const token = t.share_url.split('/').pop();
    // its own queue prefix: a fresh budget of 3 a minute for 127.0.0.1
    const limited = await startApiProcess({ QUEUE_PREFIX: `${PREFIX}-rl`, RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3' });
    const answers: Response[] = [];
    for (let i = 0; i < 5; i++) answers.push(await fetch(`${limited.url}/share/tracks/${token}.gpx`));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(Number(answers[3].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await answers[3].json()).toMatchObject({ status: -6, error: expect.stringMatching(/rate limit/) });
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', `${PREFIX}-rl`);
  });
});
