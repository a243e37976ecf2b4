import { AppConfig } from '@app/core';
import { LocateSnapshots, LocationRecord, MembersLocateRead, selectMembers } from '@app/locations';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { action, createCompany, createMember, startApi, TestApi, TestCompany } from '../support/api';

/**
 * `locate` answers from a per-company snapshot brought up to date by the rows whose `xmin` is not
 * older than its horizon (docs/locate.md, *The snapshot*). These tests hold it to the rule "an answer
 * holds every write committed before the call": after each kind of write — through the API and by
 * raw SQL, including a transaction open across a refresh — the answer over HTTP must equal a whole
 * read made afresh (a new `LocateSnapshots`), while the api's own snapshot is only brought up to date
 * (its whole reads are counted).
 */

const TEAMS = [
  { id: 1, name: 'North' },
  { id: 2, name: 'South' },
];

describe('locate snapshot', () => {
  let api: TestApi;
  let db: DataSource;
  let snapshots: LocateSnapshots;
  let company: TestCompany;
  let raw: Client;

  const locateHttp = async (data: Record<string, unknown> = { teams: true }): Promise<LocationRecord[]> => {
    const res = await action<{ accounts: LocationRecord[] }>(api, 'locate', data, { key: company.key });
    expect(res.http).toBe(200);
    expect(res.body.status).toBe(0);
    return res.body.accounts;
  };

  /** What a whole read made now answers an administrator for `teams: true` (no address, no details). */
  const wholeRead = async (): Promise<LocationRecord[]> => {
    const fresh = new LocateSnapshots(new MembersLocateRead(db), api.app.get(AppConfig));
    const snapshot = (await fresh.current(company.companyUid))!;
    const admin = { id: company.ownerUid, role: 'administrator' as const, teams: [], isOwner: true };
    return selectMembers(snapshot, { accounts: [], teams: 'all' }, admin).map((m) => snapshot.record(m, false));
  };

  /** The HTTP answer equals a fresh whole read, and the api did not read whole to give it. */
  const expectCurrent = async (): Promise<LocationRecord[]> => {
    const before = snapshots.stats.fullReads;
    const answer = await locateHttp();
    expect(snapshots.stats.fullReads).toBe(before);
    expect(answer).toEqual(await wholeRead());
    return answer;
  };

  const byUid = (records: LocationRecord[], uid: string) => records.find((r) => r.uid === uid);

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    snapshots = api.app.get(LocateSnapshots);
    company = await createCompany(api);
    expect((await action(api, 'editcompany', { teams_config: TEAMS }, { key: company.key })).body.status).toBe(0);
    raw = new Client({ connectionString: process.env.DATABASE_URL });
    await raw.connect();
  });

  afterAll(async () => {
    await raw?.end();
    await api?.close();
  });

  it('follows every write through the API without reading the company whole again', async () => {
    const w1 = await createMember(api, company, { teams: [1], name: 'Wanda One' });
    await locateHttp(); // the first call reads whole
    const w2 = await createMember(api, company, { teams: [2], name: 'Walt Two' });
    expect(byUid(await expectCurrent(), w2.uid)).toMatchObject({ name: 'Walt Two', ts: 0, lat: null });

    const now = Date.now();
    const pushed = await action(api, 'pushlocations', { locations: [{ ts: now - 1000, lat: 46.051, lng: 14.503, acc: 7, spd: 2.5 }] }, { key: w1.key });
    expect(pushed.body.status).toBe(0);
    expect(byUid(await expectCurrent(), w1.uid)).toMatchObject({ lat: 46.051, lng: 14.503, acc: 7, spd: 2.5, ts: now - 1000 });

    const edited = await action(api, 'editaccount', { uid: w1.uid, name: 'Wanda Renamed', email: 'wanda@example.test', phone: '+386 1', teams: [1, 2] }, { key: company.key });
    expect(edited.body.status).toBe(0);
    expect(byUid(await expectCurrent(), w1.uid)).toMatchObject({
      name: 'Wanda Renamed',
      email: 'wanda@example.test',
      phone: '+386 1',
      teams: [
        { name: 'North', number: 1 },
        { name: 'South', number: 2 },
      ],
    });

    // team names live in the company's row, not the members'
    expect((await action(api, 'editcompany', { teams_config: [{ id: 1, name: 'Nord' }, TEAMS[1]] }, { key: company.key })).body.status).toBe(0);
    expect(byUid(await expectCurrent(), w1.uid)?.teams[0]).toEqual({ name: 'Nord', number: 1 });

    expect((await action(api, 'deleteaccount', { uid: w2.uid }, { key: company.key })).body.status).toBe(0);
    expect(byUid(await expectCurrent(), w2.uid)).toBeUndefined();

    // a ping writes the location row: the next call reads it (and still equals a whole read)
    expect((await action(api, 'locate', { accounts: { [w1.uid]: {} }, signal: 'ping' }, { key: company.key })).body.status).toBe(0);
    await expectCurrent();
  });

  it('sees a write committed after a refresh by a transaction that was open before it', async () => {
    const w = await createMember(api, company, { teams: [1], name: 'Late Writer' });
    await locateHttp();
    await raw.query('BEGIN');
    try {
      await raw.query(
        `INSERT INTO member_locations (company_id, member_id, ts, lat, lng, updated_at) VALUES ($1, $2, $3, 45.5, 13.5, $3)`,
        [company.companyUid, w.uid, Date.now()],
      );
      await raw.query(`UPDATE members SET name = 'Late Writer Renamed' WHERE id = $1`, [w.uid]);
      // this call's refresh runs while the transaction is open: it cannot see the rows yet
      expect(byUid(await locateHttp(), w.uid)).toMatchObject({ name: 'Late Writer', lat: null });
      await raw.query('COMMIT');
    } catch (err) {
      await raw.query('ROLLBACK');
      throw err;
    }
    // a later transaction committing meanwhile moves the database's horizon on
    await raw.query(`UPDATE members SET phone = '+386 2' WHERE id = $1`, [company.ownerUid]);
    const answer = await expectCurrent();
    expect(byUid(answer, w.uid)).toMatchObject({ name: 'Late Writer Renamed', lat: 45.5, lng: 13.5 });
  });

  it('notices deleted rows by their count and reads the company whole again', async () => {
    const w = await createMember(api, company, { teams: [2], name: 'Soon Unlocated' });
    await raw.query(`INSERT INTO member_locations (company_id, member_id, ts, lat, lng, updated_at) VALUES ($1, $2, $3, 45, 13, $3)`, [
      company.companyUid,
      w.uid,
      Date.now(),
    ]);
    expect(byUid(await locateHttp(), w.uid)).toMatchObject({ lat: 45 });
    const reads = snapshots.stats.fullReads;
    await raw.query(`DELETE FROM member_locations WHERE company_id = $1 AND member_id = $2`, [company.companyUid, w.uid]);
    const answer = await locateHttp();
    expect(snapshots.stats.fullReads).toBe(reads + 1);
    expect(byUid(answer, w.uid)).toMatchObject({ lat: null, lng: null, ts: 0 });
    expect(answer).toEqual(await wholeRead());

    await raw.query(`DELETE FROM members WHERE id = $1`, [w.uid]);
    const after = await locateHttp();
    expect(byUid(after, w.uid)).toBeUndefined();
    expect(after).toEqual(await wholeRead());
  });

  it('lets calls arriving together share one refresh, and a call after it started wait for the next', async () => {
    await locateHttp();
    const before = snapshots.stats.refreshes;
    const together = await Promise.all([1, 2, 3, 4, 5].map(() => snapshots.current(company.companyUid)));
    expect(snapshots.stats.refreshes).toBe(before + 1);
    expect(new Set(together).size).toBe(1);
    const first = snapshots.current(company.companyUid);
    await new Promise((r) => setImmediate(r)); // the first refresh has started
    const second = snapshots.current(company.companyUid);
    await Promise.all([first, second]);
    expect(snapshots.stats.refreshes).toBe(before + 3);
  });

  it('reads whole again once the snapshot is older than LOCATE_SNAPSHOT_MAX_AGE_MS, and answers the same', async () => {
    const config = { ...api.app.get(AppConfig), LOCATE_SNAPSHOT_MAX_AGE_MS: 0 } as AppConfig;
    const aging = new LocateSnapshots(new MembersLocateRead(db), config);
    await aging.current(company.companyUid);
    await new Promise((r) => setTimeout(r, 5));
    await aging.current(company.companyUid);
    expect(aging.stats.fullReads).toBe(2);
  });

  it('answers right when the cache holds fewer members than a company has (least recently used dropped)', async () => {
    const other = await createCompany(api);
    await createMember(api, other, { name: 'Other One' });
    const config = { ...api.app.get(AppConfig), LOCATE_SNAPSHOT_MEMBERS: 3 } as AppConfig;
    const small = new LocateSnapshots(new MembersLocateRead(db), config);
    const a = (await small.current(company.companyUid))!;
    const b = (await small.current(other.companyUid))!;
    expect(b.size).toBe(2);
    expect(a.size).toBeGreaterThan(3);
    expect((await small.current(company.companyUid))!.size).toBe(a.size);
    expect(await small.current('01NOSUCHCOMPANY00000000000')).toBeNull();
  });
});
