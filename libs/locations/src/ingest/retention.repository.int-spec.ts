import { loadConfig, ReplicaReads, ShareTokensRepository } from '@app/core';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { GeofenceRepository } from '../geofence/geofence.repository';
import { trackStats } from '../tracks/stats';
import { splitRules } from '../tracks/split';
import { TracksRepository } from '../tracks/tracks.repository';
import type { Fix } from '../fix';
import { IngestRepository } from './ingest.repository';
import { partitionName } from './partitions';
import { RetentionRepository } from './retention.repository';

/**
 * The retention is platform-wide (not scoped by company): this spec's history lies in the year 2000,
 * older than anything another spec writes, and only its own year-2000 partition is dropped.
 */
describe('RetentionRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: RetentionRepository;
  let ingest: IngestRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new RetentionRepository(ds, new ShareTokensRepository(ds));
    ingest = new IngestRepository(ds);
  });
  afterAll(() => ds.destroy());

  it("lists and drops location_fixes' partitions", async () => {
    const month = Date.UTC(2000, 2, 1);
    const [name] = await ingest.ensurePartitions([month]);
    expect(name).toBe(partitionName(month));
    expect(await repo.fixPartitions()).toContain(name);
    await repo.dropFixPartition(name);
    expect(await repo.fixPartitions()).not.toContain(name);
    await repo.dropFixPartition(name); // already gone: nothing
  });

  it('deletes the history older than the cutoff: closed tracks with their shares, check-ins, clock events', async () => {
    const { companyId: c } = await createIntCompany(ds);
    const m = await createIntMember(ds, c);
    const old = Date.UTC(2000, 5, 1);
    const cutoff = Date.UTC(2000, 6, 1);
    const fixes = (t0: number): Fix[] => [0, 1].map((i) => ({ ts: t0 + i * 60_000, lat: 46 + i / 1000, lng: 14, acc: 5, dir: null, spd: null, elv: null, bat: null }));
    const tracks = new TracksRepository(ds, new ShareTokensRepository(ds), new ReplicaReads(ds, loadConfig()));
    const track = (t0: number, open: boolean) =>
      tracks.insertTrack(
        ds,
        c,
        m,
        randomBytes(16).toString('hex'),
        { stats: trackStats(fixes(t0), splitRules(5)), path: null, open, state: null },
        t0,
      );
    await track(old, false); // deleted
    await track(old + 1000, true); // open: kept
    await track(cutoff, false); // not older: kept
    const geofence = new GeofenceRepository(ds);
    await geofence.openCheckIn(ds, c, m, { placeId: 'P' }, old); // open, began before: deleted
    await geofence.openCheckIn(ds, c, m, { placeId: 'Q' }, old);
    await geofence.closeCheckIn(ds, c, m, { placeId: 'Q' }, old, cutoff + 1); // ended after: kept
    await ingest.insertClockEvent(ds, { companyId: c, memberId: m, ts: old, tracking: true, receivedAt: old });
    await ingest.insertClockEvent(ds, { companyId: c, memberId: m, ts: cutoff, tracking: false, receivedAt: cutoff });

    const deleted = await repo.deleteHistory(cutoff);
    expect(deleted.tracks).toBeGreaterThanOrEqual(1);
    expect(deleted.trackShares).toBeGreaterThanOrEqual(1);
    expect(deleted.checkins).toBeGreaterThanOrEqual(1);
    expect(deleted.clockEvents).toBeGreaterThanOrEqual(1);
    const left = async (sql: string) => (await ds.query(sql, [c, m])).map((r: { v: string }) => Number(r.v));
    expect(await left(`SELECT start_ts AS v FROM tracks WHERE company_id = $1 AND member_id = $2 ORDER BY start_ts`)).toEqual([old + 1000, cutoff]);
    expect(await left(`SELECT count(*) AS v FROM track_shares s JOIN tracks t ON t.id = s.track_id WHERE t.company_id = $1 AND t.member_id = $2`)).toEqual([2]);
    // the deleted share's token left the global lookup with it; the kept ones stay
    expect(await left(`SELECT count(*) AS v FROM share_tokens WHERE company_id = $1 AND kind = 'track' AND $2::text IS NOT NULL`)).toEqual([2]);
    expect(await left(`SELECT out_ts AS v FROM checkins WHERE company_id = $1 AND member_id = $2`)).toEqual([cutoff + 1]);
    expect(await left(`SELECT ts AS v FROM clock_events WHERE company_id = $1 AND member_id = $2`)).toEqual([cutoff]);
    expect(await repo.deleteHistory(cutoff)).toMatchObject({ tracks: 0, trackShares: 0 });
  });
});
