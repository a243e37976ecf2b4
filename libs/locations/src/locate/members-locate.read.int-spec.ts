import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { LocateRepository } from './locate.repository';
import { xid32 } from '@app/core';
import { MembersLocateRead } from './members-locate.read';

describe('MembersLocateRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: MembersLocateRead;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new MembersLocateRead(ds);
  });
  afterAll(() => ds.destroy());

  it("reads a company's members with their latest locations whole, then only the rows changed since a horizon", async () => {
    const { companyId: a, ownerId } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const w = await createIntMember(ds, a, { name: 'Walker', teams: [3] });
    await createIntMember(ds, b);
    await new LocateRepository(ds).requestPing(a, [w], 5);

    const [whole] = await read.refresh(a);
    expect(whole).toMatchObject({ members: 2, locations: 1, teams_config: expect.any(String) });
    expect(BigInt(whole.horizon)).toBeGreaterThan(0n);
    const rows = [...whole.rows!].sort((x, y) => (x.uid < y.uid ? -1 : 1));
    expect(rows.map((r) => r.uid)).toEqual([ownerId, w].sort());
    expect(whole.rows!.find((r) => r.uid === w)).toMatchObject({ name: 'Walker', teams: [3], active: true, has_location: true, ts: null });
    expect(whole.rows!.find((r) => r.uid === ownerId)).toMatchObject({ has_location: false });

    // nothing changed since the horizon: no rows (the counts still read)
    const [same] = await read.refresh(a, xid32(whole.horizon));
    expect(same).toMatchObject({ members: 2, locations: 1, rows: null });
    // a member's location row changes: that member alone
    await ds.query(`UPDATE member_locations SET lat = 1, lng = 2, ts = 3 WHERE company_id = $1 AND member_id = $2`, [a, w]);
    const [changed] = await read.refresh(a, xid32(same.horizon));
    expect(changed.rows!.map((r) => [r.uid, r.lat, r.lng])).toEqual([[w, 1, 2]]);

    expect(await read.refresh('NO-SUCH-COMPANY')).toEqual([]);
  });

  it('while a transaction holds the horizon back, a version the caller holds is not read again; a newer one is', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const w = await createIntMember(ds, a, { name: 'Walker' });
    await new LocateRepository(ds).requestPing(a, [w], 5);
    const [whole] = await read.refresh(a);
    // a transaction with an xid, left open: every snapshot's xmin stays at or before it
    const open = ds.createQueryRunner();
    await open.connect();
    try {
      await open.startTransaction();
      await open.query(`SELECT txid_current()`);
      await ds.query(`UPDATE member_locations SET lat = 1, lng = 2, ts = 3 WHERE company_id = $1 AND member_id = $2`, [a, w]);
      const [first] = await read.refresh(a, xid32(whole.horizon));
      const got = first.rows!.find((r) => r.uid === w)!;
      expect(got).toMatchObject({ lat: 1, mx: expect.any(String), lx: expect.any(String) });
      // the horizon did not move past the open transaction: without what it holds, the caller reads the row again
      const [again] = await read.refresh(a, xid32(first.horizon));
      expect(again.rows?.map((r) => r.uid)).toEqual([w]);
      // with it, not
      const held = { ids: [w], mx: [got.mx], lx: [got.lx ?? ''] };
      const [skipped] = await read.refresh(a, xid32(first.horizon), held);
      expect(skipped).toMatchObject({ members: 2, locations: 1, rows: null });
      // a newer version of the same row is read though the older one is held
      await ds.query(`UPDATE member_locations SET lat = 5 WHERE company_id = $1 AND member_id = $2`, [a, w]);
      const [newer] = await read.refresh(a, xid32(first.horizon), held);
      expect(newer.rows!.map((r) => [r.uid, r.lat])).toEqual([[w, 5]]);
      // so is a change of the member's own row (its location row held)
      const [latest] = await read.refresh(a, xid32(first.horizon), { ids: [w], mx: [got.mx], lx: [newer.rows![0].lx ?? ''] });
      expect(latest.rows).toBeNull();
      await ds.query(`UPDATE members SET name = 'Renamed' WHERE company_id = $1 AND id = $2`, [a, w]);
      const [renamed] = await read.refresh(a, xid32(first.horizon), { ids: [w], mx: [got.mx], lx: [newer.rows![0].lx ?? ''] });
      expect(renamed.rows!.map((r) => [r.uid, r.name])).toEqual([[w, 'Renamed']]);
    } finally {
      await open.rollbackTransaction();
      await open.release();
    }
  });
});
