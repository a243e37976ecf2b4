import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { ZoneClassificationRead } from './zones-classification.read';

describe('ZoneClassificationRead (PostgreSQL)', () => {
  let ds: DataSource;
  const read = new ZoneClassificationRead();

  beforeAll(async () => {
    ds = await openIntegrationDb();
  });
  afterAll(() => ds.destroy());

  /** A square zone of `d` degrees with its south-west corner at (lat, lng). */
  async function zone(companyId: string, lat: number, lng: number, d: number, opts: { danger?: boolean; deleted?: boolean } = {}): Promise<string> {
    const id = newId();
    const ring = [[lng, lat], [lng + d, lat], [lng + d, lat + d], [lng, lat + d], [lng, lat]];
    await ds.query(
      `INSERT INTO zones (id, company_id, name, polygon, danger, teams, color, created_at, deleted_at)
       VALUES ($1, $2, $3, ST_GeomFromGeoJSON($4::text)::geography, $5, '[]', '', 1, $6)`,
      [id, companyId, `zone ${id}`, JSON.stringify({ type: 'Polygon', coordinates: [ring] }), opts.danger ?? false, opts.deleted ? 2 : null],
    );
    return id;
  }

  it('classifies the watched live zones of the member company per fix: in, edge band, out', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const z = await zone(a, 46, 14, 0.01);
    const danger = await zone(a, 46.1, 14.1, 0.01, { danger: true });
    const gone = await zone(a, 46, 14, 0.01, { deleted: true });
    const foreign = await zone(b, 46, 14, 0.01);
    const fixes = [
      { lat: 46.005, lng: 14.005 }, // inside z
      { lat: 46.005, lng: 14.01015 }, // ~12 m east of z: the band
      { lat: 46.005, lng: 14.02 }, // far
    ];
    const [first, second, none] = await ds.transaction((db) =>
      read.classifyZones(db, [
        { companyId: a, fixes, zoneIds: [z, gone, foreign], anyDanger: false, statedIds: [] },
        { companyId: a, fixes: [{ lat: 46.105, lng: 14.105 }], zoneIds: [], anyDanger: true, statedIds: [] },
        { companyId: b, fixes: [{ lat: 10, lng: 10 }], zoneIds: [foreign], anyDanger: false, statedIds: [] },
      ]),
    );
    expect(first).toEqual([{ id: z, name: `zone ${z}`, danger: false, classes: 'ieo' }]);
    expect(second).toEqual([{ id: danger, name: `zone ${danger}`, danger: true, classes: 'i' }]);
    expect(none).toEqual([]);
  });

  it('keeps a stated zone however far the fixes are (a member inside must be seen leaving)', async () => {
    const { companyId } = await createIntCompany(ds);
    const z = await zone(companyId, 46, 14, 0.01);
    const [[row]] = await ds.transaction((db) =>
      read.classifyZones(db, [{ companyId, fixes: [{ lat: 50, lng: 20 }], zoneIds: [z], anyDanger: false, statedIds: [z] }]),
    );
    expect(row).toMatchObject({ id: z, classes: 'o' });
    expect(await ds.transaction((db) => read.classifyZones(db, []))).toEqual([]);
  });
});
