import { batchesOf, type ReportContext, type ReportDb, type ReportMember } from '../report-definition';
import { dayTotalRow, MILEAGE_REPORT, TripDayTotalRow, TripRow, tripRow } from './mileage';
import { stopRow } from './stopsreport';
import { fakeFixDb } from './spec-helpers';
import { TIMELINE_REPORT, TimelineEntry, timelineOrder, timelineRow } from './timeline';

const ana: ReportMember = { id: 'M1', name: 'Ana', username: 'ana', timezone: 'Europe/Ljubljana' };
const bo: ReportMember = { id: 'M2', name: 'Bo', username: 'bo', timezone: 'America/New_York' };

const trip = (
  ord: number,
  start: number,
  minutes: number,
  distance: number,
  places: [string | null, string | null] = [null, null],
): TripRow => ({
  ord: String(ord),
  id: String(start),
  start_ts: String(start),
  end_ts: String(start + minutes * 60_000),
  start_lat: 45.1,
  start_lng: 13.2,
  end_lat: 45.2,
  end_lng: 13.3,
  distance,
  speed_avg: distance / (minutes * 60),
  speed_max: distance / (minutes * 60) + 3,
  from_place: places[0],
  to_place: places[1],
});

/** A context whose cursor answers `rows` for the trips and `totals` for the member-day sums. */
function ctxWith(rows: TripRow[], totals: TripDayTotalRow[] = []): ReportContext {
  const db: ReportDb = {
    query: async () => [],
    async *cursor<T>(sql: string) {
      yield* (sql.includes('GROUP BY') ? totals : rows) as unknown as T[];
    },
    batches: <T>() => batchesOf(db.cursor<T>('', [])),
  };
  return {
    db,
    companyId: 'C',
    company: { name: 'Co', timezone: 'UTC' },
    requester: { id: 'M1', name: 'Ana' },
    locale: { timezone: 'UTC', unitTime: '24', unitDate: 'YYYY-MM-DD', unitDistance: 'SI' },
    members: [ana, bo],
    places: [],
    range: { from: 20261123, until: 20261124, fromMs: Date.UTC(2026, 10, 23), untilMs: Date.UTC(2026, 10, 25) },
  };
}

describe('mileage', () => {
  it('a trip row: the spec keys, from/to the place names else coordinates, the unheld fields empty', () => {
    const t = trip(1, Date.UTC(2026, 10, 23, 22, 30), 45, 30_000, ['Depot', null]);
    expect(tripRow(ana, t).values).toEqual({
      date: 20261123,
      member: 'Ana',
      start: Date.UTC(2026, 10, 23, 22, 30),
      end: Date.UTC(2026, 10, 23, 23, 15),
      distance: 30_000,
      duration: 2700,
      minutes: 45,
      maxspeed: t.speed_max,
      avgspeed: t.speed_avg,
      from: 'Depot',
      to: '45.20000, 13.30000',
      purpose: null,
      comment: null,
      approvalstatus: null,
      approvedby: null,
      placesheet: null,
    });
    // the member's day: 23:30 UTC is already the 24th in Ljubljana
    expect(tripRow(ana, trip(1, Date.UTC(2026, 10, 23, 23, 30), 5, 1)).values.date).toBe(20261124);
  });

  it('rows: the trips alike, in order; then an empty row and the totals section, one row per member-day', async () => {
    const rows = [
      trip(1, Date.UTC(2026, 10, 23, 8), 30, 20_000),
      trip(1, Date.UTC(2026, 10, 23, 12), 10, 4_000),
      trip(1, Date.UTC(2026, 10, 24, 8), 20, 9_000),
      trip(2, Date.UTC(2026, 10, 23, 15), 60, 50_000),
    ];
    const total = (ord: number, day: number, of: TripRow[]): TripDayTotalRow => ({
      ord: String(ord),
      day,
      trips: of.length,
      distance: of.reduce((s, t) => s + t.distance, 0),
      duration_ms: of.reduce((s, t) => s + Number(t.end_ts) - Number(t.start_ts), 0),
      speed_max: Math.max(...of.map((t) => t.speed_max)),
      start_ts: Math.min(...of.map((t) => Number(t.start_ts))),
      end_ts: Math.max(...of.map((t) => Number(t.end_ts))),
    });
    const totals = [total(1, 20261123, rows.slice(0, 2)), total(1, 20261124, rows.slice(2, 3)), total(2, 20261123, rows.slice(3))];
    const out = [];
    for await (const r of MILEAGE_REPORT.rows(ctxWith(rows, totals))) out.push(r.values);
    expect(out.map((v) => [v.member, v.date, v.from])).toEqual([
      ['Ana', 20261123, '45.10000, 13.20000'],
      ['Ana', 20261123, '45.10000, 13.20000'],
      ['Ana', 20261124, '45.10000, 13.20000'],
      ['Bo', 20261123, '45.10000, 13.20000'],
      [undefined, undefined, undefined], // the empty row ending the trips' table
      ['Ana', 20261123, 'Day total: 2 trips'],
      ['Ana', 20261124, 'Day total: 1 trip'],
      ['Bo', 20261123, 'Day total: 1 trip'],
    ]);
    // the trips' rows are homogeneous: every one a trip, with the same keys
    const keys = Object.keys(out[0]);
    for (const v of out.slice(0, 4)) expect([Object.keys(v), String(v.from).startsWith('Day total')]).toEqual([keys, false]);
    expect(Object.keys(out[5])).toEqual(keys);
    expect(out[5]).toMatchObject({
      start: Date.UTC(2026, 10, 23, 8),
      end: Date.UTC(2026, 10, 23, 12, 10),
      distance: 24_000,
      duration: 2400,
      minutes: 40,
      maxspeed: rows[0].speed_max,
      avgspeed: 10,
      to: null,
      purpose: null,
    });
  });

  it('no trips: no rows (no empty row, no totals)', async () => {
    const out = [];
    for await (const r of MILEAGE_REPORT.rows(ctxWith([]))) out.push(r);
    expect(out).toEqual([]);
  });

  it('a total row: 0 driving time gives an average of 0', () => {
    const zero: TripDayTotalRow = { ord: '1', day: 20261123, trips: 1, distance: 0, duration_ms: 0, speed_max: 0, start_ts: 5, end_ts: 5 };
    expect(dayTotalRow(ana, zero).values).toMatchObject({ from: 'Day total: 1 trip', duration: 0, avgspeed: 0 });
  });
});

describe('stopsreport row', () => {
  it('values and a Point; no place → empty place columns', () => {
    const stop = { fromTs: 1000, toTs: 361_000, lat: 45.5, lng: 13.5, fixes: 12 };
    expect(stopRow(ana, 20261123, stop, { name: 'Depot', address: '', distance: 12.5 })).toEqual({
      values: {
        member: 'Ana',
        date: 20261123,
        from: 1000,
        to: 361_000,
        duration: 360,
        place: 'Depot',
        place_distance: 12.5,
        address: null,
        latitude: 45.5,
        longitude: 13.5,
        fixes: 12,
      },
      geometry: { type: 'Point', coordinates: [13.5, 45.5] },
    });
    expect(stopRow(ana, 20261123, stop, null).values).toMatchObject({ place: null, place_distance: null, address: null });
  });
});

describe('timeline', () => {
  const e = (activity: TimelineEntry['activity'], start: number, end: number | null): TimelineEntry => ({
    activity,
    start,
    end,
    duration: end === null ? null : (end - start) / 1000,
    distance: null,
    place: null,
    job: null,
    lat: activity === 'drive' ? null : 45,
    lng: activity === 'drive' ? null : 13,
    jobUid: null,
    trackId: null,
  });

  it('time order: by start, then a stop before the place visit before the job visit inside them before a drive, then end (open last)', () => {
    const entries = [e('drive', 500, 900), e('job', 100, null), e('job', 100, 300), e('place', 100, 450), e('stop', 100, 500), e('drive', 0, 100)];
    expect(timelineOrder(entries).map((x) => [x.activity, x.start, x.end])).toEqual([
      ['drive', 0, 100],
      ['stop', 100, 500],
      ['place', 100, 450],
      ['job', 100, 300],
      ['job', 100, null],
      ['drive', 500, 900],
    ]);
  });

  it('rows: drives, stops, place visits and job visits of a member in time order', async () => {
    const T = Date.UTC(2026, 10, 23, 8);
    const MIN = 60_000;
    const fix = (minute: number, step: number) => ({ ts: T + minute * MIN, lat: 46 + (step * 500) / 111_132, lng: 14.5, acc: 5, dir: null, spd: null, elv: null, bat: null });
    // drive 8:00–8:10, stay 8:10–8:30 at step 10, drive 8:30–8:40
    const fixes = [];
    for (let i = 0; i <= 10; i++) fixes.push(fix(i, i));
    for (let i = 11; i <= 30; i++) fixes.push(fix(i, 10));
    for (let i = 31; i <= 40; i++) fixes.push(fix(i, i - 20));
    const db = fakeFixDb({ M1: fixes }, (sql) => {
      if (sql.includes('FROM tracks')) {
        return [
          { id: '1', start_ts: String(T), end_ts: String(T + 10 * MIN), distance: 5000 },
          { id: '2', start_ts: String(T + 30 * MIN), end_ts: String(T + 40 * MIN), distance: 5000 },
        ];
      }
      if (sql.includes('FROM checkins')) {
        return [
          { kind: 'place', in_ts: String(T + 11 * MIN), out_ts: String(T + 29 * MIN), job_id: null, title: null, place: 'Depot', lat: 46.045, lng: 14.5 },
          { kind: 'job', in_ts: String(T + 12 * MIN), out_ts: null, job_id: 'J1', title: 'Boiler', place: 'Depot', lat: 46.045, lng: 14.5 },
        ];
      }
      return [];
    });
    const ctx = { ...ctxWith([]), db, members: [{ ...ana, timezone: 'UTC' }], stopMinutes: 5 };
    const out = [];
    for await (const r of TIMELINE_REPORT.rows(ctx)) out.push(r.values);
    expect(out.map((v) => [v.activity, ((v.start as number) - T) / MIN, v.end === null ? null : ((v.end as number) - T) / MIN, v.place, v.job])).toEqual([
      ['drive', 0, 10, null, null],
      ['stop', 10, 30, null, null],
      ['place', 11, 29, 'Depot', null],
      ['job', 12, null, 'Depot', 'Boiler'],
      ['drive', 30, 40, null, null],
    ]);
    expect(out[2]).toMatchObject({ duration: 18 * 60, latitude: 46.045, job_uid: null });
    expect(out[3]).toMatchObject({ duration: null, job_uid: 'J1' });
  });

  it('a row: the member’s day of its start, a Point only with a position', () => {
    const row = timelineRow(bo, e('stop', Date.UTC(2026, 10, 24, 3), Date.UTC(2026, 10, 24, 4)));
    expect(row.values).toMatchObject({ member: 'Bo', date: 20261123, activity: 'stop', duration: 3600 });
    expect(row.geometry).toEqual({ type: 'Point', coordinates: [13, 45] });
    expect(timelineRow(bo, e('drive', 0, 1000)).geometry).toBeNull();
  });
});
