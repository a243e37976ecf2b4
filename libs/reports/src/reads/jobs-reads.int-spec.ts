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
import { loadReportContext } from '../render/load-context';
import { PgReportDb } from '../render/pg-report-db';
import type { ReportDb } from '../report-definition';
import { countActivities, readActivities } from './jobs-activities.read';
import { countJobRows, countWorkedJobRows, readJobFacts, readJobRowBatches, readJobRows, readWorkedJobRows } from './jobs-rows.read';
import { countCheckins, readCheckins } from './locations-checkins.read';
import { readMemberRows } from './members-list.read';
import { readReportCompany, readReportMembers, readReportPlaces, readReportRequester } from './members-report-context.read';
import { ReportRequestRead } from './members-report-request.read';
import { readRouteSettings } from './members-route-settings.read';
import { readPlaceRows } from './places-list.read';
import { countPlaceVisits, readPlaceVisits } from './places-onsite.read';

const D = 20261120;
const DAY0 = Date.UTC(2026, 10, 20);
const at = (h: number, m = 0) => DAY0 + (h * 60 + m) * 60_000;

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

/**
 * The report read models over jobs, members and places against PostgreSQL (through the threads'
 * `PgReportDb`): each read's rows for a small fixture, and its scoping — another company's jobs,
 * members, places and check-ins never appear, even when their ids are asked for.
 */
describe('report reads of jobs, members and places (PostgreSQL)', () => {
  let ds: DataSource;
  let pool: Pool;
  let client: PoolClient;
  let db: ReportDb;
  let a: string;
  let owner: string;
  let ana: string;
  let bor: string;
  let depot: string;
  let gone: string;
  let jobs: Record<string, string>;
  let b: string;
  let stranger: string;
  let theirPlace: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    pool = new Pool({ connectionString: loadConfig().DATABASE_URL, max: 1 });
    client = await pool.connect();
    db = new PgReportDb(client);
    const ca = await createIntCompany(ds, { name: 'Acme', timezone: 'UTC' });
    a = ca.companyId;
    owner = ca.ownerId;
    await ds.query(`UPDATE companies SET teams_config = $2::jsonb WHERE id = $1`, [a, JSON.stringify([{ id: 1, name: 'North' }])]);
    ana = await createIntMember(ds, a, { name: 'Ana', teams: [1] });
    bor = await createIntMember(ds, a, { name: 'Bor' });
    await ds.query(`UPDATE members SET timezone = 'America/New_York', travel_mode = 'bicycle' WHERE id = $1`, [bor]);
    depot = await createIntPlace(ds, a, { name: 'Depot', lat: 46.05, lng: 14.5, teams: [1], creatorId: owner, address: 'Trg 1' });
    gone = await createIntPlace(ds, a, { name: 'Gone', deletedAt: 1 });
    b = (await createIntCompany(ds)).companyId;
    stranger = await createIntMember(ds, b, { name: 'Stranger' });
    theirPlace = await createIntPlace(ds, b, { name: 'Theirs', lat: 46.05, lng: 14.5 });

    const list: Array<[string, Record<string, unknown>]> = [
      [a, { destination_name: 'second', worker_id: ana, day: D, number: 2, place_uid: depot, team_id: 1 }],
      [a, { destination_name: 'first', worker_id: ana, day: D, number: 1, ts_check_in: at(9), ts_check_out: at(9, 30) }],
      [a, { destination_name: 'unnumbered', worker_id: ana, day: D, number: 0, ts_done_success: at(8) }],
      [a, { destination_name: 'bor', worker_id: bor, day: D, destination_lat: 46.1, destination_lng: 14.6 }],
      [a, { destination_name: 'next-day', worker_id: ana, day: D + 1 }],
      [a, { destination_name: 'template', worker_id: ana, day: D, is_template: true }],
      [b, { destination_name: 'theirs', worker_id: stranger, day: D }],
    ];
    jobs = {};
    for (const [companyId, columns] of list) {
      jobs[columns.destination_name as string] = await createIntJob(ds, companyId, { ts_created: at(6), created_by: owner, ...columns });
    }
    await insertIntRows(ds, 'checkins', [
      { company_id: a, id: newId(), member_id: ana, job_id: jobs.second, in_ts: at(10), out_ts: at(10, 20), duration: 20 * 60_000 },
      { company_id: a, id: newId(), member_id: ana, place_id: depot, in_ts: at(12), out_ts: null, duration: null },
      { company_id: b, id: newId(), member_id: stranger, place_id: theirPlace, in_ts: at(12), out_ts: at(13), duration: 3_600_000 },
      // place visits of Bor's at the depot: one over the range's start (belongs to it), one before it (does not)
      { company_id: a, id: newId(), member_id: bor, place_id: depot, in_ts: at(-2), out_ts: at(1), duration: 3 * 3_600_000 },
      { company_id: a, id: newId(), member_id: bor, place_id: depot, in_ts: at(-4), out_ts: at(-3), duration: 3_600_000 },
    ]);
  });
  afterAll(async () => {
    client.release();
    await pool.end();
    await ds.destroy();
  });

  const q = () => ({ companyId: a, memberIds: [ana, bor, stranger], from: D, until: D });

  it('jobs-rows: the members’ jobs of the days in route order with place, team and visits; templates and other companies never', async () => {
    const rows = await all(readJobRows(db, q()));
    expect(rows.map((r) => r.destination_name)).toEqual(['first', 'second', 'unnumbered', 'bor']);
    const second = rows[1];
    expect(second).toMatchObject({
      place_name: 'Depot',
      team_name: 'North',
      place_lat: 46.05,
      place_lng: 14.5,
      visits: [[at(10), at(10, 20)]],
    });
    expect(rows[0]).toMatchObject({ ts_check_in: at(9), visits: null, team_name: null, created_at: expect.any(Number) });
    expect(await countJobRows(db, q())).toBe(4);
    expect(await countJobRows(db, { ...q(), until: D + 1 })).toBe(5);
    const narrow = (await all(readJobRowBatches(db, q(), ['destination_name']))).flat();
    expect(narrow.map((r) => Object.keys(r).sort())).toEqual(Array(4).fill(['destination_name', 'id', 'worker_id']));
  });

  it('jobs-rows: `extra` holds the job’s worker-input values with the company’s labels (editcompany)', async () => {
    await ds.query(`UPDATE companies SET extra_labels = '{"extra_number_1_key": "Hours"}' WHERE id = $1`, [a]);
    await ds.query(`UPDATE jobs SET extra = '{"extra_number_1_val": 2.5, "extra_text_2_val": "ok"}' WHERE id = $1`, [jobs.bor]);
    try {
      const rows = (await all(readJobRowBatches(db, q(), ['destination_name', 'extra']))).flat();
      const byName = new Map(rows.map((r) => [r.destination_name, r.extra]));
      expect(byName.get('bor')).toEqual({ extra_number_1_key: 'Hours', extra_number_1_val: 2.5, extra_text_2_val: 'ok' });
      expect(byName.get('first')).toEqual({ extra_number_1_key: 'Hours' });
    } finally {
      await ds.query(`UPDATE companies SET extra_labels = '{}' WHERE id = $1`, [a]);
      await ds.query(`UPDATE jobs SET extra = '{}' WHERE id = $1`, [jobs.bor]);
    }
  });

  it('jobs-rows: worked jobs in the order they were worked; a member’s job facts of the days', async () => {
    const worked = await all(readWorkedJobRows(db, q()));
    expect(worked.map((r) => r.destination_name)).toEqual(['unnumbered', 'first', 'second']);
    expect(await countWorkedJobRows(db, q())).toBe(3);
    const facts = await all(readJobFacts(db, a, ana, D, D));
    expect(facts).toHaveLength(3);
    expect(await all(readJobFacts(db, a, stranger, D, D))).toEqual([]);
  });

  it('jobs-activities: the jobs’ progress events and the check-in rows’ visits, time-ordered; counted alike', async () => {
    const range = { companyId: a, memberIds: [ana, stranger], fromMs: DAY0, untilMs: DAY0 + 86_400_000 };
    const events = await all(readActivities(db, range));
    expect(events.map((e) => [e.kind, e.ts])).toEqual([
      ['created', at(6)],
      ['created', at(6)],
      ['created', at(6)],
      ['created', at(6)],
      ['done_success', at(8)],
      ['checked_in', at(9)],
      ['checked_out', at(9, 30)],
      ['checked_in', at(10)],
      ['checked_out', at(10, 20)],
    ]);
    expect(events.find((e) => e.kind === 'checked_out' && e.ts === at(10, 20))).toMatchObject({
      job_id: jobs.second,
      duration: 1200,
      place_name: 'Depot',
    });
    expect(events.every((e) => e.member_id === ana)).toBe(true);
    expect(await countActivities(db, range)).toBe(events.length);
  });

  it('jobs-activities: events of one instant in lifecycle order (created → assigned → … → checked out → done), across jobs and members', async () => {
    const c = (await createIntCompany(ds)).companyId;
    const m1 = await createIntMember(ds, c, { name: 'One' });
    const m2 = await createIntMember(ds, c, { name: 'Two' });
    const S = at(12);
    // X: a whole life before S, checked out by hand and done at S; Y and Z created at S (Z assigned too)
    const x = await createIntJob(ds, c, {
      destination_name: 'X', worker_id: m1, day: D, ts_created: at(8), ts_assigned: at(8), ts_accepted: at(9),
      ts_check_in: at(10), ts_check_out: S, ts_done_success: S,
    });
    const y = await createIntJob(ds, c, { destination_name: 'Y', worker_id: m2, day: D, ts_created: S });
    const z = await createIntJob(ds, c, { destination_name: 'Z', worker_id: m1, day: D, ts_created: S, ts_assigned: S });
    const events = await all(readActivities(db, { companyId: c, memberIds: [m1, m2], fromMs: DAY0, untilMs: DAY0 + 86_400_000 }));
    expect(events.map((e) => [e.ts, e.kind, e.job_id])).toEqual([
      [at(8), 'created', x],
      [at(8), 'assigned', x],
      [at(9), 'accepted', x],
      [at(10), 'checked_in', x],
      [S, 'created', z], // One before Two (request order) within a kind
      [S, 'created', y],
      [S, 'assigned', z],
      [S, 'checked_out', x],
      [S, 'done_success', x],
    ]);
  });

  it('locations-checkins: the members’ check-ins with their place or job, by member then time; counted alike', async () => {
    const range = { companyId: a, memberIds: [ana, stranger], fromMs: DAY0, untilMs: DAY0 + 86_400_000 };
    const rows = await all(readCheckins(db, range));
    expect(rows.map((r) => [r.job_name, r.place_name, r.in_ts, r.out_ts])).toEqual([
      ['second', null, at(10), at(10, 20)],
      [null, 'Depot', at(12), null],
    ]);
    expect(rows[0]).toMatchObject({ job_place_lat: 46.05, job_place_lng: 14.5, duration: 1_200_000 });
    expect(rows[1]).toMatchObject({ place_address: 'Trg 1', place_lat: 46.05 });
    expect(await countCheckins(db, range)).toBe(2);
  });

  it('members-list and route settings: the named members in request order, their teams; another company’s never', async () => {
    const rows = await all(readMemberRows(db, a, [bor, stranger, ana]));
    expect(rows.map((r) => [r.name, r.teams, r.tracking_status])).toEqual([
      ['Bor', null, null],
      ['Ana', 'North', null],
    ]);
    const settings = await readRouteSettings(db, a, [ana, bor, stranger]);
    expect(Object.fromEntries(settings.map((s) => [s.id, [s.travel_mode, s.teams_config]]))).toEqual({
      [ana]: [expect.any(String), [{ id: 1, name: 'North' }]],
      [bor]: ['bicycle', [{ id: 1, name: 'North' }]],
    });
  });

  it('places-list: the named places in request order, deleted ones too, with teams and creator; another company’s never', async () => {
    const rows = await all(readPlaceRows(db, a, [gone, theirPlace, depot]));
    expect(rows.map((r) => [r.name, r.teams, r.creator, r.lat])).toEqual([
      ['Gone', null, null, null],
      ['Depot', 'North', 'Owner', 46.05],
    ]);
  });

  it('places-onsite: each named place with its place check-ins belonging to the range (none: one empty row); counted with a total per place', async () => {
    const rows = await all(readPlaceVisits(db, a, [depot, gone, theirPlace], DAY0, DAY0 + 86_400_000, Date.now()));
    expect(rows.map((r) => [r.place_name, r.member_id, r.in_ts === null ? null : Number(r.in_ts)])).toEqual([
      ['Depot', bor, at(-2)], // began before the range, ended in it
      ['Depot', ana, at(12)], // open
      ['Gone', null, null],
    ]);
    expect(await countPlaceVisits(db, a, [depot, gone], DAY0, DAY0 + 86_400_000, Date.now())).toBe(4);
    // a range after now: the open visit (counted up to now) does not reach it
    expect(await all(readPlaceVisits(db, a, [depot], DAY0 + 86_400_000, DAY0 + 2 * 86_400_000, DAY0 + 86_400_000 - 1))).toEqual([
      expect.objectContaining({ place_name: 'Depot', in_ts: null }),
    ]);
  });

  it('report context: the company, the requester, the named members (their zone, else the company’s) and places', async () => {
    expect(await readReportCompany(db, a)).toEqual({ name: 'Acme', timezone: 'UTC', stop_minutes: null });
    expect(await readReportCompany(db, newId())).toBeUndefined();
    expect(await readReportRequester(db, a, owner)).toMatchObject({ name: 'Owner' });
    expect(await readReportRequester(db, b, owner)).toBeUndefined();
    const members = await readReportMembers(db, a, [ana, bor, stranger], 'Europe/Paris');
    expect(members.map((m) => [m.name, m.timezone]).sort()).toEqual([
      ['Ana', 'Europe/Paris'],
      ['Bor', 'America/New_York'],
    ]);
    expect((await readReportPlaces(db, a, [depot, gone, theirPlace])).map((p) => p.name).sort()).toEqual(['Depot', 'Gone']);
  });

  it('report context: the stop threshold is the request’s stopMinutes, else the company’s stop_minutes, else TRACK_STOP_MINUTES', async () => {
    const job = (stopMinutes?: number) => ({
      companyId: a,
      runId: '',
      memberId: owner,
      params: { type: 'stopsreport' as const, format: 'csv' as const, range: { from: D, until: D }, memberIds: [ana], placeIds: [], ...(stopMinutes ? { stopMinutes } : {}) },
    });
    expect((await loadReportContext(db, job())).stopMinutes).toBe(loadConfig().TRACK_STOP_MINUTES);
    await ds.query(`UPDATE companies SET stop_minutes = 12 WHERE id = $1`, [a]);
    try {
      expect(await readReportCompany(db, a)).toMatchObject({ stop_minutes: 12 });
      expect((await loadReportContext(db, job())).stopMinutes).toBe(12);
      expect((await loadReportContext(db, job(30))).stopMinutes).toBe(30);
      expect((await loadReportContext(db, job())).company).toEqual({ name: 'Acme', timezone: 'UTC' });
    } finally {
      await ds.query(`UPDATE companies SET stop_minutes = NULL WHERE id = $1`, [a]);
    }
  });

  it('report request: members by id or username (case-insensitive), live places only, the pdf count by the type’s own', async () => {
    const reads = new ReportRequestRead(ds);
    const [anaRow] = await ds.query(`SELECT username FROM members WHERE id = $1`, [ana]);
    const named = await reads.membersNamed(a, [bor, (anaRow.username as string).toUpperCase(), stranger]);
    expect(named.map((m) => m.id).sort()).toEqual([ana, bor].sort());
    expect(named.find((m) => m.id === ana)!.username).toBe((anaRow.username as string).toLowerCase());
    expect(await reads.livePlacesNamed(a, [depot, gone, theirPlace])).toEqual([depot]);
    const job = { companyId: a, runId: '', memberId: owner };
    const range = { from: D, until: D };
    expect(await reads.countRows({ ...job, params: { type: 'jobs', format: 'pdf', range, memberIds: [ana, bor], placeIds: [] } })).toBe(4);
    expect(
      await reads.countRows({ ...job, params: { type: 'stopsreport', format: 'pdf', range, memberIds: [ana], placeIds: [] } }),
    ).toBeNull();
  });
});
