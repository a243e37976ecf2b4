import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { MemberLocationsReader, NEVER_LOCATED, readMemberLocations } from './member-locations.read';

describe('member locations read model (PostgreSQL)', () => {
  let ds: DataSource;
  beforeAll(async () => (ds = await openIntegrationDb()));
  afterAll(() => ds.destroy());

  /** A `member_locations` row: latest fix at `ts` (ms), anchor fix, tracking state. */
  const locate = (companyId: string, memberId: string, row: { ts: number | null; anchorTs?: number | null; tracking?: boolean; acc?: number | null }) =>
    ds.query(
      `INSERT INTO member_locations (company_id, member_id, ts, lat, lng, acc, spd, anchor_ts, anchor_lat, anchor_lng, tracking_status, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $4, $5, $8, $9)`,
      [companyId, memberId, row.ts, row.ts === null ? null : 46.05, row.ts === null ? null : 14.5, row.acc ?? null, row.anchorTs ?? null, row.tracking ?? true, Date.now()],
    );

  it('answers location and states of the named members of the company only; members without a row are left out', async () => {
    const a = await createIntCompany(ds);
    const b = await createIntCompany(ds);
    const now = Date.now();
    const moving = await createIntMember(ds, a.companyId);
    const never = await createIntMember(ds, a.companyId);
    const unlocated = await createIntMember(ds, a.companyId);
    const other = await createIntMember(ds, b.companyId);
    await locate(a.companyId, moving, { ts: now - 5_000, anchorTs: now - 5_000, acc: 8 });
    await locate(a.companyId, unlocated, { ts: null, tracking: false });
    await locate(b.companyId, other, { ts: now - 1_000 });

    const got = await readMemberLocations(ds, a.companyId, [moving, never, unlocated, other], now);
    expect([...got.keys()].sort()).toEqual([moving, unlocated].sort());
    expect(got.get(moving)!.location).toEqual({ lat: 46.05, lng: 14.5, ts: now - 5_000, accuracy: 8 });
    expect(got.get(moving)!.states.tracking_status).toBe(true);
    expect(got.get(unlocated)).toEqual({ location: null, states: { moving: '', tracking_status: false } });
    expect(await readMemberLocations(ds, a.companyId, [], now)).toEqual(new Map());
  });

  it('MemberLocationsReader.attach sets both fields in place, never located for the rest and for another company’s', async () => {
    const a = await createIntCompany(ds);
    const b = await createIntCompany(ds);
    const m = await createIntMember(ds, a.companyId);
    const other = await createIntMember(ds, b.companyId);
    await locate(a.companyId, m, { ts: Date.now() - 2_000 });
    await locate(b.companyId, other, { ts: Date.now() - 2_000 });
    const reader = new MemberLocationsReader(ds);
    const views = [
      { uid: m, name: 'm', ...NEVER_LOCATED },
      { uid: other, name: 'other', ...NEVER_LOCATED },
    ];
    const same = await reader.attach(a.companyId, views);
    expect(same).toBe(views);
    expect(Object.keys(views[0])).toEqual(['uid', 'name', 'location', 'states']);
    expect(views[0].location).toMatchObject({ lat: 46.05, lng: 14.5 });
    expect(views[1]).toEqual({ uid: other, name: 'other', ...NEVER_LOCATED });
    expect(await reader.attachOne(a.companyId, null)).toBeNull();
  });
});
