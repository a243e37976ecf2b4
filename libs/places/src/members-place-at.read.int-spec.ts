import { newId, toPoint } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { PlaceAtService } from './members-place-at.read';
import { PlacesRepository } from './places.repository';

describe('PlaceAtService (PostgreSQL)', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await openIntegrationDb();
  });
  afterAll(() => ds.destroy());

  it('names the nearest live place of the company whose radius (or the default radius) covers each point', async () => {
    const repo = new PlacesRepository(ds);
    const at = new PlaceAtService(ds);
    const a = await createIntCompany(ds); // default_radius 100 m
    const b = await createIntCompany(ds);
    const place = async (companyId: string, name: string, lat: number, lng: number, radius = 0) => {
      const id = newId();
      await repo.insert({ id, companyId, name, teams: [], creatorId: a.ownerId, createdAt: 1, location: toPoint({ lat, lng }), radius });
      return id;
    };
    await place(a.companyId, 'Depot', 46, 14); // default radius: 100 m
    await place(a.companyId, 'Wide', 46.01, 14, 2000); // 2 km
    const gone = await place(a.companyId, 'Gone', 46.02, 14, 100);
    await repo.softDelete(ds, a.companyId, [gone], 2);
    await place(b.companyId, 'Theirs', 47, 14, 5000);

    const dLat = 1 / 111_132; // ~1 m of latitude, in degrees
    expect(
      await at.nameAt(a.companyId, [
        { lat: 46 + 50 * dLat, lng: 14 }, // 50 m from Depot (its default 100 m), ~1.06 km from Wide: the nearest covering
        { lat: 46 + 150 * dLat, lng: 14 }, // outside Depot's 100 m, inside Wide's 2 km
        { lat: 46.02, lng: 14 }, // at the deleted place, ~1.1 km from Wide
        { lat: 47, lng: 14 }, // another company's place only
        { lat: 10, lng: 10 },
      ]),
    ).toEqual(['Depot', 'Wide', 'Wide', null, null]);
    expect(await at.nameAt(a.companyId, [])).toEqual([]);
    expect(await at.nameAt(b.companyId, [{ lat: 47.01, lng: 14 }])).toEqual(['Theirs']);
  });
});
