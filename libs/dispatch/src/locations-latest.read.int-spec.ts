import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { LatestLocationsRead } from './locations-latest.read';

describe('LatestLocationsRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: LatestLocationsRead;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new LatestLocationsRead(ds);
  });
  afterAll(() => ds.destroy());

  const locate = (companyId: string, memberId: string, lat: number | null, lng: number | null) =>
    ds.query(`INSERT INTO member_locations (company_id, member_id, ts, lat, lng, updated_at) VALUES ($1, $2, $3, $4, $5, 1)`, [
      companyId,
      memberId,
      lat === null ? null : 1000,
      lat,
      lng,
    ]);

  it("answers each located member's latest position, the company's members only", async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const located = await createIntMember(ds, a);
    const neverFixed = await createIntMember(ds, a);
    const noRow = await createIntMember(ds, a);
    const elsewhere = await createIntMember(ds, b);
    await locate(a, located, 46.05, 14.5);
    await locate(a, neverFixed, null, null);
    await locate(b, elsewhere, 45, 13);
    // another company's row for the same member id is never answered
    await locate(b, noRow, 45, 13);
    const got = await read.latestLocations(a, [located, neverFixed, noRow, elsewhere]);
    expect(got).toEqual(new Map([[located, { lat: 46.05, lng: 14.5 }]]));
    expect(await read.latestLocations(a, [])).toEqual(new Map());
  });
});
