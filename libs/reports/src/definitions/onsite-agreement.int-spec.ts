import { Pool, PoolClient } from 'pg';
import { addDays, dayInZone, loadConfig, newId, zonedDayTimeToMs } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntJob, createIntMember, createIntPlace, insertIntRows, openIntegrationDb } from '@test/support/integration';
import { loadReportContext } from '../render/load-context';
import { PgReportDb } from '../render/pg-report-db';
import type { ReportContext, ReportDb } from '../report-definition';
import type { ReportRow } from '../report-table';
import type { ReportType } from '../report-types';
import { definitionOf } from '.';

const LJ = 'Europe/Ljubljana';
/** The range: two whole days ten and nine days ago (company days), so an open visit counts to its end. */
const D1 = addDays(dayInZone(Date.now(), LJ), -10);
const D2 = addDays(D1, 1);
const at = (day: number, hh: number, mm = 0, ss = 0) => zonedDayTimeToMs(day, hh * 60 + mm, LJ) + ss * 1000;

async function rowsOf(type: ReportType, ctx: ReportContext): Promise<Array<ReportRow['values']>> {
  const out: Array<ReportRow['values']> = [];
  for await (const r of definitionOf(type).rows(ctx)) out.push(r.values);
  return out;
}

/**
 * One fixture of visits through the four reports that count on-site time — statistics, memberonsite,
 * timeallocation, placeonsite — against PostgreSQL: the same totals everywhere, by the one rule
 * (`./onsite.ts`): a visit over the range's start counts its part inside, an open visit counts to the
 * range's end (now is later), visits outside the range count nothing.
 */
describe('on-site time: one rule in statistics, memberonsite, timeallocation and placeonsite (PostgreSQL)', () => {
  let ds: DataSource;
  let pool: Pool;
  let client: PoolClient;
  let db: ReportDb;
  let companyId: string;
  let ownerId: string;
  let ana: string;
  let depot: string;
  let yard: string;

  // on-site seconds of each visit inside the range
  const PLACE = { overStart: 90 * 60, depot: 37 * 60 + 15, yard: 5 * 60 + 30, open: 4 * 3600 };
  const JOB = { geofenced: 45 * 60, byHand: 20 * 60 };
  const placeTotal = PLACE.overStart + PLACE.depot + PLACE.yard + PLACE.open;
  const jobTotal = JOB.geofenced + JOB.byHand;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    pool = new Pool({ connectionString: loadConfig().DATABASE_URL, max: 1 });
    client = await pool.connect();
    db = new PgReportDb(client);
    ({ companyId, ownerId } = await createIntCompany(ds, { timezone: LJ, name: 'Onsite Co' }));
    ana = await createIntMember(ds, companyId, { name: 'Ana' });
    depot = await createIntPlace(ds, companyId, { name: 'Depot', lat: 46.05, lng: 14.5 });
    yard = await createIntPlace(ds, companyId, { name: 'Yard', lat: 46.06, lng: 14.51 });
    const geofenced = await createIntJob(ds, companyId, { destination_name: 'Boiler', worker_id: ana, day: D1 });
    await createIntJob(ds, companyId, { destination_name: 'Paperwork', worker_id: ana, day: D2, ts_check_in: at(D2, 8), ts_check_out: at(D2, 8, 20) });
    const visit = (place: string | null, job: string | null, inTs: number, outTs: number | null) => ({
      company_id: companyId,
      id: newId(),
      member_id: ana,
      place_id: place,
      job_id: job,
      in_ts: inTs,
      out_ts: outTs,
      duration: outTs === null ? null : outTs - inTs,
    });
    await insertIntRows(ds, 'checkins', [
      visit(depot, null, at(addDays(D1, -1), 10), at(addDays(D1, -1), 11)), // before the range: nothing
      visit(depot, null, at(addDays(D1, -1), 23), at(D1, 1, 30)), // over the range's start: 1:30:00 of it
      visit(depot, null, at(D1, 9), at(D1, 9, 37, 15)),
      visit(null, geofenced, at(D1, 10), at(D1, 10, 45)),
      visit(yard, null, at(D1, 13), at(D1, 13, 5, 30)),
      visit(yard, null, at(D2, 20), null), // open: to the range's end, 4:00:00
    ]);
  });
  afterAll(async () => {
    client.release();
    await pool.end();
    await ds.destroy();
  });

  const context = (type: ReportType, accounts: { memberIds?: string[]; placeIds?: string[] }) =>
    loadReportContext(db, {
      companyId,
      runId: '',
      memberId: ownerId,
      params: { type, format: 'xlsx', range: { from: D1, until: D2 }, memberIds: accounts.memberIds ?? [], placeIds: accounts.placeIds ?? [] },
    });

  it('the same totals in all four reports, an open visit and a visit over the range’s start included', async () => {
    const statistics = (await rowsOf('statistics', await context('statistics', { memberIds: [ana] })))[0];
    const memberonsite = await rowsOf('memberonsite', await context('memberonsite', { memberIds: [ana] }));
    const timeallocation = await rowsOf('timeallocation', await context('timeallocation', { memberIds: [ana] }));
    const placeonsite = await rowsOf('placeonsite', await context('placeonsite', { placeIds: [depot, yard] }));

    const sum = (rows: Array<ReportRow['values']>, key: string) => rows.reduce((s, r) => s + (r[key] as number), 0);
    const totals = (rows: Array<ReportRow['values']>) => rows.filter((r) => r.row === 'total');

    // place time: statistics = timeallocation = placeonsite
    expect({
      statistics: statistics.totalPlaceOnsiteTime,
      timeallocation: sum(timeallocation, 'place'),
      placeonsite: sum(totals(placeonsite), 'duration'),
    }).toEqual({ statistics: placeTotal, timeallocation: placeTotal, placeonsite: placeTotal });
    // job time: statistics = timeallocation
    expect([statistics.totalJobOnsite, sum(timeallocation, 'job')]).toEqual([jobTotal, jobTotal]);
    // all on-site time: memberonsite's total = statistics' job + place = timeallocation's job + place
    expect({
      memberonsite: totals(memberonsite)[0].duration,
      statistics: (statistics.totalJobOnsite as number) + (statistics.totalPlaceOnsiteTime as number),
      timeallocation: sum(timeallocation, 'job') + sum(timeallocation, 'place'),
    }).toEqual({ memberonsite: placeTotal + jobTotal, statistics: placeTotal + jobTotal, timeallocation: placeTotal + jobTotal });

    // the listings: each visit's on-site time, the open one flagged; totals = the sums of their rows
    expect(memberonsite.map((r) => [r.row, r.kind, r.duration, r.open])).toEqual([
      ['visit', 'place', PLACE.overStart, false],
      ['visit', 'place', PLACE.depot, false],
      ['visit', 'job', JOB.geofenced, false],
      ['visit', 'place', PLACE.yard, false],
      ['visit', 'job', JOB.byHand, false],
      ['visit', 'place', PLACE.open, true],
      ['total', null, placeTotal + jobTotal, true],
    ]);
    expect(memberonsite[0].check_in).toBe(at(addDays(D1, -1), 23)); // the real check-in, before the range
    expect(placeonsite.map((r) => [r.place, r.row, r.duration, r.visits, r.open])).toEqual([
      ['Depot', 'visit', PLACE.overStart, null, false],
      ['Depot', 'visit', PLACE.depot, null, false],
      ['Depot', 'total', PLACE.overStart + PLACE.depot, 2, false],
      ['Yard', 'visit', PLACE.yard, null, false],
      ['Yard', 'visit', PLACE.open, null, true],
      ['Yard', 'total', PLACE.yard + PLACE.open, 2, true],
    ]);
    // statistics' averages divide by the same visits
    expect(statistics.avgPlaceOnsiteTime).toBe(placeTotal / 4);
    expect(statistics.avgJobOnsite).toBe(jobTotal / 2);
    // timeallocation by day: the open visit's 4 h on D2, the part over the start on D1
    expect(timeallocation.map((r) => [r.date, r.job, r.place])).toEqual([
      [D1, JOB.geofenced, PLACE.overStart + PLACE.depot + PLACE.yard],
      [D2, JOB.byHand, PLACE.open],
    ]);
  });

  it('the counts (pdf limit) equal the rows', async () => {
    const m = await context('memberonsite', { memberIds: [ana] });
    expect(await definitionOf('memberonsite').count!(m)).toBe(7);
    const p = await context('placeonsite', { placeIds: [depot, yard] });
    expect(await definitionOf('placeonsite').count!(p)).toBe(6);
  });
});
