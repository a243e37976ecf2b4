import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { PlacesAutoassignRead } from './places-autoassign.read';

/** Inserts a place of `companyId` (at `at`, degrees, or without a location); @returns its id. */
async function place(ds: DataSource, companyId: string, at: { lat: number; lng: number } | null, deletedAt: number | null = null): Promise<string> {
  const id = newId();
  await ds.query(
    `INSERT INTO places (id, company_id, name, location, deleted_at, created_at)
     VALUES ($1, $2, 'p', CASE WHEN $3::float8 IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint($4::float8, $3::float8), 4326)::geography END, $5, 1)`,
    [id, companyId, at?.lat ?? null, at?.lng ?? null, deletedAt],
  );
  return id;
}

describe('PlacesAutoassignRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: PlacesAutoassignRead;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new PlacesAutoassignRead(ds);
  });
  afterAll(() => ds.destroy());

  it("answers live places' locations by uid, the company's only", async () => {
    const a = (await createIntCompany(ds)).companyId;
    const b = (await createIntCompany(ds)).companyId;
    const live = await place(ds, a, { lat: 46.05, lng: 14.5 });
    const deleted = await place(ds, a, { lat: 46, lng: 14 }, 5);
    const nowhere = await place(ds, a, null);
    const other = await place(ds, b, { lat: 45, lng: 13 });
    const got = await read.placeLocations(a, [live, deleted, nowhere, other, 'unknown']);
    expect([...got.keys()]).toEqual([live]);
    expect(got.get(live)!.lat).toBeCloseTo(46.05, 9);
    expect(got.get(live)!.lng).toBeCloseTo(14.5, 9);
    expect(await read.placeLocations(a, [])).toEqual(new Map());
  });
});
