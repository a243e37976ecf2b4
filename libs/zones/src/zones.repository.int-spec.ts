import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { GeoJsonPolygon } from './zone-view';
import { ZonesRepository } from './zones.repository';

/** A square of `d` degrees with its south-west corner at (lat, lng), counter-clockwise. */
function square(lat: number, lng: number, d: number): GeoJsonPolygon {
  return { type: 'Polygon', coordinates: [[[lng, lat], [lng + d, lat], [lng + d, lat + d], [lng, lat + d], [lng, lat]]] };
}

describe('ZonesRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: ZonesRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new ZonesRepository(ds);
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  async function insert(companyId: string, name: string, polygon: GeoJsonPolygon, teams: number[] = []): Promise<string> {
    const id = newId();
    await repo.insert({ id, companyId, name, polygon, danger: false, teams, color: '', createdAt: Date.now() });
    return id;
  }

  it('inspects polygons with PostGIS: valid with its area, a bow-tie invalid with the reason', async () => {
    const ok = await repo.inspectPolygon(square(46, 14, 0.01));
    expect(ok.valid).toBe(true);
    expect(ok.areaM2).toBeGreaterThan(850_000);
    expect(ok.areaM2).toBeLessThan(900_000);
    const bowTie = await repo.inspectPolygon({ type: 'Polygon', coordinates: [[[14, 46], [14.01, 46.01], [14.01, 46], [14, 46.01], [14, 46]]] });
    expect(bowTie.valid).toBe(false);
    expect(bowTie.reason).toMatch(/Self-intersection/);
  });

  it('inserts, reads, updates and soft-deletes within the company only', async () => {
    const z = await insert(a, 'Depot', square(46, 14, 0.01), [1]);
    const other = await insert(b, 'Elsewhere', square(46, 14, 0.01));
    expect((await repo.liveRows(a, [z, other])).map((r) => r.id)).toEqual([z]);
    const [row] = await repo.liveRows(a, [z]);
    expect(row).toMatchObject({ id: z, name: 'Depot', danger: false, teams: [1], polygon: { type: 'Polygon' } });
    // the stored exterior ring is counter-clockwise and closed
    expect(row.polygon.coordinates[0]).toHaveLength(5);

    await repo.update(ds, a, z, { name: 'Main depot', danger: true }, 42);
    await repo.update(ds, b, z, { name: 'hijacked' }, 43); // another company's id changes nothing
    const [updated] = await repo.liveRows(a, [z]);
    expect(updated).toMatchObject({ name: 'Main depot', danger: true, updatedAt: 42 });

    expect([...(await ds.transaction((db) => repo.lockLive(db, a, [z, other])))]).toEqual([z]);
    await repo.softDelete(ds, b, [z], 50); // not b's
    expect(await repo.liveRows(a, [z])).toHaveLength(1);
    await repo.softDelete(ds, a, [z], 51);
    expect(await repo.liveRows(a, [z])).toEqual([]);
    // refs still name a deleted zone, never another company's
    expect(await repo.refs(a, [z, other])).toEqual([{ id: z, name: 'Main depot', danger: true, deletedAt: 51 }]);
  });

  it('finds the live zones covering each point (boundary included), per company', async () => {
    const c = (await createIntCompany(ds)).companyId;
    const big = await insert(c, 'big', square(45, 13, 1), [7]);
    const small = await insert(c, 'small', square(45.5, 13.5, 0.1));
    await insert(b, 'b-zone', square(45, 13, 1));
    const rows = await repo.covering(c, [
      { lat: 45.55, lng: 13.55 }, // both
      { lat: 45.3, lng: 13 }, // on big's western edge (a meridian: the same line on the sphere)
      { lat: 10, lng: 10 }, // none
    ]);
    expect(rows).toEqual(
      [
        { i: 1, id: big, teams: [7] },
        { i: 1, id: small, teams: [] },
        { i: 2, id: big, teams: [7] },
      ].sort((x, y) => x.i - y.i || (x.id < y.id ? -1 : 1)),
    );
    expect(await repo.covering(c, [])).toEqual([]);
    expect(await repo.teamsInUse(ds, c, [7, 8])).toEqual([7]);
  });
});
