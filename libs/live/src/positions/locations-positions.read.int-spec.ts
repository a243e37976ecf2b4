import { xid32 } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { PositionsRead } from './locations-positions.read';

describe('PositionsRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: PositionsRead;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new PositionsRead(ds);
  });
  afterAll(() => ds.destroy());

  const locate = (companyId: string, memberId: string, lat: number, ts: number) =>
    ds.query(
      `INSERT INTO member_locations (company_id, member_id, ts, lat, lng, tracking_status, updated_at) VALUES ($1, $2, $4, $3, 14.5, true, 0)
       ON CONFLICT (company_id, member_id) DO UPDATE SET lat = EXCLUDED.lat, ts = EXCLUDED.ts`,
      [companyId, memberId, lat, ts],
    );

  it('reads the located members, then only the rows changed since the last read — a late commit too, never a row twice without a change', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const w1 = await createIntMember(ds, a, { name: 'One' });
    const w2 = await createIntMember(ds, a, { name: 'Two' });
    await createIntMember(ds, a, { name: 'Never located' });
    const other = await createIntMember(ds, b);
    await locate(a, w1, 46.1, 1000);
    await locate(a, w2, 46.2, 1000);
    await locate(b, other, 46.3, 1000);

    const all = await read.changedSince(a);
    expect(all.rows.map((r) => [r.uid, r.name, r.lat]).sort()).toEqual([
      [w1, 'One', 46.1],
      [w2, 'Two', 46.2],
    ].sort());
    expect(all.now).toBeGreaterThan(0);
    expect(BigInt(all.horizon)).toBeGreaterThan(0n);

    // nothing changed: nothing read (the other company's write is not this company's)
    await locate(b, other, 46.4, 2000);
    const same = await read.changedSince(a, xid32(all.horizon));
    expect(same.rows).toEqual([]);

    // a transaction that wrote before a read and commits after it: the read does not see it, the next does
    const late = await ds.createQueryRunner();
    await late.connect();
    try {
      await late.startTransaction();
      await late.query(`UPDATE member_locations SET lat = 47, ts = 3000 WHERE company_id = $1 AND member_id = $2`, [a, w1]);
      await locate(a, w2, 46.5, 3000);
      const during = await read.changedSince(a, xid32(same.horizon));
      expect(during.rows.map((r) => [r.uid, r.lat])).toEqual([[w2, 46.5]]);
      await late.commitTransaction();
      const after = await read.changedSince(a, xid32(during.horizon));
      // w1 committed late is read; w2 may be read again (its transaction was not older than the horizon), never missed
      expect(after.rows.find((r) => r.uid === w1)).toMatchObject({ lat: 47, ts: 3000 });
      const settled = await read.changedSince(a, xid32(after.horizon));
      expect(settled.rows).toEqual([]);
    } finally {
      await late.release();
    }
  });
});
