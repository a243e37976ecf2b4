import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { PlacesZonesRefsRead } from './places-zones-refs.read';

describe('PlacesZonesRefsRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: PlacesZonesRefsRead;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new PlacesZonesRefsRead(ds);
  });
  afterAll(() => ds.destroy());

  it('finds live places and zones of the company only', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const [live, deleted, foreign] = [newId(), newId(), newId()];
    for (const [id, c, del] of [
      [live, a, null],
      [deleted, a, 5],
      [foreign, b, null],
    ] as const) {
      await ds.query(`INSERT INTO places (id, company_id, name, created_at, deleted_at) VALUES ($1, $2, 'P', 1, $3)`, [id, c, del]);
      await ds.query(
        `INSERT INTO zones (id, company_id, name, polygon, danger, teams, color, created_at, deleted_at)
         VALUES ($1, $2, 'Z', ST_GeomFromGeoJSON('{"type":"Polygon","coordinates":[[[14,46],[14.01,46],[14.01,46.01],[14,46.01],[14,46]]]}')::geography, true, '[]', '', 1, $3)`,
        [id, c, del],
      );
    }
    expect(await read.livePlace(a, live)).toBe(true);
    expect(await read.livePlace(a, deleted)).toBe(false);
    expect(await read.livePlace(a, foreign)).toBe(false);
    expect(await ds.transaction((db) => read.livePlace(a, live, db))).toBe(true);
    expect(await read.liveZone(a, live)).toEqual({ danger: true });
    expect(await read.liveZone(a, deleted)).toBeUndefined();
    expect(await read.liveZone(a, foreign)).toBeUndefined();
  });
});
