import { newId, toPoint } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { NearestPlacesReader } from './locations-nearest-places.read';
import { PlacesRepository } from './places.repository';

describe('NearestPlacesReader (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: PlacesRepository;
  let reader: NearestPlacesReader;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new PlacesRepository(ds);
    reader = new NearestPlacesReader(ds);
  });
  afterAll(() => ds.destroy());

  const locate = (companyId: string, memberId: string, at: { lat: number; lng: number }) =>
    ds.query(`INSERT INTO member_locations (company_id, member_id, ts, lat, lng, updated_at) VALUES ($1, $2, $3, $4, $5, $3)`, [
      companyId,
      memberId,
      Date.now(),
      at.lat,
      at.lng,
    ]);

  async function place(companyId: string, creatorId: string, name: string, at: { lat: number; lng: number } | null, teams: number[] = []) {
    const id = newId();
    await repo.insert({ id, companyId, name, teams, creatorId, createdAt: 1, location: at && toPoint(at) });
    return id;
  }

  it('answers live places of the company nearest the caller first (the geodesic), then unlocated by name; filters and max', async () => {
    const a = await createIntCompany(ds);
    const b = await createIntCompany(ds);
    const me = await createIntMember(ds, a.companyId, { name: 'Me' });
    const o = a.ownerId;
    await place(a.companyId, me, 'Far', { lat: 48.2, lng: 16.37 });
    await place(a.companyId, me, 'Near', { lat: 46.06, lng: 14.51 }, [1]);
    await place(a.companyId, o, 'Mid', { lat: 45.81, lng: 15.98 });
    await place(a.companyId, o, 'North', { lat: 46, lng: 0 });
    await place(a.companyId, o, 'East', { lat: 45, lng: 1.412 });
    await place(a.companyId, o, 'Zulu nowhere', null);
    await place(a.companyId, o, 'Alpha nowhere', null);
    const gone = await place(a.companyId, o, 'Gone', { lat: 46.06, lng: 14.51 });
    await repo.softDelete(ds, a.companyId, [gone], 2);
    await place(b.companyId, b.ownerId, 'Theirs', { lat: 46.06, lng: 14.51 });
    const names = async (f: Partial<Parameters<NearestPlacesReader['nearest']>[0]> = {}) =>
      (await reader.nearest({ companyId: a.companyId, memberId: me, max: 500, ...f })).map((p) => p.name);

    // no position yet: located places by name, then the unlocated
    expect(await names()).toEqual(['East', 'Far', 'Mid', 'Near', 'North', 'Alpha nowhere', 'Zulu nowhere']);
    expect(await names({ max: 6 })).toEqual(['East', 'Far', 'Mid', 'Near', 'North', 'Alpha nowhere']);

    await locate(a.companyId, me, { lat: 46.0569, lng: 14.5058 });
    expect(await names()).toEqual(['Near', 'Mid', 'Far', 'East', 'North', 'Alpha nowhere', 'Zulu nowhere']);
    expect(await names({ max: 2 })).toEqual(['Near', 'Mid']);
    expect(await names({ query: 'NO' })).toEqual(['North', 'Alpha nowhere', 'Zulu nowhere']);
    expect(await names({ teams: [1] })).toEqual(['Near']);
    expect(await names({ uids: [gone] })).toEqual([]);
    // the geodesic, not the sphere: from (45, 0) North is nearer than East on the ellipsoid
    const other = await createIntMember(ds, a.companyId);
    await locate(a.companyId, other, { lat: 45, lng: 0 });
    expect((await names({ memberId: other })).slice(0, 2)).toEqual(['North', 'East']);
    // another company's member position orders nothing here (no row of this company)
    expect(await names({ memberId: b.ownerId, max: 1 })).toEqual(['East']);

    const [near] = await reader.nearest({ companyId: a.companyId, memberId: me, max: 1 });
    expect(near).toMatchObject({ name: 'Near', creator: 'Me', location: { lat: 46.06, lng: 14.51 }, teams: [1] });
  });
});
