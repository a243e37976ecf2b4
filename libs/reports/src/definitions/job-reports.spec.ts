import type { ReportContext, ReportDb } from '../report-definition';
import type { ReportLocale, ReportRow } from '../report-table';
import { ACTIVITIES_REPORT, ACTIVITY_EVENTS } from './activities';
import { ACTIVITY_LIFECYCLE, lifecycleRank } from '../reads/jobs-activities.read';
import { CHECKINS_REPORT } from './checkins';
import { assumedSpeed, DAYROUTE_REPORT, routeInfoText, routeLegs } from './dayroute';
import { REPORT_DEFINITIONS } from './index';
import {
  formFieldsText,
  JOB_VALUE_KEYS,
  JobReportRow,
  jobValueMapper,
  jobValues,
  onsiteSeconds,
  scheduledWindowText,
  visitsOf,
} from './job-rows';
import { jobRowsSql } from '../reads/jobs-rows.read';
import { JOBS_REPORT } from './jobs';
import { WORKSHEET_REPORT, worksheetValues } from './worksheet';

const NY: ReportLocale = { timezone: 'America/New_York', unitTime: '12', unitDate: 'MM/DD/YYYY', unitDistance: 'US' };
const LJ: ReportLocale = { timezone: 'Europe/Ljubljana', unitTime: '24', unitDate: 'DD.MM.YYYY', unitDistance: 'SI' };
const COMPANY_ZONE = 'Europe/Ljubljana';
/** 20 Nov 2026 (CET, UTC+1; New York EST, UTC−5) at hh:mm UTC. */
const utc = (h: number, m: number, s = 0) => Date.UTC(2026, 10, 20, h, m, s);

function job(over: Partial<JobReportRow> = {}): JobReportRow {
  return {
    id: 'j1',
    worker_id: 'm1',
    day: 20261120,
    number: 1,
    window_start: 900,
    window_end: 1100,
    type: 1,
    team_name: 'North',
    destination_name: 'Boiler service',
    destination_text: 'Trg 1, Ljubljana',
    destination_lat: 46.05,
    destination_lng: 14.5,
    text_dispatcher: 'Ring twice',
    text_receiver: 'Replaced valve',
    contact_name: 'Eva',
    contact_phone: '+386 1 234',
    priority: 3,
    order_id: 4711,
    items_to_pickup: 2,
    items_to_dropoff: 0,
    custom_fields: [{ key: 'floor', val: '3' }],
    extra: { extra_number_1_key: 'Hours', extra_number_1_val: 2.5, extra_text_2_val: 'ok' },
    ts_created: utc(7, 0),
    ts_assigned: utc(7, 5),
    ts_accepted: utc(7, 30),
    ts_rejected: 0,
    ts_done_success: utc(9, 0),
    ts_done_failed: 0,
    ts_check_in: utc(8, 12),
    ts_check_out: utc(8, 58),
    ts_check_nfc1: 0,
    ts_check_nfc2: 0,
    ts_saved: utc(9, 1),
    created_at: utc(7, 0),
    place_name: 'Depot',
    place_lat: 46.1,
    place_lng: 14.6,
    visits: [
      [utc(8, 12), utc(8, 30)],
      [utc(8, 40), utc(8, 58)],
    ],
    ...over,
  };
}

describe('job report values', () => {
  it('visits: the checkins rows, else the job timestamps; on-site time sums closed visits', () => {
    expect(visitsOf(job())).toEqual([
      { in: utc(8, 12), out: utc(8, 30) },
      { in: utc(8, 40), out: utc(8, 58) },
    ]);
    expect(visitsOf(job({ visits: null }))).toEqual([{ in: utc(8, 12), out: utc(8, 58) }]);
    expect(visitsOf(job({ visits: null, ts_check_out: 0 }))).toEqual([{ in: utc(8, 12), out: null }]);
    expect(visitsOf(job({ visits: null, ts_check_in: 0, ts_check_out: 0 }))).toEqual([]);
    expect(onsiteSeconds(visitsOf(job()))).toBe(36 * 60);
    expect(onsiteSeconds([{ in: utc(8, 0), out: null }])).toBeNull();
  });

  it('the scheduled window: company-zone HHMM shown in the requester zone and clock', () => {
    expect(scheduledWindowText(job(), COMPANY_ZONE, NY)).toBe('3:00 AM–5:00 AM');
    expect(scheduledWindowText(job(), COMPANY_ZONE, LJ)).toBe('09:00–11:00');
    expect(scheduledWindowText(job({ window_end: 0 }), COMPANY_ZONE, LJ)).toBe('from 09:00');
    expect(scheduledWindowText(job({ window_start: 0 }), COMPANY_ZONE, LJ)).toBe('until 11:00');
    expect(scheduledWindowText(job({ window_start: 0, window_end: 0 }), COMPANY_ZONE, LJ)).toBeNull();
  });

  it('form fields: the worker-input values that are set, labelled', () => {
    expect(formFieldsText(job().extra)).toBe('Hours: 2.5; text 2: ok');
    expect(formFieldsText({ extra_number_1_key: 'Hours', extra_number_1_val: '' })).toBeNull();
  });

  it('every spec key of jobs, values in raw units, keys we hold nothing for empty', () => {
    const v = jobValues(job(), 'Ana', COMPANY_ZONE, NY);
    expect(v).toEqual({
      member: 'Ana',
      date: 20261120,
      title: 'Boiler service',
      status: 'success',
      status_ts: utc(9, 0),
      status_response: 'Replaced valve',
      address: 'Trg 1, Ljubljana',
      place: 'Depot',
      contact_name: 'Eva',
      contact_phone: '+386 1 234',
      teams: 'North',
      orderid: 4711,
      type: 'pickup',
      scheduled_window: '3:00 AM–5:00 AM',
      check_ins: '11/20/2026 3:12 AM; 11/20/2026 3:40 AM',
      check_outs: '11/20/2026 3:30 AM; 11/20/2026 3:58 AM',
      onsite: 2160,
      priority: 3,
      created: utc(7, 0),
      saved: utc(9, 1),
      accepted: utc(7, 30),
      pickup_items: 2,
      dropoff_items: 0,
      manual_checks: null,
      notes: 'Ring twice',
      latitude: 46.05,
      longitude: 14.5,
      comments: null,
      signature: null,
      signature_name: null,
      signature_date: null,
      attachments: null,
      custom_fields: 'floor: 3',
      form_fields: 'Hours: 2.5; text 2: ok',
      public_url: null,
    });
    const spec =
      'member, date, title, status, status_ts, status_response, address, place, contact_name, contact_phone, teams, orderid, type, scheduled_window, check_ins, check_outs, onsite, priority, created, saved, accepted, pickup_items, dropoff_items, manual_checks, notes, latitude, longitude, comments, signature, signature_name, signature_date, attachments, custom_fields, form_fields, public_url';
    expect(JOBS_REPORT.columns.map((c) => c.key).join(', ')).toBe(spec);
    expect(Object.keys(v).sort()).toEqual(spec.split(', ').sort());
  });

  it('status and its time follow the progress precedence; a job without coordinates falls back to its place, else none', () => {
    const started = jobValues(job({ ts_done_success: 0 }), 'Ana', COMPANY_ZONE, LJ);
    expect([started.status, started.status_ts]).toEqual(['started', utc(8, 12)]);
    const scheduled = jobValues(
      job({ ts_done_success: 0, ts_accepted: 0, ts_check_in: 0, ts_check_out: 0, visits: null }),
      'Ana',
      COMPANY_ZONE,
      LJ,
    );
    expect([scheduled.status, scheduled.status_ts, scheduled.check_ins, scheduled.onsite]).toEqual(['scheduled', utc(7, 5), null, null]);
    const failed = jobValues(job({ ts_done_success: 0, ts_done_failed: utc(9, 30), ts_check_nfc1: utc(8, 13) }), 'Ana', COMPANY_ZONE, LJ);
    expect([failed.status, failed.status_ts, failed.manual_checks]).toEqual(['failed', utc(9, 30), '20.11.2026 09:13']);
    const atPlace = jobValues(job({ destination_lat: null }), 'Ana', COMPANY_ZONE, LJ);
    expect([atPlace.latitude, atPlace.longitude]).toEqual([46.1, 14.6]);
    const nowhere = jobValues(job({ destination_lat: null, place_lat: null, place_lng: null }), 'Ana', COMPANY_ZONE, LJ);
    expect([nowhere.latitude, nowhere.longitude]).toEqual([null, null]);
  });
});

describe('dayroute legs', () => {
  it('straight-line distance from the previous stop with coordinates at the assumed speed', () => {
    const a = { lat: 0, lng: 0 };
    const b = { lat: 1, lng: 0 }; // one degree of latitude at the equator: 110,574.4 m on WGS84
    const legs = routeLegs([a, null, b], null, assumedSpeed('car'));
    expect(legs[0]).toEqual({ distance: 0, duration: 0 });
    expect(legs[1]).toBeNull();
    expect(legs[2]!.distance).toBeCloseTo(110_574.4, 0);
    expect(legs[2]!.duration).toBe(Math.round(legs[2]!.distance / (40 / 3.6)));
    const fromStart = routeLegs([b], a, assumedSpeed('pedestrian'));
    expect(fromStart[0]!.duration).toBe(Math.round(110_574.4 / (5 / 3.6)));
    expect(assumedSpeed('hovercraft')).toBe(assumedSpeed('car'));
  });

  it('routeinfo in the requester units', () => {
    expect(routeInfoText({ distance: 1609.344 * 2, duration: 3725 }, NY)).toBe('2.00 mi, 1:02:05');
    expect(routeInfoText({ distance: 1234, duration: 59 }, LJ)).toBe('1.23 km, 0:00:59');
    expect(routeInfoText(null, LJ)).toBeNull();
  });

  it('spec keys exactly, in the spec order', () => {
    expect(DAYROUTE_REPORT.columns.map((c) => c.key).join(', ')).toBe(
      'number, member, date, title, status, status_ts, status_response, routeinfo, address, place, contact_name, contact_phone, teams, orderid, type, scheduled_window, check_ins, check_outs, onsite, priority, created, saved, accepted, pickup_items, dropoff_items, manual_checks, notes, latitude, longitude, signature, attachments, custom_fields, form_fields, public_url',
    );
  });
});

describe('worksheet values', () => {
  it('arrival, departure, on-site and travel from the previous job of the day', () => {
    const first = worksheetValues(job(), 'Ana', 1, null);
    expect(first.values).toMatchObject({
      seq: 1,
      arrived: utc(8, 12),
      left: utc(8, 58),
      onsite: 2160,
      travel: null,
      done: utc(9, 0),
      travel_distance: null,
    });
    expect(first.next).toEqual({ end: utc(8, 58), position: { lat: 46.05, lng: 14.5 } });
    const second = worksheetValues(
      job({ id: 'j2', visits: [[utc(9, 20), null]], ts_done_success: 0, destination_lat: 46.05, destination_lng: 14.6 }),
      'Ana',
      2,
      first.next,
    );
    expect(second.values).toMatchObject({ seq: 2, arrived: utc(9, 20), left: null, onsite: null, travel: 22 * 60, status: 'started' });
    expect(second.values.travel_distance).toBeGreaterThan(7_000);
    // done without a check-in: travel up to the done time
    const third = worksheetValues(job({ visits: null, ts_check_in: 0, ts_check_out: 0, ts_done_success: utc(10, 0) }), 'Ana', 3, {
      end: utc(9, 30),
      position: null,
    });
    expect(third.values).toMatchObject({ arrived: null, travel: 30 * 60, done: utc(10, 0), status: 'success' });
  });
});

/** A ReportDb answering canned rows by the first SQL keyword that matches, recording the parameters. */
function fakeDb(answers: Array<[RegExp, unknown[]]>, calls: unknown[][] = []): ReportDb {
  const pick = (sql: string, params: unknown[]) => {
    calls.push(params);
    const hit = answers.find(([re]) => re.test(sql));
    if (!hit) throw new Error(`unexpected SQL ${sql.slice(0, 80)}`);
    return hit[1];
  };
  return {
    query: async <T>(sql: string, params: unknown[]) => pick(sql, params) as T[],
    cursor: async function* <T>(sql: string, params: unknown[]) {
      yield* pick(sql, params) as T[];
    },
    batches: async function* <T>(sql: string, params: unknown[]) {
      const rows = pick(sql, params) as T[];
      if (rows.length) yield rows;
    },
  };
}

function ctxWith(db: ReportDb): ReportContext {
  return {
    db,
    companyId: 'c1',
    company: { name: 'Co', timezone: COMPANY_ZONE },
    requester: { id: 'r', name: 'Req' },
    locale: LJ,
    members: [
      { id: 'm1', name: 'Ana', username: 'ana', timezone: COMPANY_ZONE },
      { id: 'm2', name: 'Bor', username: 'bor', timezone: 'America/New_York' },
    ],
    places: [],
    range: { from: 20261120, until: 20261120, fromMs: utc(-1, 0), untilMs: utc(23, 0) },
  };
}

async function all(rows: AsyncIterable<ReportRow>): Promise<ReportRow[]> {
  const out: ReportRow[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

describe('row sources', () => {
  it('registers the five job-based types', () => {
    for (const t of ['jobs', 'dayroute', 'activities', 'worksheet', 'checkins'] as const) expect(REPORT_DEFINITIONS[t]?.type).toBe(t);
  });

  it('jobs: company, members in order and the range days as parameters; member names; points or null', async () => {
    const calls: unknown[][] = [];
    const ctx = ctxWith(
      fakeDb(
        [[/FROM unnest/, [job(), job({ id: 'j2', worker_id: 'm2', destination_lat: null, place_lat: null, place_lng: null })]]],
        calls,
      ),
    );
    const rows = await all(JOBS_REPORT.rows(ctx));
    expect(calls[0]).toEqual(['c1', ['m1', 'm2'], 20261120, 20261120]);
    expect(rows.map((r) => [r.values.member, r.geometry])).toEqual([
      ['Ana', { type: 'Point', coordinates: [14.5, 46.05] }],
      ['Bor', null],
    ]);
  });

  it('jobs with output keys: selects only the fields those columns read, and each column alone equals its full-row value', async () => {
    const full = job({ ts_done_success: 0, ts_check_nfc1: utc(8, 13) });
    const every = jobValues(full, 'Ana', COMPANY_ZONE, LJ);
    expect(Object.keys(every)).toEqual(JOB_VALUE_KEYS);
    for (const key of JOB_VALUE_KEYS) {
      const mapper = jobValueMapper([key]);
      // a row holding only what jobRowsSql selects for these inputs
      const narrow = Object.fromEntries(
        ['id', 'worker_id', ...mapper.inputs].map((k) => [k, full[k as keyof JobReportRow]]),
      ) as unknown as JobReportRow;
      expect([key, mapper.values(narrow, 'Ana', COMPANY_ZONE, LJ)]).toEqual([key, { [key]: every[key] }]);
      const sql = jobRowsSql('', undefined, mapper.inputs);
      for (const input of mapper.inputs) expect(sql).toContain(input);
    }
    const sql = jobRowsSql('', undefined, jobValueMapper(['member', 'title']).inputs);
    expect(sql).toContain('j.destination_name');
    expect(sql).not.toMatch(/custom_fields|extra|checkins|teams_config|place_lat/);

    const calls: unknown[][] = [];
    const ctx = { ...ctxWith(fakeDb([[/FROM unnest/, [full]]], calls)), output: { keys: new Set(['title', 'status']), geometry: false } };
    const rows = await all(JOBS_REPORT.rows(ctx));
    expect(rows).toEqual([{ values: { title: 'Boiler service', status: 'started' }, geometry: null }]);
  });

  it('dayroute: each member starts from its route start (else its first stop); legs chain within a member', async () => {
    const members = [
      {
        id: 'm1',
        route_start_lat: 46.05,
        route_start_lng: 14.4,
        route_end_lat: null,
        route_end_lng: null,
        teams: [],
        travel_mode: 'car',
        teams_config: [],
      },
      {
        id: 'm2',
        route_start_lat: null,
        route_start_lng: null,
        route_end_lat: null,
        route_end_lng: null,
        teams: [],
        travel_mode: 'bicycle',
        teams_config: [],
      },
    ];
    const jobs = [
      job({ id: 'a', number: 1 }),
      job({ id: 'b', number: 2, destination_lat: null, place_lat: null, place_lng: null }),
      job({ id: 'c', number: 3, destination_lng: 14.6 }),
      job({ id: 'd', worker_id: 'm2', number: 1, destination_lng: 14.7 }),
    ];
    const rows = await all(
      DAYROUTE_REPORT.rows(
        ctxWith(
          fakeDb([
            [/FROM members m/, members],
            [/FROM unnest/, jobs],
          ]),
        ),
      ),
    );
    const info = rows.map((r) => [r.values.number, r.values.routeinfo]);
    // 0.1° of longitude at 46.05° N ≈ 7.74 km; at 40 km/h ≈ 697 s
    expect(info[0][1]).toMatch(/^7\.7\d km, 0:11:\d\d$/);
    expect(info[1]).toEqual([2, null]);
    expect(info[2][1]).toMatch(/^7\.7\d km, 0:11:\d\d$/); // from a: b has no coordinates
    expect(info[3]).toEqual([1, '0.00 km, 0:00:00']);
  });

  it('worksheet: the day sequence and travel restart per member and day', async () => {
    const jobs = [
      job({ id: 'a' }),
      job({ id: 'b', visits: [[utc(9, 30), utc(9, 45)]] }),
      job({ id: 'c', day: 20261121, visits: [[utc(9, 30), utc(9, 45)]] }),
    ];
    const rows = await all(WORKSHEET_REPORT.rows(ctxWith(fakeDb([[/FROM unnest/, jobs]]))));
    expect(rows.map((r) => [r.values.seq, r.values.travel])).toEqual([
      [1, null],
      [2, 32 * 60],
      [1, null],
    ]);
  });

  it('activities and checkins: instants of the range as parameters; counts from SQL', async () => {
    const calls: unknown[][] = [];
    const db = fakeDb([[/count\(\*\)/, [{ n: 7 }]]], calls);
    expect(await ACTIVITIES_REPORT.count!(ctxWith(db))).toBe(7);
    expect(await CHECKINS_REPORT.count!(ctxWith(db))).toBe(7);
    expect(await JOBS_REPORT.count!(ctxWith(db))).toBe(7);
    expect(calls[0]).toEqual(['c1', ['m1', 'm2'], utc(-1, 0), utc(23, 0)]);
    expect(calls[2]).toEqual(['c1', ['m1', 'm2'], 20261120, 20261120]);
  });
});

describe('activities: the lifecycle order of a job’s events', () => {
  it('created → assigned → accepted → rejected → checked in → NFC check → checked out → done (success) → done (failed)', () => {
    expect(ACTIVITY_LIFECYCLE.map((k) => ACTIVITY_EVENTS[k])).toEqual([
      'Created',
      'Assigned',
      'Accepted',
      'Rejected',
      'Checked in',
      'NFC check',
      'Checked out',
      'Done (success)',
      'Done (failed)',
    ]);
    expect(ACTIVITY_LIFECYCLE.map(lifecycleRank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // every event the report shows has its place in the lifecycle
    expect(Object.keys(ACTIVITY_EVENTS).sort()).toEqual([...ACTIVITY_LIFECYCLE].sort());
  });
});
