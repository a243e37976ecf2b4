import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { JobsAutoassignRead } from './jobs-autoassign.read';

interface JobFields {
  workerId?: string | null;
  day?: number;
  lat?: number | null;
  lng?: number | null;
  placeUid?: string;
  archived?: boolean;
  template?: boolean;
  doneSuccess?: number;
  doneFailed?: number;
  teamId?: number;
  pickup?: number;
  dropoff?: number;
}

/** Inserts a job of `companyId` with only the columns dispatch reads; @returns its id. */
async function job(ds: DataSource, companyId: string, f: JobFields = {}): Promise<string> {
  const id = newId();
  await ds.query(
    `INSERT INTO jobs (id, company_id, worker_id, day, destination_lat, destination_lng, place_uid, archived, is_template,
                       ts_done_success, ts_done_failed, team_id, items_to_pickup, items_to_dropoff, ts_saved, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1, 1)`,
    [id, companyId, f.workerId ?? null, f.day ?? 0, f.lat ?? null, f.lng ?? null, f.placeUid ?? '', f.archived ?? false, f.template ?? false,
      f.doneSuccess ?? 0, f.doneFailed ?? 0, f.teamId ?? 0, f.pickup ?? 0, f.dropoff ?? 0],
  );
  return id;
}

/** Inserts a place of `companyId` at (lat, lng); @returns its id. */
async function place(ds: DataSource, companyId: string, lat: number, lng: number, deletedAt: number | null = null): Promise<string> {
  const id = newId();
  await ds.query(
    `INSERT INTO places (id, company_id, name, location, deleted_at, created_at)
     VALUES ($1, $2, 'p', ST_SetSRID(ST_MakePoint($4::float8, $3::float8), 4326)::geography, $5, 1)`,
    [id, companyId, lat, lng, deletedAt],
  );
  return id;
}

describe('JobsAutoassignRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: JobsAutoassignRead;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new JobsAutoassignRead(ds);
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  it("reads the company's non-template jobs by id: where (own, else a live place's), state and load", async () => {
    const live = await place(ds, a, 46.05, 14.5);
    const deleted = await place(ds, a, 46, 14, 9);
    const elsewhere = await place(ds, b, 45, 13);
    const own = await job(ds, a, { lat: 46.1, lng: 14.6, placeUid: live, day: 20260105, teamId: 2, pickup: 3, dropoff: 1 });
    const atPlace = await job(ds, a, { placeUid: live, archived: true });
    const atDeleted = await job(ds, a, { placeUid: deleted, doneFailed: 7 });
    const atOthers = await job(ds, a, { placeUid: elsewhere, doneSuccess: 8 });
    const halfOwn = await job(ds, a, { lat: 46.2, placeUid: live });
    const template = await job(ds, a, { template: true });
    const others = await job(ds, b, { lat: 45, lng: 13 });

    const rows = await read.jobsByIds(a, [own, atPlace, atDeleted, atOthers, halfOwn, template, others, 'unknown']);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual([own, atPlace, atDeleted, atOthers, halfOwn].sort());
    expect(byId.get(own)).toEqual({
      id: own,
      day: 20260105,
      workerId: null,
      archived: false,
      completed: false,
      teamId: 2,
      lat: 46.1,
      lng: 14.6,
      itemsToPickup: 3,
      itemsToDropoff: 1,
    });
    expect(byId.get(atPlace)).toMatchObject({ archived: true, completed: false });
    expect(byId.get(atPlace)!.lat).toBeCloseTo(46.05, 9);
    expect(byId.get(atPlace)!.lng).toBeCloseTo(14.5, 9);
    // a deleted place, or another company's, gives no position
    expect(byId.get(atDeleted)).toMatchObject({ lat: null, lng: null, completed: true });
    expect(byId.get(atOthers)).toMatchObject({ lat: null, lng: null, completed: true });
    // only a full pair of own coordinates counts
    expect(byId.get(halfOwn)!.lat).toBeCloseTo(46.05, 9);
    // in a transaction too
    expect(await ds.transaction((db) => read.jobsByIds(a, [own], db))).toHaveLength(1);
  });

  it("reads what the workers already have on the days (not archived, not templates, not the excluded, the company's only)", async () => {
    const w1 = await createIntMember(ds, a);
    const w2 = await createIntMember(ds, a);
    const wb = await createIntMember(ds, b);
    const day = 20260110;
    const kept = await job(ds, a, { workerId: w1, day, lat: 46, lng: 14, pickup: 2 });
    const other = await job(ds, a, { workerId: w2, day: day + 1, dropoff: 4 });
    await job(ds, a, { workerId: w1, day, archived: true });
    await job(ds, a, { workerId: w1, day, template: true });
    await job(ds, a, { workerId: w1, day: day + 2 });
    const excluded = await job(ds, a, { workerId: w1, day });
    await job(ds, b, { workerId: wb, day });
    await job(ds, b, { workerId: w1, day }); // a's member id on b's job: never a's

    const rows = await read.existingJobs(a, [w1, w2, wb], [day, day + 1], [excluded]);
    expect(rows.sort((x, y) => x.day - y.day)).toEqual([
      { workerId: w1, day, lat: 46, lng: 14, itemsToPickup: 2, itemsToDropoff: 0 },
      { workerId: w2, day: day + 1, lat: null, lng: null, itemsToPickup: 0, itemsToDropoff: 4 },
    ]);
    expect(kept && other).toBeTruthy();
    expect(await read.existingJobs(a, [], [day], [])).toEqual([]);
    expect(await read.existingJobs(a, [w1], [], [])).toEqual([]);
  });
});
