import { loadConfig, ReplicaReads, ShareTokensRepository } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import type { Fix } from '../fix';
import { FixConsumerRegistry } from '../fix-consumers.registry';
import { IngestRepository } from '../ingest/ingest.repository';
import { monthStart } from '../ingest/partitions';
import { readCompanyStopMinutes } from './companies-stop-minutes.read';
import { TrackBuilder } from './track-builder.service';
import { TracksRepository } from './tracks.repository';

const MIN = 60_000;
/** ~500 m north per `i`. */
const north = (t0: number, minute: number, step: number): Fix => ({
  ts: t0 + minute * MIN,
  lat: 46 + (step * 500) / 111_132,
  lng: 14.5,
  acc: 5,
  dir: null,
  spd: null,
  elv: null,
  bat: null,
});

/**
 * The track builder's stop threshold (CONTRACTS.md "Wave 3: reports and the demo"): the company's
 * `stop_minutes`, else the server's TRACK_STOP_MINUTES (5 in the tests' config), against PostgreSQL.
 * The same fixes — a 10-min drive, an 8-min stay, a 10-min drive — are two tracks under 5 min and one
 * under 10 min.
 */
describe('TrackBuilder: the company’s stop_minutes (PostgreSQL)', () => {
  let ds: DataSource;
  let builder: TrackBuilder;
  let ingest: IngestRepository;
  const T = Date.now() - 3 * 3_600_000;
  const fixes: Fix[] = [];
  for (let i = 0; i <= 10; i++) fixes.push(north(T, i, i)); // drive
  for (let i = 11; i <= 18; i++) fixes.push(north(T, i, 10)); // stay 8 min at step 10
  for (let i = 19; i <= 28; i++) fixes.push(north(T, i, i - 8)); // drive on

  beforeAll(async () => {
    ds = await openIntegrationDb();
    const config = loadConfig();
    expect(config.TRACK_STOP_MINUTES).toBe(5);
    builder = new TrackBuilder(
      new TracksRepository(ds, new ShareTokensRepository(ds), new ReplicaReads(ds, loadConfig())),
      new FixConsumerRegistry(),
      config,
    );
    ingest = new IngestRepository(ds);
    await ingest.ensurePartitions([monthStart(T), monthStart(monthStart(T) - 1)]);
  });
  afterAll(() => ds.destroy());

  async function tracksOf(stopMinutes: number | null): Promise<Array<[number, number]>> {
    const { companyId } = await createIntCompany(ds);
    await ds.query(`UPDATE companies SET stop_minutes = $2 WHERE id = $1`, [companyId, stopMinutes]);
    expect(await readCompanyStopMinutes(ds, companyId)).toBe(stopMinutes);
    const member = await createIntMember(ds, companyId);
    await ingest.insertFixes(ds, companyId, member, Date.now(), fixes);
    await builder.rebuild(companyId, member, fixes[0].ts);
    const rows: Array<{ s: number; e: number }> = await ds.query(
      `SELECT start_ts::float8 AS s, end_ts::float8 AS e FROM tracks WHERE company_id = $1 AND member_id = $2 ORDER BY start_ts`,
      [companyId, member],
    );
    return rows.map((r) => [(r.s - T) / MIN, (r.e - T) / MIN]);
  }

  it('no stop_minutes of its own: TRACK_STOP_MINUTES (5) — the 8-min stay ends a track', async () => {
    expect(await tracksOf(null)).toEqual([
      [0, 10],
      [18, 28],
    ]);
  });

  it('stop_minutes 10: the 8-min stay is no stop — one track', async () => {
    expect(await tracksOf(10)).toEqual([[0, 28]]);
  });

  it('stop_minutes 8: a stay of exactly 8 min is a stop again', async () => {
    expect(await tracksOf(8)).toEqual([
      [0, 10],
      [18, 28],
    ]);
  });

  it('an unknown company has none', async () => {
    expect(await readCompanyStopMinutes(ds, 'NOPE')).toBeNull();
  });
});
