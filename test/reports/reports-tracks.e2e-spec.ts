import { distanceM } from '@app/core/pure';
import { dayInZone, zonedDayTimeToMs } from '@app/core/pure';
import type { Fix } from '@app/locations';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { parseGpxFixes, readGpxFixes } from '../support/gpx';
import { stopAllChildren, waitFor } from '../support/proc-child';
import {
  gpxSchemaErrors,
  readCsv,
  readGeoJson,
  readPdfText,
  readXlsx,
  readZip,
  reportCall,
  reportFile,
  wallClockMs,
  xlsxDateMs,
} from '../support/report-readers';
import { independentStops, independentStretches } from '../support/track-stretches';
import { startWorker } from '../support/worker';

/**
 * The fix- and track-based reports end to end (docs/reports-tracks.md): the real traces of
 * test/fixtures/gpx pushed through pushlocations (shifted to recent days), tracks and job check-ins
 * built by the BUILT worker, then `gpx`, `stopsreport`, `mileage` and `timeline` requested over HTTP
 * in every allowed format and opened by independent readers (yauzl + xmllint against GPX 1.1,
 * SheetJS, csv-parse, pdftotext, check-geojson). The requester reads in New York time, 12-hour
 * clock, US dates and miles; the company is in Ljubljana; one member is in Ljubljana, one in New York.
 */
const PREFIX = `fieldwork-reports-tracks-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
// SheetJS turns xlsx dates into JS Dates in the process' zone: read them in UTC (our cells hold wall-clock times)
process.env.TZ = 'UTC';

const NY = 'America/New_York';
const LJ = 'Europe/Ljubljana';
const DAY_MS = 86_400_000;
const MI = 1609.344;

type Member = { uid: string; username: string; key: string; name: string };

/** The day before YYYYMMDD `day`. */
const dayBefore = (day: number) => {
  const d = new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, (day % 100) - 1));
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
};

/** `MM/DD/YYYY h:mm AM` in New York (the requester's), by Intl — not the writers' code. */
const nyText = (ms: number) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: NY,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  })
    .format(new Date(ms))
    .replace(',', '');
/** The New York wall clock of `ms` as the UTC ms SheetJS reads from an xlsx date cell (TZ=UTC). */
const nyWall = (ms: number) => wallClockMs(ms, NY);
const cellMs = xlsxDateMs;
/** `MM/DD/YYYY` of a YYYYMMDD day. */
const usDay = (day: number) =>
  `${String(Math.floor(day / 100) % 100).padStart(2, '0')}/${String(day % 100).padStart(2, '0')}/${Math.floor(day / 10000)}`;

describe('reports: gpx, stopsreport, mileage, timeline', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;
  let ana: Member; // Ljubljana
  let bo: Member; // New York
  /** Bo's day D (New York) and Ana's days D−1, D (Ljubljana, the company's zone) */
  let D: number;
  let anaFixes: { prev: Fix[]; day: Fix[] };
  let boFixes: Fix[];
  let jobId: string;
  const HUT = { lat: 45.77131, lng: 14.35812 }; // where cerknicko-jezero's second stop is

  /** A trace sorted and moved so it starts at `startMs`, whole seconds kept. */
  const moved = (file: string, startMs: number): Fix[] => {
    const fixes = [...readGpxFixes(file)].sort((a, b) => a.ts - b.ts).filter((f, i, all) => i === 0 || f.ts !== all[i - 1].ts);
    const delta = startMs - fixes[0].ts;
    return fixes.map((f) => ({ ...f, ts: f.ts + delta }));
  };

  async function push(key: string, fixes: Fix[]): Promise<void> {
    for (let i = 0; i < fixes.length; i += 1000) {
      const locations = fixes
        .slice(i, i + 1000)
        .map((f) => ({ ts: f.ts, lat: f.lat, lng: f.lng, ...(f.elv !== null ? { elv: f.elv } : {}) }));
      const res = await action<{ accepted: number }>(api, 'pushlocations', { locations }, { key });
      expect(res.body).toMatchObject({ status: 0, accepted: locations.length, rejected: [] });
    }
  }

  const storedTracks = async (memberId: string): Promise<Array<{ id: number; start: number; end: number; distance: number }>> =>
    (
      await db.query(
        `SELECT id::float8 AS id, start_ts::float8 AS start, end_ts::float8 AS "end", distance FROM tracks WHERE company_id = $1 AND member_id = $2 ORDER BY start_ts`,
        [company.companyUid, memberId],
      )
    ).map((r: { id: number; start: number; end: number; distance: number }) => r);

  async function waitForTracks(memberId: string, fixes: Fix[]): Promise<void> {
    const expected = independentStretches(fixes);
    await waitFor(
      `tracks of ${memberId}`,
      async () => {
        const rows = await storedTracks(memberId);
        return rows.length === expected.length && rows.at(-1)!.end === expected.at(-1)!.fixes.at(-1)!.ts;
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
  }

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api, { timezone: LJ, name: 'Tracks Reports Co' });
    const a = await createMember(api, company, { name: 'Ana Kovač' });
    const b = await createMember(api, company, { name: 'Bo Walker' });
    ana = { ...a, name: 'Ana Kovač' };
    bo = { ...b, name: 'Bo Walker' };
    for (const [uid, fields] of [
      [company.ownerUid, { timezone: NY, unit_time: '12', unit_date: 'MM/DD/YYYY', unit_distance: 'US' }],
      [bo.uid, { timezone: NY }],
    ] as const) {
      expect((await action(api, 'editaccount', { uid, ...fields }, { key: company.key })).body.status).toBe(0);
    }
    // D: three days ago in New York — Bo's drive starts at 19:00 there, already the next day in Ljubljana
    D = dayInZone(Date.now() - 3 * DAY_MS, NY);
    anaFixes = {
      prev: moved('around-visnjan-with-car.gpx', zonedDayTimeToMs(dayBefore(D), 8 * 60, LJ)),
      day: moved('cerknicko-jezero.gpx', zonedDayTimeToMs(D, 13 * 60, LJ)),
    };
    boFixes = moved('korita-zbevnica.gpx', zonedDayTimeToMs(D, 19 * 60, NY));
    expect(dayInZone(boFixes[0].ts, LJ)).not.toBe(D);

    const place = await action<{ uid: string }>(
      api,
      'createplace',
      { name: 'Lake Hut', location: HUT, radius: 50, address: 'Dolenje Jezero 1' },
      { key: company.key },
    );
    expect(place.body.status).toBe(0);
    // a job of Ana's day D at cerknicko-jezero's last (17-min) stop: the worker's geofencing checks her in
    const stop3 = independentStops(anaFixes.day)[2];
    const created = await action<{ jobs: Array<{ id: string }> }>(
      api,
      'createjobs',
      {
        jobs: [
          {
            destinationName: 'Boat repair',
            destinationLat: stop3.arrival.lat,
            destinationLng: stop3.arrival.lng,
            day: D,
            worker: ana.username,
          },
        ],
      },
      { key: company.key },
    );
    expect(created.body.status).toBe(0);
    jobId = created.body.jobs[0].id;

    await startWorker('worker', { QUEUE_PREFIX: PREFIX, TRACK_BUILD_DELAY_MS: '500' }, (sql, params) => db.query(sql, params));
    await push(ana.key, anaFixes.prev);
    await push(ana.key, anaFixes.day);
    await push(bo.key, boFixes);
    await waitForTracks(ana.uid, [...anaFixes.prev, ...anaFixes.day]);
    await waitForTracks(bo.uid, boFixes);
    await waitFor(
      'the job check-in',
      async () => (await db.query(`SELECT 1 FROM checkins WHERE company_id = $1 AND job_id = $2`, [company.companyUid, jobId])).length > 0,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  }, 240_000);

  afterAll(async () => {
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  const range = () => ({ from: dayBefore(D), until: D, accounts: [ana.uid, bo.username] });

  describe('gpx (zip)', () => {
    it('one schema-valid GPX 1.1 file per member and own day, holding exactly that day’s pushed fixes, a trkseg per recording', async () => {
      const a = await reportFile(api, { reporttype: 'gpx', format: 'zip', ...range() }, company.key);
      expect(a.contentType).toBe('application/zip');
      expect(a.disposition).toBe(`attachment; filename="gpx_${dayBefore(D)}_${D}.zip"`);
      const files = await readZip(a.body);
      const stem = (u: string) => u.replace(/[^A-Za-z0-9._-]+/g, '_');
      const expected: Array<[string, Fix[]]> = [
        [`${stem(ana.username)}_${dayBefore(D)}.gpx`, anaFixes.prev],
        [`${stem(ana.username)}_${D}.gpx`, anaFixes.day],
        // Bo's evening in New York is day D for him (the next day in the company's zone)
        [`${stem(bo.username)}_${D}.gpx`, boFixes],
      ];
      expect([...files.keys()]).toEqual(expected.map(([n]) => n));
      for (const [name, fixes] of expected) {
        const xml = files.get(name)!;
        expect(gpxSchemaErrors(xml)).toBeNull();
        const back = parseGpxFixes(xml.toString('utf8'));
        expect(back.map((f) => [f.ts, f.lat, f.lng, f.elv])).toEqual(fixes.map((f) => [f.ts, f.lat, f.lng, f.elv]));
        const gaps = fixes.filter((f, i) => i > 0 && f.ts - fixes[i - 1].ts >= 10 * 60_000).length;
        expect(xml.toString('utf8').match(/<trkseg>/g)).toHaveLength(gaps + 1);
      }
      // cerknicko-jezero and korita-zbevnica have recordings apart by ≥ 10 min
      expect(
        files
          .get(expected[1][0])!
          .toString('utf8')
          .match(/<trkseg>/g)!.length,
      ).toBeGreaterThan(1);
    });

    it('one company day (D) in the company’s zone: Ana’s day D only; Bo’s day D is his own', async () => {
      const files = await readZip(
        (await reportFile(api, { reporttype: 'gpx', format: 'zip', day: D, accounts: [ana.uid, bo.uid] }, company.key)).body,
      );
      expect(files.size).toBe(2);
    });
  });

  describe('mileage (xlsx)', () => {
    it('the spec’s keys; a row per trip (the stored tracks, distance in mi), then a totals section with a row per member-day; unheld fields empty', async () => {
      const a = await reportFile(api, { reporttype: 'mileage', format: 'xlsx', ...range() }, company.key);
      expect(a.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const rows = readXlsx(a.body);
      const header = rows[0] as string[];
      expect(header).toEqual([
        'Date',
        'Member',
        'Start',
        'End',
        'Distance (mi)',
        'Duration (h:mm:ss)',
        'Minutes',
        'Max speed (mph)',
        'Average speed (mph)',
        'From',
        'To',
        'Purpose',
        'Comment',
        'Approval status',
        'Approved by',
        'Place sheet',
      ]);
      const col = (t: string) => header.indexOf(t);
      const body = rows.slice(1);
      const isTotal = (r: unknown[]) => String(r[col('From')]).startsWith('Day total');
      // the expected trips: the stored tracks by member and own day
      const anaTracks = await storedTracks(ana.uid);
      const boTracks = await storedTracks(bo.uid);
      const groups: Array<{ name: string; day: number; tracks: typeof anaTracks }> = [];
      for (const [m, tracks, zone] of [
        [ana, anaTracks, LJ],
        [bo, boTracks, NY],
      ] as const) {
        for (const t of tracks) {
          const day = dayInZone(t.start, zone);
          if (groups.at(-1)?.name !== m.name || groups.at(-1)?.day !== day) groups.push({ name: m.name, day, tracks: [] });
          groups.at(-1)!.tracks.push(t);
        }
      }
      expect(groups.map((g) => [g.name, g.day])).toEqual([
        ['Ana Kovač', dayBefore(D)],
        ['Ana Kovač', D],
        ['Bo Walker', D],
      ]);
      // the trips, all alike (a table to pivot), then an empty row, then the totals section: one per member-day
      const trips = groups.reduce((n, g) => n + g.tracks.length, 0);
      expect(body).toHaveLength(trips + 1 + groups.length);
      let i = 0;
      for (const g of groups) {
        for (const t of g.tracks) {
          const r = body[i++];
          expect(isTotal(r)).toBe(false);
          expect(r[col('Member')]).toBe(g.name);
          expect((r[col('Date')] as Date).toISOString().slice(0, 10)).toBe(
            `${String(g.day).slice(0, 4)}-${String(g.day).slice(4, 6)}-${String(g.day).slice(6)}`,
          );
          expect(cellMs(r[col('Start')])).toBe(nyWall(t.start));
          expect(cellMs(r[col('End')])).toBe(nyWall(t.end));
          expect(r[col('Distance (mi)')]).toBe(Math.round((t.distance / MI) * 100) / 100);
          expect(r[col('Minutes')]).toBe(Math.round(((t.end - t.start) / 60_000) * 100) / 100);
          for (const k of ['Purpose', 'Comment', 'Approval status', 'Approved by', 'Place sheet']) expect(r[col(k)]).toBeNull();
          expect(typeof r[col('From')]).toBe('string');
        }
      }
      expect(body[i++].every((c) => c === null)).toBe(true);
      for (const g of groups) {
        const total = body[i++];
        expect(isTotal(total)).toBe(true);
        expect(total[col('Member')]).toBe(g.name);
        expect((total[col('Date')] as Date).toISOString().slice(0, 10)).toBe(
          `${String(g.day).slice(0, 4)}-${String(g.day).slice(4, 6)}-${String(g.day).slice(6)}`,
        );
        expect(total[col('From')]).toBe(`Day total: ${g.tracks.length} trip${g.tracks.length === 1 ? '' : 's'}`);
        const sum = g.tracks.reduce((s, t) => s + t.distance, 0);
        expect(total[col('Distance (mi)')]).toBe(Math.round((sum / MI) * 100) / 100);
      }
      // a trip ending at the second stop of cerknicko-jezero ends at the Lake Hut (within 200 m), one starting far from any place has coordinates
      const tos = body.slice(0, trips).map((r) => r[col('To')] as string);
      expect(tos).toContain('Lake Hut');
      expect(tos.some((t) => /^-?\d+\.\d{5}, -?\d+\.\d{5}$/.test(t))).toBe(true);
    });
  });

  describe('stopsreport', () => {
    /** Expected stops in report order: Ana's, then Bo's, each in time order (independent reading of the rule). */
    const expectedStops = () => [
      ...[...independentStops(anaFixes.prev), ...independentStops(anaFixes.day)].map((s) => ({ member: 'Ana Kovač', ...s })),
      ...independentStops(boFixes).map((s) => ({ member: 'Bo Walker', ...s })),
    ];

    it('csv: a row per stop, from/to in the requester’s zone and formats, duration, the nearest place within 200 m', async () => {
      const a = await reportFile(api, { reporttype: 'stopsreport', format: 'csv', ...range() }, company.key);
      expect(a.contentType).toBe('text/csv; charset=utf-8');
      const csv = readCsv(a.body);
      const col = (t: string) => csv[0].indexOf(t);
      const want = expectedStops();
      expect(want.length).toBe(3 + 8);
      expect(csv.slice(1)).toHaveLength(want.length);
      csv.slice(1).forEach((r, i) => {
        const s = want[i];
        expect(r[col('Member')]).toBe(s.member);
        expect(r[col('From')]).toBe(nyText(s.arrival.ts));
        expect(r[col('To')]).toBe(nyText(s.departure.ts));
        const secs = Math.round((s.departure.ts - s.arrival.ts) / 1000);
        expect(r[col('Duration (h:mm:ss)')]).toBe(
          `${Math.floor(secs / 3600)}:${String(Math.floor(secs / 60) % 60).padStart(2, '0')}:${String(secs % 60).padStart(2, '0')}`,
        );
        const lat = s.fixes.reduce((x, f) => x + f.lat, 0) / s.fixes.length;
        const lng = s.fixes.reduce((x, f) => x + f.lng, 0) / s.fixes.length;
        expect(Number(r[col('Latitude')])).toBeCloseTo(lat, 5);
        expect(Number(r[col('Longitude')])).toBeCloseTo(lng, 5);
        const near = distanceM({ lat, lng }, HUT) <= 200;
        expect(r[col('Nearest place')]).toBe(near ? 'Lake Hut' : '');
        if (near) expect(Number(r[col('Distance to place (mi)')])).toBeCloseTo(distanceM({ lat, lng }, HUT) / MI, 2);
      });
      // the dates are the members' own days: Bo's evening stops are on D
      expect(
        csv
          .slice(1)
          .filter((r) => r[col('Member')] === 'Bo Walker')
          .every((r) => r[col('Date')] === usDay(D)),
      ).toBe(true);
      expect(csv.slice(1).filter((r) => r[col('Nearest place')] === 'Lake Hut')).toHaveLength(1);
    });

    it('xlsx, pdf and geojson hold the same stops (geojson: Points)', async () => {
      const want = expectedStops();
      const xlsx = readXlsx((await reportFile(api, { reporttype: 'stopsreport', format: 'xlsx', ...range() }, company.key)).body);
      expect(xlsx).toHaveLength(want.length + 1);
      const xh = xlsx[0] as string[];
      expect(xlsx.slice(1).map((r) => cellMs(r[xh.indexOf('From')]))).toEqual(want.map((s) => nyWall(s.arrival.ts)));
      const fc = readGeoJson((await reportFile(api, { reporttype: 'stopsreport', format: 'geojson', ...range() }, company.key)).body);
      expect(fc.features).toHaveLength(want.length);
      fc.features.forEach((f, i) => {
        expect(f.geometry?.type).toBe('Point');
        const [lng, lat] = (f.geometry as GeoJSON.Point).coordinates;
        expect(distanceM({ lat, lng }, want[i].arrival)).toBeLessThanOrEqual(100);
        expect(f.properties).toMatchObject({ member: want[i].member });
      });
      const pdf = readPdfText((await reportFile(api, { reporttype: 'stopsreport', format: 'pdf', ...range() }, company.key)).body);
      expect(pdf).toContain('Stops');
      expect(pdf).toContain('Tracks Reports Co');
      expect(pdf).toContain('Lake Hut');
      expect(pdf.split('Bo Walker').length - 1).toBe(8);
    });

    it('stopMinutes overrides the stop threshold for the report; out of range → -1 naming it', async () => {
      const want = [...independentStops(anaFixes.prev, 30), ...independentStops(anaFixes.day, 30)];
      const csv = readCsv((await reportFile(api, { reporttype: 'stopsreport', format: 'csv', ...range(), accounts: [ana.uid], stopMinutes: 30 }, company.key)).body);
      expect(want.length).toBeLessThan(3); // fewer stays last 30 min than 5
      expect(csv.slice(1).map((r) => r[csv[0].indexOf('From')])).toEqual(want.map((s) => nyText(s.arrival.ts)));
      const bad = await reportCall(api, 'createreport', { reporttype: 'stopsreport', format: 'csv', ...range(), stopMinutes: 0 }, company.key);
      expect(bad.json).toEqual({ status: -1, error: 'data.stopMinutes: must be at least 1 (minutes)' });
    });

    it('renamed columns and isCheck', async () => {
      const csv = readCsv(
        (
          await reportFile(
            api,
            {
              reporttype: 'stopsreport',
              format: 'csv',
              ...range(),
              columns: [{ key: 'member', rename: 'Who' }, { key: 'place', isCheck: true }, { key: 'fixes' }],
            },
            company.key,
          )
        ).body,
      );
      expect(csv[0]).toEqual(['Who', 'Nearest place', 'Fixes']);
      expect(
        csv
          .slice(1)
          .map((r) => r[1])
          .filter((v) => v === '✓'),
      ).toHaveLength(1);
      expect(csv.slice(1).map((r) => Number(r[2]))).toEqual(expectedStops().map((s) => s.fixes.length));
    });
  });

  describe('timeline', () => {
    it('csv and xlsx: each member’s day as drives (its tracks), stops, place visits and job visits, time-ordered', async () => {
      const csvAnswer = await reportFile(api, { reporttype: 'timeline', format: 'csv', ...range() }, company.key);
      expect(csvAnswer.disposition).toBe(`attachment; filename="timeline_${dayBefore(D)}_${D}.csv"`);
      const csv = readCsv(csvAnswer.body);
      const col = (t: string) => csv[0].indexOf(t);
      const rows = csv.slice(1);
      const of = (member: string, activity: string) => rows.filter((r) => r[col('Member')] === member && r[col('Activity')] === activity);
      const anaTracks = await storedTracks(ana.uid);
      const boTracks = await storedTracks(bo.uid);
      expect(of('Ana Kovač', 'drive').map((r) => r[col('Start')])).toEqual(anaTracks.map((t) => nyText(t.start)));
      expect(of('Bo Walker', 'drive').map((r) => r[col('Distance (mi)')])).toEqual(
        boTracks.map((t) => (Math.round((t.distance / MI) * 100) / 100).toFixed(2)),
      );
      expect(of('Ana Kovač', 'stop')).toHaveLength(3);
      expect(of('Bo Walker', 'stop')).toHaveLength(8);
      const [visit] = await db.query(
        `SELECT in_ts::float8 AS "in", out_ts::float8 AS "out" FROM checkins WHERE company_id = $1 AND job_id = $2`,
        [company.companyUid, jobId],
      );
      const jobs = of('Ana Kovač', 'job');
      expect(jobs).toHaveLength(1);
      expect(jobs[0][col('Job')]).toBe('Boat repair');
      expect(jobs[0][col('Start')]).toBe(nyText(visit.in));
      expect(jobs[0][col('End')]).toBe(visit.out === null ? '' : nyText(visit.out));
      expect(of('Bo Walker', 'job')).toHaveLength(0);
      // place visits: the geofence's place check-ins of each member, by check-in
      const placeVisits = async (memberId: string) =>
        (await db.query(
          `SELECT in_ts::float8 AS "in" FROM checkins WHERE company_id = $1 AND member_id = $2 AND job_id IS NULL ORDER BY in_ts`,
          [company.companyUid, memberId],
        )) as Array<{ in: number }>;
      const anaPlaces = await placeVisits(ana.uid);
      const boPlaces = await placeVisits(bo.uid);
      expect(anaPlaces.length + boPlaces.length).toBeGreaterThan(0);
      expect(of('Ana Kovač', 'place').map((r) => r[col('Start')])).toEqual(anaPlaces.map((v) => nyText(v.in)));
      expect(of('Bo Walker', 'place').map((r) => r[col('Start')])).toEqual(boPlaces.map((v) => nyText(v.in)));
      expect(of('Ana Kovač', 'place').every((r) => r[col('Place')] !== '')).toBe(true);
      expect(rows).toHaveLength(anaTracks.length + boTracks.length + 3 + 8 + 1 + anaPlaces.length + boPlaces.length);
      // members in request order, each in time order (read from the xlsx's real dates)
      const xlsx = readXlsx((await reportFile(api, { reporttype: 'timeline', format: 'xlsx', ...range() }, company.key)).body);
      const xh = xlsx[0] as string[];
      const xrows = xlsx.slice(1);
      expect(xrows).toHaveLength(rows.length);
      const members = xrows.map((r) => r[xh.indexOf('Member')]);
      expect(members.lastIndexOf('Ana Kovač')).toBeLessThan(members.indexOf('Bo Walker'));
      for (const name of ['Ana Kovač', 'Bo Walker']) {
        const starts = xrows.filter((r) => r[xh.indexOf('Member')] === name).map((r) => cellMs(r[xh.indexOf('Start')]));
        expect(starts).toEqual([...starts].sort((x, y) => x - y));
      }
    });

    it('formats the type does not allow are refused before queueing', async () => {
      for (const [type, format] of [
        ['timeline', 'pdf'],
        ['mileage', 'csv'],
        ['gpx', 'xlsx'],
      ]) {
        const a = await reportCall(api, 'createreport', { reporttype: type, format, ...range() }, company.key);
        expect(a.json).toMatchObject({ status: -1 });
      }
    });
  });
});
