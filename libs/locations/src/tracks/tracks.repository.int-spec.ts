import { loadConfig, ReplicaReads, SHARE_TOKEN_TAKEN, ShareTokensRepository } from '@app/core';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import type { Fix } from '../fix';
import { IngestRepository } from '../ingest/ingest.repository';
import { monthStart } from '../ingest/partitions';
import { splitRules } from './split';
import { trackStats } from './stats';
import { TrackWrite } from './track-rows';
import { TracksRepository } from './tracks.repository';

const MIN = 60_000;
const rules = splitRules(5);
/** A fix `i` minutes after `t0`, ~100 m north per minute. */
const at = (t0: number, i: number, more: Partial<Fix> = {}): Fix => ({
  ts: t0 + i * MIN,
  lat: 46 + (i * 100) / 111_132,
  lng: 14.5,
  acc: 5,
  dir: null,
  spd: null,
  elv: 300 + i,
  bat: null,
  ...more,
});
const write = (fixes: Fix[], open = false): TrackWrite => ({
  stats: trackStats(fixes, rules),
  path: JSON.stringify({ type: 'LineString', coordinates: fixes.map((f) => [f.lng, f.lat]) }),
  open,
  state: null,
});

describe('TracksRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: TracksRepository;
  let ingest: IngestRepository;
  let a: string;
  let b: string;
  const T = Date.now() - 2 * 3_600_000;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new TracksRepository(ds, new ShareTokensRepository(ds), new ReplicaReads(ds, loadConfig()));
    ingest = new IngestRepository(ds);
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
    await ingest.ensurePartitions([monthStart(T), monthStart(monthStart(T) - 1)]);
  });
  afterAll(() => ds.destroy());

  it("reads a member's fixes, counts and the fix before, within its company", async () => {
    const m = await createIntMember(ds, a);
    const fixes = [at(T, 0), at(T, 1, { acc: 500 }), at(T, 2)];
    await ingest.insertFixes(ds, a, m, T, fixes);
    await ingest.insertFixes(ds, b, m, T, [at(T, 5)]); // the same member id in another company
    expect(await repo.fixesFrom(ds, a, m, T + MIN)).toEqual(fixes.slice(1));
    expect(await repo.countFixes(ds, a, m, T, T + 2 * MIN)).toBe(3);
    expect(await repo.countFixes(ds, a, m, T + 1, T + 2 * MIN)).toBe(2);
    expect(await repo.fixBefore(ds, a, m, T + 2 * MIN)).toBe(T + MIN);
    expect(await repo.fixBefore(ds, a, m, T)).toBeNull();
    expect(await repo.fixBefore(ds, b, m, T + 3 * MIN)).toBeNull();
  });

  it('reads tracking-off clock events, from a ts and between two', async () => {
    const m = await createIntMember(ds, a);
    for (const [ts, tracking] of [
      [T, false],
      [T + MIN, true],
      [T + 2 * MIN, false],
    ] as const)
      await ingest.insertClockEvent(ds, { companyId: a, memberId: m, ts, tracking, receivedAt: ts });
    await ingest.insertClockEvent(ds, { companyId: b, memberId: m, ts: T + 3 * MIN, tracking: false, receivedAt: T });
    expect(await repo.trackingOffs(ds, a, m, T)).toEqual([T, T + 2 * MIN]);
    expect(await repo.trackingOffs(ds, a, m, T + 1)).toEqual([T + 2 * MIN]);
    expect(await repo.trackingOffBetween(ds, a, m, T + 1, T + 2 * MIN)).toBe(false);
    expect(await repo.trackingOffBetween(ds, a, m, T + 1, T + 2 * MIN + 1)).toBe(true);
    expect(await repo.trackingOffBetween(ds, b, m, T, T + 2 * MIN + 1)).toBe(false);
  });

  it('inserts, reads, updates, appends to and deletes tracks with their share rows, within the company', async () => {
    const m = await createIntMember(ds, a);
    const first = [at(T, 0), at(T, 1), at(T, 2)];
    const second = [at(T, 30), at(T, 31)];
    const t1 = randomBytes(16).toString('hex');
    const t2 = randomBytes(16).toString('hex');
    await ds.transaction(async (db) => {
      await repo.lockMember(db, a, m);
      await repo.insertTrack(db, a, m, t1, write(first), T);
      await repo.insertTrack(db, a, m, t2, write(second, true), T);
    });
    // the same member id in another company: never read or changed through company a
    await repo.insertTrack(ds, b, m, randomBytes(16).toString('hex'), write([at(T, 40), at(T, 41)], true), T);

    const stored = await repo.storedFrom(ds, a, m, -1);
    expect(stored.map((t) => [t.shareToken, t.startTs, t.endTs, t.open])).toEqual([
      [t1, T, T + 2 * MIN, false],
      [t2, T + 30 * MIN, T + 31 * MIN, true],
    ]);
    expect(stored[0]).toMatchObject(trackStats(first, rules));
    expect(await repo.startsUpTo(ds, a, m, T + 35 * MIN)).toEqual([T + 30 * MIN, T]);
    expect(await repo.startsUpTo(ds, a, m, T + MIN)).toEqual([T]);
    const { newest, marker } = await repo.newestTrack(ds, a, m);
    expect(newest).toEqual({ id: String(stored[1].id), build_state: null, open: true });
    expect(marker).toEqual({ lateFixes: null, latestTs: null }); // no member_locations row

    // gettracks' overlap [from, until), the share link
    expect((await repo.forMembers(a, [m], T + 2 * MIN, T + 30 * MIN)).map((t) => t.shareToken)).toEqual([t1]);
    expect((await repo.forMembers(a, [m], T + 2 * MIN + 1, T + 30 * MIN + 1)).map((t) => t.shareToken)).toEqual([t2]);
    expect(await repo.forMembers(a, [], 0, T * 2)).toEqual([]);
    expect((await repo.forMembers(b, [m], 0, T * 2)).map((t) => t.startTs)).toEqual([T + 40 * MIN]);
    const share = (await repo.shareByToken(t1))!;
    expect(share).toMatchObject({ companyId: a, trackId: stored[0].id });
    expect((await repo.track(share.companyId, share.trackId))?.shareToken).toBe(t1);
    expect(await repo.track(b, share.trackId)).toBeNull();

    // updates: the whole track, then an append to the open one (polylines grow, the path gains points)
    await repo.updateTrack(ds, a, stored[0].id, write([...first, at(T, 3)]), T + 1);
    await repo.updateTrack(ds, b, stored[0].id, write([at(T, 9), at(T, 10)]), T + 1); // not b's
    const grown = trackStats([...second, at(T, 32)], rules);
    await repo.appendToTrack(ds, a, String(stored[1].id), {
      stats: { ...grown, shortEncoded: '', courseEncoded: '' },
      open: true,
      state: null,
      now: T + 2,
      newPoints: JSON.stringify({ type: 'Point', coordinates: [at(T, 32).lng, at(T, 32).lat] }),
    });
    const after = await repo.storedFrom(ds, a, m, -1);
    expect(after.map((t) => [t.endTs, t.waypointCount])).toEqual([
      [T + 3 * MIN, 4],
      [T + 32 * MIN, grown.waypointCount],
    ]);
    expect(after[1].shortEncoded).toBe(stored[1].shortEncoded); // appended nothing to the polylines
    const [{ n }] = await ds.query(`SELECT ST_NPoints(path::geometry) AS n FROM tracks WHERE company_id = $1 AND id = $2`, [
      a,
      stored[1].id,
    ]);
    expect(n).toBe(3);

    await repo.deleteTracks(ds, b, [stored[0].id]); // not b's
    await repo.deleteTracks(ds, a, [stored[0].id]);
    expect((await repo.storedFrom(ds, a, m, -1)).map((t) => t.shareToken)).toEqual([t2]);
    expect(await repo.shareByToken(t1)).toBeNull();
    // the tokens' global lookup rows came and went with their shares
    expect(
      await ds.query(`SELECT token, company_id, kind FROM share_tokens WHERE token = ANY($1::varchar[]) ORDER BY token`, [[t1, t2]]),
    ).toEqual([{ token: t2, company_id: a, kind: 'track' }]);
    expect((await repo.storedFrom(ds, b, m, -1)).map((t) => t.startTs)).toEqual([T + 40 * MIN]);
  });

  it("reads the newest track's late-fix marker from member_locations, and a shared track's fixes (acc ≤ the limit or unknown)", async () => {
    const m = await createIntMember(ds, a);
    const fixes = [at(T, 0), at(T, 1, { acc: 150 }), at(T, 2, { acc: null })];
    await ingest.insertFixes(ds, a, m, T, fixes);
    await ingest.ingestMembers([{ companyId: a, member: m, fixes: [at(T, 3)], source: 'app', now: T }]);
    const token = randomBytes(16).toString('hex');
    await repo.insertTrack(ds, a, m, token, write(fixes), T);
    expect((await repo.newestTrack(ds, a, m)).marker).toEqual({ lateFixes: 0, latestTs: T + 3 * MIN });
    expect(await repo.newestTrack(ds, b, m)).toEqual({ newest: null, marker: { lateFixes: null, latestTs: null } });
    const track = (await repo.track(a, (await repo.shareByToken(token))!.trackId))!;
    expect(await repo.trackFixes(track, rules.maxAccuracyM)).toEqual([
      { ts: T, lat: fixes[0].lat, lng: 14.5, elv: 300 },
      { ts: T + 2 * MIN, lat: fixes[2].lat, lng: 14.5, elv: 302 },
    ]);
  });

  it("writes a track, its share and the token's lookup row together: a token already issued (any company) leaves none of them", async () => {
    const m = await createIntMember(ds, a);
    const token = randomBytes(16).toString('hex');
    await repo.insertTrack(ds, b, m, token, write([at(T, 50), at(T, 51)]), T);
    const count = async () =>
      (await ds.query(`SELECT count(*)::int AS n FROM tracks WHERE company_id = $1 AND member_id = $2`, [a, m]))[0].n as number;
    await expect(
      ds.transaction(async (db) => {
        await repo.insertTrack(db, a, m, token, write([at(T, 60), at(T, 61)]), T);
      }),
    ).rejects.toMatchObject({ driverError: { code: '23505', constraint: SHARE_TOKEN_TAKEN } });
    expect(await count()).toBe(0);
    expect(await ds.query(`SELECT company_id FROM track_shares WHERE token = $1`, [token])).toEqual([{ company_id: b }]);
    expect((await repo.shareByToken(token))?.companyId).toBe(b);
  });
});
