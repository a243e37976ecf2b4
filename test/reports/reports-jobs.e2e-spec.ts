import { dayInZone, zonedDayTimeToMs } from '@app/core';
import { Geodesic } from 'geographiclib-geodesic';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';
import { dropQueueKeys } from '../support/durability-redis';
import { readGpxFixes } from '../support/gpx';
import { stopAllChildren, waitFor } from '../support/proc-child';
import { readCsv, readGeoJson, readPdfText, readXlsx, reportFile, wallClockMs } from '../support/report-readers';
import { startWorker } from '../support/worker';

/**
 * The job-based reports end to end (docs/reports.md: jobs, dayroute, activities, worksheet, checkins):
 * jobs made through createjobs/editjobs, a real GPS trace (around-visnjan-with-car.gpx) pushed through
 * pushlocations so the BUILT worker's geofence checks the member in and out of a place and a job,
 * then every format of each type fetched over HTTP and opened by an independent reader. The
 * requester reads New York time, a 12-hour clock, US dates and miles; the company is in Ljubljana.
 * Expected values are computed here from the seeded data and the `checkins` rows the worker wrote,
 * with Intl and GeographicLib — not with the reports' own formatters.
 */
const PREFIX = `fieldwork-reports-jobs-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;
// SheetJS turns xlsx dates into JS Dates in the process' zone: read them in UTC (our cells hold wall-clock times)
process.env.TZ = 'UTC';

const COMPANY_ZONE = 'Europe/Ljubljana';
const REQUESTER_ZONE = 'America/New_York';
const MI = 1609.344;
/** The assumed car speed of dayroute's driving time (docs/reports.md "dayroute"): 40 km/h. */
const CAR_MPS = 40 / 3.6;

/** ms as the requester reads it: `MM/DD/YYYY h:mm AM` in New York (Intl, independent of the writers). */
function ny(ms: number): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: REQUESTER_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    })
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );
  return `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute} ${p.dayPeriod.toUpperCase()}`;
}
/** Only the time of day of {@link ny}. */
const nyTime = (ms: number) => ny(ms).split(' ').slice(1).join(' ');
/** The wall clock of {@link ny} as the Date SheetJS reads (UTC fields = New York wall clock). */
const nyWall = (ms: number) => new Date(wallClockMs(ms, REQUESTER_ZONE));
/** An xlsx date cell as SheetJS reads it holds the New York wall clock of `ms` (SheetJS' float days may be 1 ms off). */
function expectWall(cell: unknown, ms: number): void {
  expect(cell).toBeInstanceOf(Date);
  expect(Math.abs((cell as Date).getTime() - nyWall(ms).getTime())).toBeLessThan(1000);
}
/** Seconds as h:mm:ss. */
function hms(s: number): string {
  s = Math.round(s);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
const geodesicM = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  Geodesic.WGS84.Inverse(a.lat, a.lng, b.lat, b.lng).s12!;
/** YYYYMMDD as MM/DD/YYYY. */
const usDate = (d: number) =>
  `${String(Math.floor(d / 100) % 100).padStart(2, '0')}/${String(d % 100).padStart(2, '0')}/${Math.floor(d / 10000)}`;
/** The day before / after YYYYMMDD. */
const shiftDay = (d: number, n: number) => {
  const t = new Date(Date.UTC(Math.floor(d / 10000), (Math.floor(d / 100) % 100) - 1, (d % 100) + n));
  return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
};

interface Visit {
  place_id: string | null;
  job_id: string | null;
  in_ts: number;
  out_ts: number | null;
  duration: number | null;
}

describe('job-based reports', () => {
  let api: TestApi;
  let db: DataSource;
  let company: TestCompany;
  let w1: { uid: string; username: string; key: string };
  let w2: { uid: string; username: string; key: string };
  /** yesterday in the company's zone: the day of the route */
  let day: number;
  let today: number;
  let t0: number;
  const routeStart = { lat: 45.2711, lng: 13.7052 };
  const depot = { lat: 45.27352, lng: 13.71421 }; // where the trace starts and ends
  const stop = { lat: 45.27634, lng: 13.71979 }; // where the car stands ~2 min
  const farJob = { lat: 45.29, lng: 13.73 }; // ~2 km from the trace: never checked in by the geofence
  let placeId: string;
  const ids: Record<string, string> = {};
  let visits: Visit[];
  let jobRows: Record<string, { ts_created: number; ts_assigned: number; created_at: number }>;
  const ts = (minutes: number) => t0 + minutes * 60_000;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    company = await createCompany(api, { timezone: COMPANY_ZONE, name: 'Jobs Reports Co' });
    w1 = await createMember(api, company, { name: 'Ana Kovač' });
    w2 = await createMember(api, company, { name: 'Luka Novak' });
    const ok = (r: { body: { status: number } }) => expect(r.body).toMatchObject({ status: 0 });
    ok(
      await action(
        api,
        'editaccount',
        { uid: company.ownerUid, timezone: REQUESTER_ZONE, unit_time: '12', unit_date: 'MM/DD/YYYY', unit_distance: 'US' },
        { key: company.key },
      ),
    );
    ok(
      await action(
        api,
        'editaccount',
        { uid: w1.uid, route_start_lat: routeStart.lat, route_start_lng: routeStart.lng },
        { key: company.key },
      ),
    );
    ok(await action(api, 'editaccount', { uid: w2.uid, timezone: 'Asia/Tokyo' }, { key: company.key }));
    today = dayInZone(Date.now(), COMPANY_ZONE);
    day = shiftDay(today, -1);
    t0 = zonedDayTimeToMs(day, 10 * 60, COMPANY_ZONE); // the trace replayed from 10:00 yesterday, Ljubljana time
    const place = await action<{ uid: string }>(
      api,
      'createplace',
      { name: 'Višnjan depot', location: depot, radius: 100, address: 'Istarska 1', city: 'Višnjan' },
      { key: company.key },
    );
    ok(place);
    placeId = place.body.uid;

    const jobs = [
      {
        name: 'J0',
        destinationName: 'Yesterday before',
        day: shiftDay(day, -1),
        number: 1,
        destinationLat: farJob.lat,
        destinationLng: farJob.lng,
        worker: w1.username,
      },
      {
        name: 'J1',
        destinationName: 'Boiler at the stop',
        destinationText: 'Stop road 5',
        day,
        number: 1,
        windowStart: 900,
        windowEnd: 1100,
        destinationLat: stop.lat,
        destinationLng: stop.lng,
        itemsToPickup: 2,
        textDispatcher: 'Ring twice',
        orderId: 4711,
        priority: 3,
        customFields: [{ key: 'floor', val: '3' }],
        tsCreated: ts(-120),
        worker: w1.username,
      },
      { name: 'J2', destinationName: 'No coordinates', day, number: 2, worker: w1.username, tsCreated: ts(-110) },
      {
        name: 'J3',
        destinationName: 'At the depot place',
        day,
        number: 3,
        placeUid: placeId,
        destinationLat: farJob.lat,
        destinationLng: farJob.lng,
        itemsToDropoff: 4,
        worker: w1.username,
        tsCreated: ts(-100),
      },
      { name: 'J5', destinationName: 'Next week', day: shiftDay(day, 6), number: 1, worker: w1.username },
      {
        name: 'K1',
        destinationName: 'Luka job',
        day,
        number: 1,
        destinationLat: depot.lat,
        destinationLng: depot.lng,
        worker: w2.username,
        tsCreated: ts(-90),
      },
    ];
    for (const { name, ...job } of jobs) {
      const res = await action<{ jobs: Array<{ id: string }> }>(api, 'createjobs', { jobs: [job] }, { key: company.key });
      ok(res);
      ids[name] = res.body.jobs[0].id;
    }

    await startWorker('worker', { QUEUE_PREFIX: PREFIX }, (sql, params) => db.query(sql, params));
    // the real trace, shifted to yesterday 10:00: the geofence checks w1 into the depot place and job J1
    const trace = readGpxFixes('around-visnjan-with-car.gpx');
    const fixes = trace.map((f) => ({ ts: f.ts - trace[0].ts + t0, lat: f.lat, lng: f.lng, acc: 5 }));
    for (let i = 0; i < fixes.length; i += 50) {
      const res = await action(api, 'pushlocations', { locations: fixes.slice(i, i + 50) }, { key: w1.key });
      expect(res.body).toMatchObject({ status: 0, rejected: [] });
    }
    const last = fixes[fixes.length - 1].ts;
    await waitFor(
      'geofence evaluation',
      async () => {
        const [row] = await db.query(`SELECT evaluated_ts::float8 AS ts FROM geofence_states WHERE company_id = $1 AND member_id = $2`, [
          company.companyUid,
          w1.uid,
        ]);
        return row && row.ts >= last;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    // progress set by the dispatcher (a worker may edit only today's jobs)
    ok(
      await action(
        api,
        'editjobs',
        {
          jobs: {
            [ids.J1]: { tsAccepted: ts(-30), tsDoneSuccess: ts(9), textReceiver: 'Replaced valve' },
            [ids.J2]: { tsAccepted: ts(-29) },
            [ids.J3]: { tsCheckIn: ts(20), tsCheckOut: ts(35), tsDoneFailed: ts(36), textReceiver: 'Nobody home' },
          },
        },
        { key: company.key },
      ),
    );
    visits = await db.query(
      `SELECT place_id, job_id, in_ts::float8 AS in_ts, out_ts::float8 AS out_ts, duration::float8 AS duration
         FROM checkins WHERE company_id = $1 AND member_id = $2 ORDER BY in_ts, id`,
      [company.companyUid, w1.uid],
    );
    jobRows = Object.fromEntries(
      (
        await db.query(
          `SELECT id, ts_created::float8 AS ts_created, ts_assigned::float8 AS ts_assigned, created_at::float8 AS created_at FROM jobs WHERE company_id = $1`,
          [company.companyUid],
        )
      ).map((r: { id: string }) => [r.id, r]),
    );
  }, 120_000);

  afterAll(async () => {
    await stopAllChildren();
    await api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', PREFIX);
  });

  const jobVisits = () => visits.filter((v) => v.job_id === ids.J1);
  const placeVisits = () => visits.filter((v) => v.place_id === placeId);

  it('the trace made real check-ins: the depot place (left and come back to) and job J1 at the stop', () => {
    expect(jobVisits()).toHaveLength(1);
    expect(jobVisits()[0].out_ts).not.toBeNull();
    expect(placeVisits().length).toBeGreaterThanOrEqual(2);
    expect(visits.every((v) => v.in_ts >= t0 && v.in_ts < t0 + 600_000)).toBe(true);
  });

  async function allFormats(data: Record<string, unknown>) {
    const file = async (format: string) => (await reportFile(api, { ...data, format }, company.key)).body;
    const [xlsx, csv, pdf, geojson] = await Promise.all(['xlsx', 'csv', 'pdf', 'geojson'].map(file));
    return { xlsx: readXlsx(xlsx), csv: readCsv(csv), pdf: readPdfText(pdf), geojson: readGeoJson(geojson) };
  }
  const col = (header: unknown[], title: string) => {
    const i = header.indexOf(title);
    if (i < 0) throw new Error(`no column "${title}" in ${JSON.stringify(header)}`);
    return i;
  };

  describe('jobs', () => {
    const ALL_KEYS = (
      'member date title status status_ts status_response address place contact_name contact_phone teams orderid type scheduled_window ' +
      'check_ins check_outs onsite priority created saved accepted pickup_items dropoff_items manual_checks notes latitude longitude ' +
      'comments signature signature_name signature_date attachments custom_fields form_fields public_url'
    ).split(' ');

    it('the members’ jobs of the range in every format, default columns; null geometry without coordinates', async () => {
      const { xlsx, csv, pdf, geojson } = await allFormats({
        reporttype: 'jobs',
        from: shiftDay(day, -1),
        until: day,
        accounts: [w1.uid, w2.username],
      });
      const header = csv[0];
      expect(header).toEqual([
        'Member',
        'Date',
        'Title',
        'Status',
        'Status time',
        'Address',
        'Place',
        'Scheduled window',
        'Check-ins',
        'Check-outs',
        'On site (h:mm:ss)',
        'Notes',
      ]);
      // w1 (request order first): J0 the day before, then J1, J2, J3 in route order; w2's K1; J5 (next week) left out
      const titles = ['Yesterday before', 'Boiler at the stop', 'No coordinates', 'At the depot place', 'Luka job'];
      expect(csv.slice(1).map((r) => r[col(header, 'Title')])).toEqual(titles);
      const v = jobVisits()[0];
      expect(csv[2]).toEqual([
        'Ana Kovač', usDate(day), 'Boiler at the stop', 'success', ny(ts(9)), 'Stop road 5', '',
        `${nyTime(zonedDayTimeToMs(day, 9 * 60, COMPANY_ZONE))}–${nyTime(zonedDayTimeToMs(day, 11 * 60, COMPANY_ZONE))}`,
        ny(v.in_ts), ny(v.out_ts!), hms((v.out_ts! - v.in_ts) / 1000), 'Ring twice',
      ]); // prettier-ignore
      expect(csv[5][0]).toBe('Luka Novak');

      // xlsx: the same rows, real dates (New York wall clock), durations as day fractions
      expect(xlsx[0]).toEqual(header);
      expect(xlsx.slice(1).map((r) => r[col(header, 'Title')])).toEqual(titles);
      expectWall(xlsx[2][col(header, 'Status time')], ts(9));
      // a duration cell ([h]:mm:ss) is a day fraction: SheetJS reads it as a Date after Excel's epoch 1899-12-30
      const onsite = xlsx[2][col(header, 'On site (h:mm:ss)')] as Date;
      expect(Math.round((onsite.getTime() - Date.UTC(1899, 11, 30)) / 1000)).toBe(Math.round((v.out_ts! - v.in_ts) / 1000));

      expect(pdf).toContain('Jobs');
      for (const t of ['Ring twice', 'Stop road 5', 'Page 1 of 1', '0:15:00']) expect(pdf).toContain(t);

      expect(geojson.features).toHaveLength(5);
      expect(geojson.features[1].geometry).toEqual({ type: 'Point', coordinates: [stop.lng, stop.lat] });
      expect(geojson.features[2].geometry).toBeNull();
      expect(geojson.features[1].properties).toMatchObject({
        title: 'Boiler at the stop',
        status: 'success',
        onsite: hms((v.out_ts! - v.in_ts) / 1000),
        check_ins: ny(v.in_ts),
      });
    });

    it('every spec key through columns: exact values, empty where we hold nothing', async () => {
      const columns = ALL_KEYS.map((key) => ({ key }));
      const csv = readCsv(
        (await reportFile(api, { reporttype: 'jobs', format: 'csv', day, accounts: [w1.uid], columns }, company.key)).body,
      );
      const header = csv[0];
      expect(header).toHaveLength(ALL_KEYS.length);
      const v = jobVisits()[0];
      const jobs = await db.query(`SELECT id, ts_saved::float8 AS saved FROM jobs WHERE company_id = $1`, [company.companyUid]);
      const saved = Object.fromEntries(jobs.map((j: { id: string; saved: number }) => [j.id, j.saved]));
      expect(Object.fromEntries(header.map((h, i) => [h, csv[1][i]]))).toEqual({
        Member: 'Ana Kovač',
        Date: usDate(day),
        Title: 'Boiler at the stop',
        Status: 'success',
        'Status time': ny(ts(9)),
        Response: 'Replaced valve',
        Address: 'Stop road 5',
        Place: '',
        Contact: '',
        'Contact phone': '',
        Team: '',
        'Order id': '4711',
        Type: 'work',
        'Scheduled window': `${nyTime(zonedDayTimeToMs(day, 9 * 60, COMPANY_ZONE))}–${nyTime(zonedDayTimeToMs(day, 11 * 60, COMPANY_ZONE))}`,
        'Check-ins': ny(v.in_ts),
        'Check-outs': ny(v.out_ts!),
        'On site (h:mm:ss)': hms((v.out_ts! - v.in_ts) / 1000),
        Priority: '3',
        Created: ny(ts(-120)),
        Saved: ny(saved[ids.J1]),
        Accepted: ny(ts(-30)),
        'Pickup items': '2',
        'Drop-off items': '0',
        'NFC checks': '',
        Notes: 'Ring twice',
        Latitude: String(stop.lat),
        Longitude: String(stop.lng),
        Comments: '',
        Signature: '',
        'Signed by': '',
        'Signed at': '',
        Attachments: '',
        'Custom fields': 'floor: 3',
        'Form fields': '',
        'Public link': '',
      });
      // J2 has no coordinates; J3 was checked through editjobs (no checkins row), failed, at its place
      const row = (i: number) => Object.fromEntries(header.map((h, k) => [h, csv[i][k]]));
      expect(row(2)).toMatchObject({
        Title: 'No coordinates',
        Status: 'accepted',
        'Status time': ny(ts(-29)),
        Latitude: '',
        Longitude: '',
      });
      expect(row(3)).toMatchObject({
        Status: 'failed',
        Place: 'Višnjan depot',
        'Check-ins': ny(ts(20)),
        'On site (h:mm:ss)': '0:15:00',
        Response: 'Nobody home',
        'Drop-off items': '4',
      });

      const xlsx = readXlsx(
        (await reportFile(api, { reporttype: 'jobs', format: 'xlsx', day, accounts: [w1.uid], columns }, company.key)).body,
      );
      expect(xlsx[0]).toEqual(header);
      expect(xlsx[1][col(header, 'Latitude')]).toBe(stop.lat);
      expect(xlsx[1][col(header, 'Order id')]).toBe(4711);
      expectWall(xlsx[1][col(header, 'Accepted')], ts(-30));
    });

    it('columns: chosen, renamed, shown as checks; keys we hold nothing for are present and empty', async () => {
      const columns = [
        { key: 'title', rename: 'Job' },
        { key: 'comments' },
        { key: 'check_ins', isCheck: true },
        { key: 'signature' },
        { key: 'form_fields' },
        { key: 'custom_fields' },
      ];
      const csv = readCsv(
        (await reportFile(api, { reporttype: 'jobs', format: 'csv', day, accounts: [w1.uid], columns }, company.key)).body,
      );
      expect(csv).toEqual([
        ['Job', 'Comments', 'Check-ins', 'Signature', 'Form fields', 'Custom fields'],
        ['Boiler at the stop', '', '✓', '', '', 'floor: 3'],
        ['No coordinates', '', '', '', '', ''],
        ['At the depot place', '', '✓', '', '', ''],
      ]);
    });
  });

  describe('dayroute', () => {
    it('one day in route order with the distance and assumed driving time from the previous stop', async () => {
      const { xlsx, csv, pdf, geojson } = await allFormats({ reporttype: 'dayroute', day, accounts: [w1.uid] });
      const header = csv[0];
      const leg = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => {
        const m = geodesicM(a, b);
        return `${(m / MI).toFixed(2)} mi, ${hms(Math.round(m / CAR_MPS))}`;
      };
      expect(csv.slice(1).map((r) => [r[col(header, 'No.')], r[col(header, 'Title')], r[col(header, 'From previous stop')]])).toEqual([
        ['1', 'Boiler at the stop', leg(routeStart, stop)],
        ['2', 'No coordinates', ''],
        ['3', 'At the depot place', leg(stop, farJob)],
      ]);
      expect(xlsx.slice(1).map((r) => r[col(header, 'From previous stop')])).toEqual([leg(routeStart, stop), null, leg(stop, farJob)]);
      expect(pdf).toContain('Day route');
      // pdf cells are cut to their column (…): the distance part of the leg
      expect(pdf).toContain(leg(routeStart, stop).split(',')[0]);
      expect(pdf).toContain('Page 1 of 1');
      expect(geojson.features.map((f) => f.geometry?.type ?? null)).toEqual(['Point', null, 'Point']);
      expect(geojson.features[0].properties).toMatchObject({ number: 1, routeinfo: leg(routeStart, stop) });
    });
  });

  describe('activities', () => {
    it('the timeline of the member’s job events, time-ordered, from job timestamps and check-in rows', async () => {
      const { xlsx, csv, pdf, geojson } = await allFormats({ reporttype: 'activities', from: day, until: today, accounts: [w1.uid] });
      const header = csv[0];
      const v = jobVisits()[0];
      const kord = ['Created', 'Assigned', 'Accepted', 'Rejected', 'Checked in', 'NFC check', 'Checked out', 'Done (success)'];
      const title: Record<string, string> = {
        J0: 'Yesterday before',
        J1: 'Boiler at the stop',
        J2: 'No coordinates',
        J3: 'At the depot place',
        J5: 'Next week',
      };
      const events: Array<[number, string, string]> = [];
      for (const name of ['J0', 'J1', 'J2', 'J3', 'J5']) {
        const r = jobRows[ids[name]];
        events.push([r.ts_created || r.created_at, 'Created', name], [r.ts_assigned, 'Assigned', name]);
      }
      events.push(
        [ts(-30), 'Accepted', 'J1'],
        [ts(-29), 'Accepted', 'J2'],
        [v.in_ts, 'Checked in', 'J1'],
        [v.out_ts!, 'Checked out', 'J1'],
        [ts(9), 'Done (success)', 'J1'],
        [ts(20), 'Checked in', 'J3'],
        [ts(35), 'Checked out', 'J3'],
        [ts(36), 'Done (failed)', 'J3'],
      );
      const inRange = events.filter(
        ([t]) => t >= zonedDayTimeToMs(day, 0, COMPANY_ZONE) && t < zonedDayTimeToMs(shiftDay(today, 1), 0, COMPANY_ZONE),
      );
      inRange.sort((a, b) => a[0] - b[0] || ids[a[2]].localeCompare(ids[b[2]]) || kord.indexOf(a[1]) - kord.indexOf(b[1]));
      const got = csv.slice(1).map((r) => [r[col(header, 'Time')], r[col(header, 'Event')], r[col(header, 'Job')]]);
      expect(got).toEqual(inRange.map(([t, e, j]) => [ny(t), e, title[j]]));
      expect(inRange.length).toBeGreaterThanOrEqual(15);
      const done = csv.find((r) => r[col(header, 'Event')] === 'Done (failed)')!;
      expect([done[col(header, 'Response')], done[col(header, 'Job status now')]]).toEqual(['Nobody home', 'failed']);
      const out = csv.find((r) => r[col(header, 'Event')] === 'Checked out' && r[col(header, 'Job')] === title.J1)!;
      expect(out[col(header, 'Visit (h:mm:ss)')]).toBe(hms(v.duration! / 1000));

      expect(xlsx).toHaveLength(inRange.length + 1);
      expectWall(xlsx[1][0], inRange[0][0]);
      expect(pdf).toContain('Activities');
      expect(pdf).toContain('Done (failed)');
      expect(geojson.features).toHaveLength(inRange.length);
      const checkIn = geojson.features.find((f) => f.properties?.event === 'Checked in' && f.properties?.job === title.J1)!;
      expect(checkIn.geometry).toEqual({ type: 'Point', coordinates: [stop.lng, stop.lat] });
    });
  });

  describe('worksheet', () => {
    it('per member and day the jobs worked: arrival, departure, on site, travel from the previous job, items', async () => {
      const { xlsx, csv, pdf, geojson } = await allFormats({ reporttype: 'worksheet', from: day, until: day, accounts: [w1.uid, w2.uid] });
      const header = csv[0];
      const v = jobVisits()[0];
      const pick = (r: string[]) =>
        Object.fromEntries(
          [
            'No.',
            'Job',
            'Status',
            'Arrived',
            'Left',
            'On site (h:mm:ss)',
            'Travel from previous job (h:mm:ss)',
            'Done at',
            'Pickup items',
            'Drop-off items',
            'Response',
          ].map((h) => [h, r[col(header, h)]]),
        );
      expect(csv.slice(1).map(pick)).toEqual([
        {
          'No.': '1',
          Job: 'Boiler at the stop',
          Status: 'success',
          Arrived: ny(v.in_ts),
          Left: ny(v.out_ts!),
          'On site (h:mm:ss)': hms((v.out_ts! - v.in_ts) / 1000),
          'Travel from previous job (h:mm:ss)': '',
          'Done at': ny(ts(9)),
          'Pickup items': '2',
          'Drop-off items': '0',
          Response: 'Replaced valve',
        },
        {
          'No.': '2',
          Job: 'At the depot place',
          Status: 'failed',
          Arrived: ny(ts(20)),
          Left: ny(ts(35)),
          'On site (h:mm:ss)': '0:15:00',
          'Travel from previous job (h:mm:ss)': hms((ts(20) - v.out_ts!) / 1000),
          'Done at': ny(ts(36)),
          'Pickup items': '0',
          'Drop-off items': '4',
          Response: 'Nobody home',
        },
      ]);
      expect(xlsx).toHaveLength(3);
      expectWall(xlsx[2][col(header, 'Arrived')], ts(20));
      expect(pdf).toContain('Worksheet');
      expect(pdf).toContain('Nobody home');
      expect(geojson.features.map((f) => f.geometry)).toEqual([
        { type: 'Point', coordinates: [stop.lng, stop.lat] },
        { type: 'Point', coordinates: [farJob.lng, farJob.lat] },
      ]);
    });
  });

  describe('checkins', () => {
    it('one row per check-in row of the members: place or job, in, out, duration, position', async () => {
      const { xlsx, csv, pdf, geojson } = await allFormats({ reporttype: 'checkins', day, accounts: [w1.username, w2.uid] });
      const header = csv[0];
      expect(header).toEqual(['Member', 'At', 'Place / job', 'Address', 'In', 'Out', 'Duration (h:mm:ss)']);
      expect(csv.slice(1)).toEqual(
        visits.map((k) => [
          'Ana Kovač',
          k.place_id ? 'place' : 'job',
          k.place_id ? 'Višnjan depot' : 'Boiler at the stop',
          k.place_id ? 'Istarska 1, Višnjan' : 'Stop road 5',
          ny(k.in_ts),
          k.out_ts === null ? '' : ny(k.out_ts),
          k.duration === null ? '' : hms(k.duration / 1000),
        ]),
      );
      expect(xlsx).toHaveLength(visits.length + 1);
      expectWall(xlsx[1][col(header, 'In')], visits[0].in_ts);
      expect(pdf).toContain('Check-ins');
      expect(pdf).toContain('Višnjan depot');
      expect(geojson.features.map((f) => f.geometry)).toEqual(
        visits.map((k) => ({ type: 'Point', coordinates: k.place_id ? [depot.lng, depot.lat] : [stop.lng, stop.lat] })),
      );
    });
  });

  it('tenancy: another company’s member is unknown', async () => {
    const other = await createCompany(api, { timezone: 'UTC' });
    const foreign = await createMember(api, other, { name: 'Foreign' });
    const res = await fetch(`${api.url}/api/createreport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': company.key },
      body: JSON.stringify({ data: { reporttype: 'checkins', format: 'csv', day, accounts: [foreign.uid] } }),
    });
    expect(((await res.json()) as { status: number }).status).not.toBe(0);
  });
});
