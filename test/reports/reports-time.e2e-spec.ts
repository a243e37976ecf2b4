import { Geodesic } from 'geographiclib-geodesic';
import * as XLSX from 'xlsx';
import { zonedDayTimeToMs } from '@app/core/pure';
import { definitionOf, loadReportContext, type ReportType } from '@app/reports/pure';
import { action, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { waitFor } from '../support/proc-child';
import { readCsv, readGeoJson, readPdfText, readZip, reportCall, reportFile } from '../support/report-readers';
import { useWorkerStack } from '../support/worker-stack';
import type { DataSource } from 'typeorm';

/**
 * The time reports end to end (docs/reports-time.md): timesheet, timeallocation, memberonsite,
 * placeonsite and statistics in every format the spec allows them, opened by independent readers
 * (SheetJS, pdftotext, csv-parse, a GeoJSON check, yauzl), from data made through the real paths:
 * clock events by pushlocations `tracking`, a place visit and tracks by the BUILT worker's geofence
 * and track consumers from pushed fixes, jobs by createjobs and editjobs (checked in by hand).
 * The requester reads in New York time, 12-hour clock, MM/DD/YYYY and miles; Ana works in Ljubljana
 * (the company's zone), Bo in Los Angeles with a night shift over the 2026-11-01 fall-back.
 */
const PREFIX = `fieldwork-reports-time-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

const LJ = 'Europe/Ljubljana';
const LA = 'America/Los_Angeles';
const D = 20261103;
const FROM = 20261031;
const RANGE = { from: FROM, until: D };
const DEPOT = { lat: 46.0511, lng: 14.5051 };
const H = 3600;
const METRES_PER_MILE = 1609.344;

/** ms of hh:mm on `day` in `zone`. */
const at = (day: number, hh: number, mm: number, zone: string) => zonedDayTimeToMs(day, hh * 60 + mm, zone);
/** A fix `m` metres east of the depot at `ts`. */
function east(m: number, ts: number) {
  const p = Geodesic.WGS84.Direct(DEPOT.lat, DEPOT.lng, 90, m);
  return { ts, lat: p.lat2!, lng: p.lon2!, acc: 5 };
}
/** `h:mm:ss` of seconds (what the csv, pdf and geojson show for a duration). */
const hms = (s: number) => `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

/** YYYYMMDD as the requester's MM/DD/YYYY. */
const usDate = (day: number) => `${String(Math.floor(day / 100) % 100).padStart(2, '0')}/${String(day % 100).padStart(2, '0')}/${Math.floor(day / 10000)}`;

/** An xlsx's first sheet with raw cell values (serial numbers for dates and durations), header first. */
function xlsxRaw(buf: Buffer): unknown[][] {
  const wb = XLSX.read(buf, { type: 'buffer' });
  return XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: true, defval: null });
}
/** An xlsx date cell (a serial of the requester's wall clock) as the UTC ms of that wall clock. */
const wallMs = (serial: unknown) => Math.round(((serial as number) - 25569) * 86400) * 1000;
/** An xlsx duration cell (a fraction of a day) in whole seconds. */
const seconds = (serial: unknown) => Math.round((serial as number) * 86400);
/** An xlsx date cell as YYYYMMDD. */
function ymd(serial: unknown): number {
  const d = new Date(wallMs(serial));
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

describe('time reports', () => {
  const stack = useWorkerStack(PREFIX, { TRACK_BUILD_DELAY_MS: '300' });
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;
  let ana: { uid: string; username: string; key: string };
  let bo: { uid: string; username: string; key: string };
  let depotId: string;
  let yardId: string;
  /** the tracks the worker built for Ana, from the database: [start, end, distance m] */
  let tracks: Array<{ start: number; end: number; distance: number }>;

  const push = async (key: string, data: Record<string, unknown>) => {
    const res = await action(api, 'pushlocations', data, { key });
    expect(res.body).toMatchObject({ status: 0 });
  };
  const clock = (key: string, tracking: boolean, ts: number) => push(key, { locations: [], tracking, tracking_ts: ts });

  beforeAll(async () => {
    ({ api, db } = stack);
    company = await createCompany(api, { timezone: LJ, name: 'Time Reports Co' });
    ana = await createMember(api, company, { role: 'worker', name: 'Ana Kovač' });
    bo = await createMember(api, company, { role: 'worker', name: 'Bo Díaz' });
    for (const [uid, fields] of [
      [company.ownerUid, { timezone: 'America/New_York', unit_time: '12', unit_date: 'MM/DD/YYYY', unit_distance: 'US' }],
      [ana.uid, { timezone: LJ }],
      [bo.uid, { timezone: LA }],
    ] as const) {
      expect((await action(api, 'editaccount', { uid, ...fields }, { key: company.key })).body.status).toBe(0);
    }
    for (const [name, loc] of [
      ['Depot', DEPOT],
      ['Empty yard', { lat: 46.08, lng: 14.47 }],
    ] as const) {
      const r = await action<{ uid: string }>(api, 'createplace', { name, location: loc, radius: 100, address: `${name} road 1` }, { key: company.key });
      expect(r.body.status).toBe(0);
      if (name === 'Depot') depotId = r.body.uid;
      else yardId = r.body.uid;
    }

    // clock events through pushlocations `tracking` (each newer than the last, as the app sends them)
    await clock(ana.key, true, at(D, 8, 0, LJ));
    await clock(ana.key, false, at(D, 12, 0, LJ));
    await clock(ana.key, true, at(D, 13, 0, LJ));
    await clock(ana.key, false, at(D, 17, 0, LJ));
    await clock(bo.key, true, at(20261031, 22, 0, LA)); // a night shift over the fall-back night
    await clock(bo.key, false, at(20261101, 6, 0, LA));
    await clock(bo.key, true, at(D, 20, 0, LA)); // still clocked in at the range's end
    const events = await db.query(`SELECT count(*)::int AS n FROM clock_events WHERE company_id = $1`, [company.companyUid]);
    expect(events[0].n).toBe(7);

    // jobs (far from Ana's fixes: no geofenced job visit), checked in and out by hand through editjobs
    const created = await action<{ jobs: Array<{ id: string }> }>(
      api,
      'createjobs',
      {
        jobs: [
          { destinationName: 'Boiler repair', day: D, windowStart: 900, windowEnd: 1000, worker: ana.username, destinationLat: 46.55, destinationLng: 15.64 },
          { destinationName: 'Gate inspection', day: D, windowStart: 1000, windowEnd: 1100, worker: ana.username, destinationLat: 46.56, destinationLng: 15.65 },
          { destinationName: 'Paperwork', day: D, worker: ana.username },
        ],
      },
      { key: company.key },
    );
    expect(created.body.status).toBe(0);
    const [boiler, gate] = created.body.jobs;
    const edited = await action(
      api,
      'editjobs',
      {
        jobs: {
          [boiler.id]: { tsCheckIn: at(D, 9, 10, LJ), tsCheckOut: at(D, 10, 40, LJ), tsDoneSuccess: at(D, 10, 40, LJ) },
          [gate.id]: { tsCheckIn: at(D, 11, 15, LJ), tsCheckOut: at(D, 11, 45, LJ), tsDoneFailed: at(D, 11, 45, LJ) },
        },
      },
      { key: company.key },
    );
    expect(edited.body.status).toBe(0);

    // Ana drives to the depot (13:00–13:20, 500 m a minute), stays an hour, drives off (14:21–14:30)
    const t = (hh: number, mm: number) => at(D, hh, mm, LJ);
    const fixes = [];
    for (let i = 0; i <= 20; i++) fixes.push(east(10_000 - 500 * i, t(13, i)));
    for (let i = 21; i <= 80; i++) fixes.push(east(0, t(13, i)));
    for (let i = 1; i <= 10; i++) fixes.push(east(500 * i, t(14, 20 + i)));
    for (let i = 0; i < fixes.length; i += 40) await push(ana.key, { locations: fixes.slice(i, i + 40) });
    const last = fixes[fixes.length - 1].ts;
    await waitFor(
      'geofence and tracks',
      async () => {
        const [g] = await db.query(
          `SELECT (SELECT evaluated_ts::float8 FROM geofence_states WHERE company_id = $1 AND member_id = $2) AS evaluated,
                  (SELECT max(end_ts)::float8 FROM tracks WHERE company_id = $1 AND member_id = $2) AS track_end`,
          [company.companyUid, ana.uid],
        );
        return g.evaluated >= last && g.track_end >= last;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    // the geofence's visit: in at the first fix inside, out at the first fix beyond (dwell 60 s)
    const visits = await db.query(`SELECT place_id, in_ts::float8 AS "in", out_ts::float8 AS "out" FROM checkins WHERE company_id = $1`, [company.companyUid]);
    expect(visits).toEqual([{ place_id: depotId, in: t(13, 20), out: t(14, 21) }]);
    // the track builder: the drive in ends at the stop's first fix, the drive off starts at its last
    tracks = await db.query(
      `SELECT start_ts::float8 AS start, end_ts::float8 AS "end", distance FROM tracks WHERE company_id = $1 AND member_id = $2 ORDER BY start_ts`,
      [company.companyUid, ana.uid],
    );
    expect(tracks.map((x) => [x.start, x.end])).toEqual([
      [t(13, 0), t(13, 20)],
      [t(14, 20), t(14, 30)],
    ]);
    expect(tracks[0].distance).toBeCloseTo(10_000, 0);
    expect(tracks[1].distance).toBeCloseTo(5_000, 0);
  }, 120_000);

  const members = () => [ana.username, bo.uid];

  describe('timesheet', () => {
    it('xlsx: per member-zone day and a total per member; a night shift split at the member’s midnight over DST; an open clock-in to the range end', async () => {
      const a = await reportFile(api, { reporttype: 'timesheet', format: 'xlsx', ...RANGE, accounts: members() }, company.key);
      expect(a.disposition).toBe(`attachment; filename="timesheet_${FROM}_${D}.xlsx"`);
      const rows = xlsxRaw(a.body);
      expect(rows[0].slice(0, 9)).toEqual(['Member', 'Row', 'Date', 'Clock in', 'Clock out', 'Sessions', 'Worked (h:mm:ss)', 'Pause (h:mm:ss)', 'Still clocked in']);
      const body = rows.slice(1).map((r) => [r[0], r[1], r[2] === null ? null : ymd(r[2]), r[3] === null ? null : wallMs(r[3]), r[4] === null ? null : wallMs(r[4]), r[5], seconds(r[6]), seconds(r[7]), r[8]]);
      const ny = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h, mi); // the requester's wall clock
      expect(body).toEqual([
        // 08:00–12:00 and 13:00–17:00 in Ljubljana = 2:00–11:00 AM in New York: 8 h worked, 1 h pause
        ['Ana Kovač', 'day', D, ny(2026, 11, 3, 2), ny(2026, 11, 3, 11), 2, 8 * H, H, null],
        ['Ana Kovač', 'total', null, ny(2026, 11, 3, 2), ny(2026, 11, 3, 11), 2, 8 * H, H, null],
        // 22:00 Oct 31 (PDT) → 1:00 AM EDT; the split at LA midnight (07:00Z) is 2:00 AM EST
        ['Bo Díaz', 'day', 20261031, ny(2026, 11, 1, 1), ny(2026, 11, 1, 2), 1, 2 * H, 0, null],
        // 00:00–06:00 on the 25-hour day is 7 h
        ['Bo Díaz', 'day', 20261101, ny(2026, 11, 1, 2), ny(2026, 11, 1, 9), 1, 7 * H, 0, null],
        // clocked in at 20:00 PST, still in at the end of Nov 3 (LA): 4 h, flagged
        ['Bo Díaz', 'day', D, ny(2026, 11, 3, 23), null, 1, 4 * H, 0, '✓'],
        ['Bo Díaz', 'total', null, ny(2026, 11, 1, 1), null, 3, 13 * H, 0, '✓'],
      ]);
    });

    it('pdf: title, the requester’s formats, the sums; optional columns and renames', async () => {
      const text = readPdfText((await reportFile(api, { reporttype: 'timesheet', format: 'pdf', ...RANGE, accounts: members() }, company.key)).body);
      expect(text).toContain('Timesheet');
      expect(text).toContain('Time Reports Co');
      expect(text).toMatch(/11\/03\/2026 2:00\s?AM/);
      expect(text).toContain('8:00:00');
      expect(text).toContain('13:00:00');
      expect(text).toContain('Bo Díaz');
      const renamed = xlsxRaw(
        (
          await reportFile(
            api,
            { reporttype: 'timesheet', format: 'xlsx', day: D, accounts: [ana.uid], columns: [{ key: 'member' }, { key: 'worked', rename: 'Hours' }, { key: 'days' }, { key: 'open', isCheck: true }] },
            company.key,
          )
        ).body,
      );
      expect(renamed[0]).toEqual(['Member', 'Hours (h:mm:ss)', 'Days worked', 'Still clocked in']);
      expect(renamed.slice(1).map((r) => [r[0], seconds(r[1]), r[2], r[3]])).toEqual([
        ['Ana Kovač', 8 * H, null, null],
        ['Ana Kovač', 8 * H, 1, null],
      ]);
    });

    it('a worker may take its own timesheet, not another’s', async () => {
      expect(readPdfText((await reportFile(api, { reporttype: 'timesheet', format: 'pdf', day: D, accounts: [ana.uid] }, ana.key)).body)).toContain('8:00:00');
      const denied = await reportCall(api, 'createreport', { reporttype: 'timesheet', format: 'pdf', day: D, accounts: [bo.uid] }, ana.key);
      expect(denied.json).toMatchObject({ status: -5 });
    });
  });

  describe('timeallocation', () => {
    // Ana on Nov 3: jobs 09:10–10:40 and 11:15–11:45 (2 h); depot 13:20–14:21; tracks 13:00–13:20 and
    // 14:20–14:30 minus the depot's 14:20–14:21 (29 min); idle = 8 h − the rest
    const anaDay = { job: 2 * H, place: 61 * 60, travel: 29 * 60, idle: 8 * H - 2 * H - 61 * 60 - 29 * 60, total: 8 * H, clocked: 8 * H };
    const zero = { job: 0, place: 0, travel: 0, idle: 0, total: 0, clocked: 0 };
    const idle = (s: number) => ({ ...zero, idle: s, total: s, clocked: s });
    const expected: Array<[string, number, typeof zero]> = [
      ['Ana Kovač', 20261031, zero],
      ['Ana Kovač', 20261101, zero],
      ['Ana Kovač', 20261102, zero],
      ['Ana Kovač', D, anaDay],
      ['Bo Díaz', 20261031, idle(2 * H)],
      ['Bo Díaz', 20261101, idle(7 * H)],
      ['Bo Díaz', 20261102, zero],
      ['Bo Díaz', D, idle(4 * H)],
    ];

    it('xlsx: every member-zone day of the range, job > place > travel > idle', async () => {
      const rows = xlsxRaw((await reportFile(api, { reporttype: 'timeallocation', format: 'xlsx', ...RANGE, accounts: members() }, company.key)).body);
      expect(rows[0][0]).toBe('Member');
      expect(rows.slice(1).map((r) => [r[0], ymd(r[1]), { job: seconds(r[2]), place: seconds(r[3]), travel: seconds(r[4]), idle: seconds(r[5]), total: seconds(r[6]), clocked: seconds(r[7]) }])).toEqual(expected);
    });

    it('zip: one csv per member, the same rows', async () => {
      const a = await reportFile(api, { reporttype: 'timeallocation', format: 'zip', ...RANGE, accounts: members() }, company.key);
      expect(a.contentType).toBe('application/zip');
      const files = await readZip(a.body);
      expect([...files.keys()]).toEqual(['Ana Kovač.csv', 'Bo Díaz.csv']);
      for (const [name, content] of files) {
        const csv = readCsv(content);
        expect(csv[0].slice(0, 3)).toEqual(['Member', 'Date', 'On jobs (h:mm:ss)']);
        const want = expected.filter(([m]) => `${m}.csv` === name);
        expect(csv.slice(1).map((r) => [r[0], r[1], r.slice(2, 8)])).toEqual(
          want.map(([m, day, v]) => [m, usDate(day), [v.job, v.place, v.travel, v.idle, v.total, v.clocked].map(hms)]),
        );
      }
    });

    it('pdf', async () => {
      const text = readPdfText((await reportFile(api, { reporttype: 'timeallocation', format: 'pdf', ...RANGE, accounts: members() }, company.key)).body);
      expect(text).toContain('Time allocation');
      expect(text).toContain(hms(anaDay.idle)); // 4:30:00
      expect(text).toContain('1:01:00');
      expect(text).toContain('0:29:00');
    });
  });

  describe('memberonsite', () => {
    it('xlsx and pdf: each visit with in, out and duration in check-in order, then the member’s total', async () => {
      const rows = xlsxRaw((await reportFile(api, { reporttype: 'memberonsite', format: 'xlsx', ...RANGE, accounts: members() }, company.key)).body);
      expect(rows[0].slice(0, 11)).toEqual(['Member', 'Row', 'Date', 'Kind', 'Place', 'Job', 'Address', 'Check in', 'Check out', 'Duration (h:mm:ss)', 'Visits']);
      const ny = (h: number, m: number) => Date.UTC(2026, 10, 3, h, m);
      expect(rows.slice(1).map((r) => [r[0], r[1], r[2] === null ? null : ymd(r[2]), r[3], r[4], r[5], r[6], r[7] === null ? null : wallMs(r[7]), r[8] === null ? null : wallMs(r[8]), seconds(r[9]), r[10]])).toEqual([
        ['Ana Kovač', 'visit', D, 'job', null, 'Boiler repair', null, ny(3, 10), ny(4, 40), 90 * 60, null],
        ['Ana Kovač', 'visit', D, 'job', null, 'Gate inspection', null, ny(5, 15), ny(5, 45), 30 * 60, null],
        ['Ana Kovač', 'visit', D, 'place', 'Depot', null, 'Depot road 1', ny(7, 20), ny(8, 21), 61 * 60, null],
        ['Ana Kovač', 'total', null, null, null, null, null, null, null, 181 * 60, 3],
        ['Bo Díaz', 'total', null, null, null, null, null, null, null, 0, 0],
      ]);
      const text = readPdfText((await reportFile(api, { reporttype: 'memberonsite', format: 'pdf', ...RANGE, accounts: members() }, company.key)).body);
      expect(text).toContain('Member on site');
      expect(text).toContain('Gate inspection');
      expect(text).toContain('3:01:00');
    });
  });

  describe('placeonsite', () => {
    const places = () => [depotId, yardId];

    it('csv and xlsx: who was on site, when, how long; a place without visits has its total row', async () => {
      const csv = readCsv((await reportFile(api, { reporttype: 'placeonsite', format: 'csv', ...RANGE, accounts: places() }, company.key)).body);
      expect(csv.map((r) => r.slice(0, 9))).toEqual([
        ['Place', 'Row', 'Member', 'Date', 'Check in', 'Check out', 'Duration (h:mm:ss)', 'Visits', 'Members'],
        ['Depot', 'visit', 'Ana Kovač', '11/03/2026', '11/03/2026 7:20 AM', '11/03/2026 8:21 AM', '1:01:00', '', ''],
        ['Depot', 'total', '', '', '', '', '1:01:00', '1', '1'],
        ['Empty yard', 'total', '', '', '', '', '0:00:00', '0', '0'],
      ]);
      const xlsx = xlsxRaw((await reportFile(api, { reporttype: 'placeonsite', format: 'xlsx', ...RANGE, accounts: places() }, company.key)).body);
      expect(xlsx.slice(1).map((r) => [r[0], r[1], seconds(r[6]), r[7]])).toEqual([
        ['Depot', 'visit', 61 * 60, null],
        ['Depot', 'total', 61 * 60, 1],
        ['Empty yard', 'total', 0, 0],
      ]);
    });

    it('geojson: the place’s Point on every row; pdf; a worker may not ask', async () => {
      const fc = readGeoJson((await reportFile(api, { reporttype: 'placeonsite', format: 'geojson', ...RANGE, accounts: places() }, company.key)).body);
      expect(fc.features).toHaveLength(3);
      expect(fc.features[0].geometry).toEqual({ type: 'Point', coordinates: [DEPOT.lng, DEPOT.lat] });
      expect(fc.features[0].properties).toMatchObject({ place: 'Depot', row: 'visit', member: 'Ana Kovač', duration: '1:01:00' });
      expect(fc.features[2].geometry).toEqual({ type: 'Point', coordinates: [14.47, 46.08] });
      expect(readPdfText((await reportFile(api, { reporttype: 'placeonsite', format: 'pdf', ...RANGE, accounts: places() }, company.key)).body)).toContain('Empty yard');
      const denied = await reportCall(api, 'createreport', { reporttype: 'placeonsite', format: 'csv', ...RANGE, accounts: places() }, ana.key);
      expect(denied.json).toMatchObject({ status: -5 });
    });
  });

  describe('statistics', () => {
    it('csv: exactly the spec’s keys, one row per member, in miles and mph', async () => {
      const csv = readCsv((await reportFile(api, { reporttype: 'statistics', format: 'csv', ...RANGE, accounts: members() }, company.key)).body);
      expect(csv).toHaveLength(3);
      const distance = tracks[0].distance + tracks[1].distance;
      const movingS = 30 * 60;
      expect(csv[1]).toEqual([
        'Ana Kovač',
        (distance / METRES_PER_MILE).toFixed(2), // ≈ 9.32 mi
        ((distance / movingS) * 3600 / METRES_PER_MILE).toFixed(1), // ≈ 18.6 mph
        expect.stringMatching(/^18\.[56]$/), // the fastest 500 m-a-minute step
        '2',
        '3',
        '1', // checked in 09:10 within 09:00–10:00
        '1', // 11:15 after 10:00–11:00
        '1',
        '1',
        '25', // 2 h of jobs in 8 h clocked in
        '2:00:00',
        '1:00:00',
        '1:01:00',
        '1:01:00',
        '1:00:00', // 12:00–13:00
        '1:00:00',
        '0:30:00',
        '0:15:00',
        '0:35:00', // 10:40 → 11:15
        '0:35:00',
      ]);
      expect(csv[2]).toEqual(['Bo Díaz', '0.00', '', '', '0', '0', '0', '0', '0', '0', '0', '0:00:00', '', '0:00:00', '', '0:00:00', '', '0:00:00', '', '0:00:00', '']);
    });

    it('geojson keys are the spec’s; xlsx numbers; pdf', async () => {
      const fc = readGeoJson((await reportFile(api, { reporttype: 'statistics', format: 'geojson', ...RANGE, accounts: members() }, company.key)).body);
      expect(Object.keys(fc.features[0].properties!)).toEqual([
        'member', 'distance', 'speed', 'maxspeed', 'tracks', 'jobs', 'ontime', 'delays', 'success', 'issues', 'engagement',
        'totalJobOnsite', 'avgJobOnsite', 'totalPlaceOnsiteTime', 'avgPlaceOnsiteTime', 'totalPauseTime', 'avgPauseTime',
        'totalTravelTime', 'avgTravelTime', 'totalTimeBetweenJobs', 'avgTimeBetweenJobs',
      ]);
      expect(fc.features[0].geometry).toBeNull();
      expect(fc.features[0].properties).toMatchObject({ member: 'Ana Kovač', tracks: 2, jobs: 3, engagement: 25 });
      const xlsx = xlsxRaw((await reportFile(api, { reporttype: 'statistics', format: 'xlsx', ...RANGE, accounts: members() }, company.key)).body);
      expect(xlsx[1][1]).toBeCloseTo((tracks[0].distance + tracks[1].distance) / METRES_PER_MILE, 2);
      expect(seconds(xlsx[1][11])).toBe(2 * H);
      expect(readPdfText((await reportFile(api, { reporttype: 'statistics', format: 'pdf', ...RANGE, accounts: members() }, company.key)).body)).toContain('Statistics');
    });
  });

  describe('count (the pdf row limit, checked before queueing)', () => {
    it('equals the rows each type renders', async () => {
      const db2 = {
        query: <T>(sql: string, params: unknown[]) => db.query(sql, params) as Promise<T[]>,
        cursor: () => {
          throw new Error('count reads no cursor');
        },
        batches: () => {
          throw new Error('count reads no cursor');
        },
      };
      const cases: Array<[ReportType, string[], string[], number]> = [
        ['timesheet', [ana.uid, bo.uid], [], 6], // Ana: 1 day + total; Bo: Oct 31, Nov 1, Nov 3 + total
        ['timeallocation', [ana.uid, bo.uid], [], 8],
        ['memberonsite', [ana.uid, bo.uid], [], 5],
        ['placeonsite', [], [depotId, yardId], 3], // Depot: a visit + total; Empty yard: total
        ['statistics', [ana.uid, bo.uid], [], 2],
      ];
      for (const [type, memberIds, placeIds, rows] of cases) {
        const ctx = await loadReportContext(db2, {
          companyId: company.companyUid,
          runId: '',
          memberId: company.ownerUid,
          params: { type, format: 'pdf', range: RANGE, memberIds, placeIds },
        });
        expect([type, await definitionOf(type).count!(ctx)]).toEqual([type, rows]);
      }
    });
  });
});
