import { Pool, PoolClient } from 'pg';
import { loadConfig, newId } from '@app/core';
import { DataSource } from 'typeorm';
import {
  createIntCompany,
  createIntJob,
  createIntMember,
  createIntPlace,
  insertIntRows,
  openIntegrationDb,
} from '@test/support/integration';
import { PgReportDb } from '../render/pg-report-db';
import type { ReportDb } from '../report-definition';
import { countFirings, readFirings } from './alerts-firings.read';
import { readFixRows, trackingOffTimes } from './locations-fixes.read';
import {
  countMemberVisits,
  countTimesheetRows,
  readClockEvents,
  readClockStateBefore,
  readTrackRows,
  readVisitRows,
} from './locations-time-data.read';
import { readTimelineDrives, readTimelineVisits } from './locations-timeline.read';
import { countTrips, readTripDayTotals, readTrips } from './locations-trips.read';
import { nearestPlaces } from './places-nearest.read';

/** Instants of the current UTC month (the fixes' partitions exist for the months around now). */
const DAY0 = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1);
const DAY = (() => {
  const d = new Date(DAY0);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
})();
const at = (h: number, m = 0) => DAY0 + (h * 60 + m) * 60_000;
const SPAN = { start: DAY0, end: DAY0 + 86_400_000 };

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

/** A stored track of `memberId` from `start` to `end` (ms) between two points, with its figures. */
function track(companyId: string, memberId: string, start: number, end: number, from: [number, number], to: [number, number]) {
  return {
    company_id: companyId,
    member_id: memberId,
    start_ts: start,
    end_ts: end,
    start_lat: from[0],
    start_lng: from[1],
    end_lat: to[0],
    end_lng: to[1],
    distance: 1234,
    waypoint_count: 2,
    speed_avg: 5,
    speed_max: 9,
    short_encoded: '',
    course_encoded: '',
    lat_min: Math.min(from[0], to[0]),
    lat_max: Math.max(from[0], to[0]),
    lng_min: Math.min(from[1], to[1]),
    lng_max: Math.max(from[1], to[1]),
    share_token: newId().toLowerCase(),
    updated_at: end,
  };
}

/**
 * The report read models over the locations lib's tables (fixes, clock events, check-ins, tracks) and
 * alert firings, against PostgreSQL: each read's rows for a small fixture, and its scoping — another
 * company's rows never appear, even for the ids asked for.
 */
describe('report reads of fixes, clock events, visits, tracks and firings (PostgreSQL)', () => {
  let ds: DataSource;
  let pool: Pool;
  let client: PoolClient;
  let db: ReportDb;
  let a: string;
  let ana: string;
  let depot: string;
  let b: string;
  let stranger: string;
  let geoJob: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    pool = new Pool({ connectionString: loadConfig().DATABASE_URL, max: 1 });
    client = await pool.connect();
    db = new PgReportDb(client);
    const ca = await createIntCompany(ds, { timezone: 'UTC' });
    a = ca.companyId;
    ana = await createIntMember(ds, a, { name: 'Ana' });
    depot = await createIntPlace(ds, a, { name: 'Depot', lat: 46.05, lng: 14.5, address: 'Trg 1' });
    await createIntPlace(ds, a, { name: 'Deleted near', lat: 46.0501, lng: 14.5, deletedAt: 1 });
    b = (await createIntCompany(ds)).companyId;
    stranger = await createIntMember(ds, b, { name: 'Stranger' });
    await createIntPlace(ds, b, { name: 'Their depot', lat: 46.05, lng: 14.5 });

    await createIntJob(ds, a, {
      destination_name: 'by hand',
      worker_id: ana,
      day: DAY,
      ts_check_in: at(8),
      ts_check_out: at(8, 30),
      place_uid: depot,
    });
    geoJob = await createIntJob(ds, a, {
      destination_name: 'geofenced',
      worker_id: ana,
      day: DAY,
      destination_lat: 46.2,
      destination_lng: 14.7,
    });

    await insertIntRows(ds, 'clock_events', [
      { company_id: a, member_id: ana, ts: DAY0 - 3_600_000, tracking: true, received_at: 0 },
      { company_id: a, member_id: ana, ts: at(12), tracking: false, received_at: 0 },
      { company_id: a, member_id: ana, ts: at(13), tracking: true, received_at: 0 },
      { company_id: b, member_id: stranger, ts: at(12), tracking: false, received_at: 0 },
    ]);
    await insertIntRows(ds, 'checkins', [
      { company_id: a, id: newId(), member_id: ana, job_id: geoJob, in_ts: at(10), out_ts: at(10, 45), duration: 45 * 60_000 },
      { company_id: a, id: newId(), member_id: ana, place_id: depot, in_ts: at(14), out_ts: null, duration: null },
      { company_id: b, id: newId(), member_id: stranger, place_id: newId(), in_ts: at(10), out_ts: at(11), duration: 3_600_000 },
    ]);
    await insertIntRows(ds, 'location_fixes', [
      { company_id: a, member_id: ana, ts: at(9), lat: 46.05, lng: 14.5, received_at: 0 },
      { company_id: a, member_id: ana, ts: at(9, 1), lat: 46.0501, lng: 14.5, acc: 5, received_at: 0 },
      { company_id: b, member_id: stranger, ts: at(9), lat: 1, lng: 1, received_at: 0 },
    ]);
    await insertIntRows(ds, 'tracks', [
      track(a, ana, at(9, 30), at(9, 55), [46.05, 14.5], [46.2, 14.7]),
      track(a, ana, at(15), at(15, 30), [46.2, 14.7], [40, 10]),
      track(b, stranger, at(9, 30), at(9, 55), [46.05, 14.5], [46.2, 14.7]),
    ]);
  });
  afterAll(async () => {
    client.release();
    await pool.end();
    await ds.destroy();
  });

  it('time data: the clock state before a span and its events; the member’s visits (rows and hand-checked jobs); tracks', async () => {
    expect(await readClockStateBefore(db, a, ana, SPAN.start)).toBe(true);
    expect(await readClockStateBefore(db, a, stranger, SPAN.start)).toBeNull();
    expect((await all(readClockEvents(db, a, ana, SPAN.start, SPAN.end))).map((e) => [Number(e.ts), e.tracking])).toEqual([
      [at(12), false],
      [at(13), true],
    ]);
    const visits = await all(readVisitRows(db, a, ana, SPAN.start, SPAN.end, at(20)));
    expect(visits.map((v) => [v.kind, v.job_title, v.place_name, Number(v.in_ts), v.out_ts === null ? null : Number(v.out_ts)])).toEqual([
      ['job', 'by hand', 'Depot', at(8), at(8, 30)],
      ['job', 'geofenced', null, at(10), at(10, 45)],
      ['place', null, 'Depot', at(14), null],
    ]);
    expect(await all(readVisitRows(db, a, stranger, SPAN.start, SPAN.end, at(20)))).toEqual([]);
    expect((await all(readTrackRows(db, a, ana, SPAN.start, SPAN.end))).map((t) => Number(t.start_ts))).toEqual([at(9, 30), at(15)]);
  });

  it('time counts: memberonsite’s visits plus a total per member; timesheet’s days plus a total', async () => {
    const q = { companyId: a, memberIds: [ana, stranger], from: DAY, until: DAY };
    expect(await countMemberVisits(db, q)).toBe(1 + 3);
    expect(await countTimesheetRows(db, q)).toBe(1 + 1);
  });

  it('fixes: a member’s fixes of a window oldest first; its tracking-off times', async () => {
    const fixes = await all(readFixRows(db, a, ana, SPAN.start, SPAN.end));
    expect(fixes.map((f) => [Number(f.ts), f.acc])).toEqual([
      [at(9), null],
      [at(9, 1), 5],
    ]);
    expect(await all(readFixRows(db, a, stranger, SPAN.start, SPAN.end))).toEqual([]);
    expect(await trackingOffTimes(db, a, ana, SPAN.start, SPAN.end)).toEqual([at(12)]);
  });

  it('nearest place: the company’s nearest live place within 200 m, else null', async () => {
    const near = await nearestPlaces(db, a, [
      { lat: 46.0502, lng: 14.5 },
      { lat: 40, lng: 10 },
    ]);
    expect(near[0]).toMatchObject({ name: 'Depot', address: 'Trg 1' });
    expect(near[0]!.distance).toBeGreaterThan(15);
    expect(near[0]!.distance).toBeLessThan(30);
    expect(near[1]).toBeNull();
    expect(await nearestPlaces(db, a, [])).toEqual([]);
  });

  it('trips and timeline: the members’ tracks starting in their windows, with the nearest places; place and job visits', async () => {
    const q = {
      companyId: a,
      memberIds: [ana, stranger],
      fromMs: [SPAN.start, SPAN.start],
      untilMs: [SPAN.end, SPAN.end],
      timezones: ['UTC', 'UTC'],
    };
    const trips = await all(readTrips(db, q));
    expect(trips.map((t) => [t.ord, t.from_place, t.to_place])).toEqual([
      ['1', 'Depot', null],
      ['1', null, null],
    ]);
    // the trips, the empty row, one total per member-day
    expect(await countTrips(db, q)).toBe(2 + 1 + 1);
    expect(await all(readTripDayTotals(db, q))).toEqual([
      { ord: '1', day: DAY, trips: 2, distance: 2468, duration_ms: 55 * 60_000, speed_max: 9, start_ts: at(9, 30), end_ts: at(15, 30) },
    ]);
    expect((await readTimelineDrives(db, a, ana, SPAN.start, SPAN.end)).map((t) => Number(t.start_ts))).toEqual([at(9, 30), at(15)]);
    expect(await readTimelineDrives(db, a, stranger, SPAN.start, SPAN.end)).toEqual([]);
    const visits = await readTimelineVisits(db, a, ana, SPAN.start, SPAN.end);
    // place and job visits (a job checked in by hand too), by in time; another company's never
    expect(visits).toEqual([
      { kind: 'job', in_ts: String(at(8)), out_ts: String(at(8, 30)), job_id: expect.any(String), title: 'by hand', place: 'Depot', lat: 46.05, lng: 14.5 },
      { kind: 'job', in_ts: String(at(10)), out_ts: String(at(10, 45)), job_id: geoJob, title: 'geofenced', place: null, lat: 46.2, lng: 14.7 },
      { kind: 'place', in_ts: String(at(14)), out_ts: null, job_id: null, title: null, place: 'Depot', lat: 46.05, lng: 14.5 },
    ]);
    expect(await readTimelineVisits(db, a, stranger, SPAN.start, SPAN.end)).toEqual([]);
  });

  it('alert firings: the company’s firings of the range with rule, member, place and where the member was', async () => {
    const rule = newId();
    await insertIntRows(ds, 'alert_rules', [{ id: rule, company_id: a, title: 'Left the depot', action: 'place_exit', created_at: 0 }]);
    await insertIntRows(ds, 'alert_firings', [
      {
        company_id: a,
        id: newId(),
        rule_id: rule,
        member_id: ana,
        action: 'place_exit',
        occurrence: '1',
        place_id: depot,
        message: 'left',
        ts: at(9, 2),
        created_at: 0,
      },
      {
        company_id: a,
        id: newId(),
        rule_id: rule,
        member_id: ana,
        action: 'place_exit',
        occurrence: '2',
        place_id: depot,
        message: 'later',
        ts: at(20),
        created_at: 0,
      },
      {
        company_id: b,
        id: newId(),
        rule_id: rule,
        member_id: stranger,
        action: 'place_exit',
        occurrence: '1',
        message: 'theirs',
        ts: at(9),
        created_at: 0,
      },
    ]);
    const rows = await all(readFirings(db, a, SPAN.start, SPAN.end));
    expect(rows.map((r) => [r.title, r.member, r.place, r.message, r.lat])).toEqual([
      ['Left the depot', 'Ana', 'Depot', 'left', 46.0501],
      ['Left the depot', 'Ana', 'Depot', 'later', 46.05],
    ]);
    expect(await countFirings(db, a, SPAN.start, at(12))).toBe(1);
  });
});
