import { distanceM, encodePolyline, fromPoint, newId, toPoint } from '@app/core';
import { Place, PlacesService } from '@app/places';
import { DataSource } from 'typeorm';
import { createCompany, startApi, TestApi } from '../support/api';

/**
 * Places on PostGIS (CONTRACTS.md "Geo"): the `location geography(Point, 4326)` column through the
 * entity and raw SQL, its GiST index, `PlacesService`'s company scoping, and PostGIS agreeing with
 * core's geo helpers.
 */
describe('places on PostGIS', () => {
  let api: TestApi;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  const place = (companyId: string, name: string, location: Place['location']): Partial<Place> => ({
    id: newId(),
    companyId,
    name,
    location,
    createdAt: Date.now(),
  });

  it('the entity writes and reads location as a GeoJSON Point ([lng, lat]); raw SQL reads it with ST_Y / ST_X', async () => {
    const company = await createCompany(api);
    const repo = db.getRepository(Place);
    const depot = place(company.companyUid, 'Depot', { type: 'Point', coordinates: [14.5058, 46.0569] });
    const nowhere = place(company.companyUid, 'Nowhere', null);
    await repo.insert([depot, nowhere]);

    const read = await repo.findOneByOrFail({ id: depot.id });
    expect(read.location).toEqual({ type: 'Point', coordinates: [14.5058, 46.0569] });
    expect((await repo.findOneByOrFail({ id: nowhere.id })).location).toBeNull();

    const [raw] = await db.query(`SELECT ST_Y(location::geometry) AS lat, ST_X(location::geometry) AS lng FROM places WHERE id = $1`, [
      depot.id,
    ]);
    expect(raw).toEqual({ lat: 46.0569, lng: 14.5058 });

    await repo.update({ id: nowhere.id }, { location: toPoint({ lat: 51.6, lng: -0.5 }) });
    expect(fromPoint((await repo.findOneByOrFail({ id: nowhere.id })).location)).toEqual({ lat: 51.6, lng: -0.5 });
  });

  it('location is geography(Point, 4326) with a GiST index', async () => {
    const [column] = await db.query(
      `SELECT type, srid FROM geography_columns WHERE f_table_name = 'places' AND f_geography_column = 'location'`,
    );
    expect(column).toEqual({ type: 'Point', srid: 4326 });
    const [index] = await db.query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'places' AND indexname = 'IDX_places_location'`);
    expect(index.indexdef).toMatch(/USING gist \(location\)/);
  });

  it('PlacesService.existingIds answers only the company’s own places', async () => {
    const a = await createCompany(api);
    const b = await createCompany(api);
    const mine = place(a.companyUid, 'Mine', null);
    const theirs = place(b.companyUid, 'Theirs', { type: 'Point', coordinates: [0, 0] });
    await db.getRepository(Place).insert([mine, theirs]);
    const places = api.app.get(PlacesService);
    expect(await places.existingIds(a.companyUid, [mine.id!, theirs.id!, newId()])).toEqual(new Set([mine.id]));
    expect(await places.existingIds(b.companyUid, [mine.id!, theirs.id!])).toEqual(new Set([theirs.id]));
    expect(await places.existingIds(a.companyUid, [])).toEqual(new Set());
  });

  it('PostGIS agrees with core: ST_Distance(geography) with distanceM, ST_AsEncodedPolyline with encodePolyline', async () => {
    const jfk = { lat: 40.6, lng: -73.8 };
    const lhr = { lat: 51.6, lng: -0.5 };
    const [{ d }] = await db.query(
      `SELECT ST_Distance(ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography, ST_SetSRID(ST_MakePoint($3, $4), 4326)::geography) AS d`,
      [jfk.lng, jfk.lat, lhr.lng, lhr.lat],
    );
    expect(Math.abs(d - distanceM(jfk, lhr))).toBeLessThan(0.001);

    const points = [
      { lat: 38.5, lng: -120.2 },
      { lat: 40.7, lng: -120.95 },
      { lat: 43.252, lng: -126.453 },
    ];
    const [{ encoded }] = await db.query(`SELECT ST_AsEncodedPolyline(ST_GeomFromText($1, 4326), 5) AS encoded`, [
      `LINESTRING(${points.map((p) => `${p.lng} ${p.lat}`).join(', ')})`,
    ]);
    expect(encoded).toBe(encodePolyline(points));
  });
});
