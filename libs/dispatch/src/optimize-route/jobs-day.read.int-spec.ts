import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { JobsDayRead } from './jobs-day.read';

interface JobFields {
  workerId: string;
  day: number;
  number?: number;
  tsCreated?: number;
  lat?: number | null;
  lng?: number | null;
  placeUid?: string;
  archived?: boolean;
  template?: boolean;
}

/** Inserts a job of `companyId` with only the columns dispatch reads; @returns its id. */
async function job(ds: DataSource, companyId: string, f: JobFields, id: string = newId()): Promise<string> {
  await ds.query(
    `INSERT INTO jobs (id, company_id, worker_id, day, number, ts_created, destination_lat, destination_lng, place_uid, archived, is_template,
                       team_id, items_to_pickup, items_to_dropoff, ts_saved, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 4, 1, 2, 1, 1)`,
    [id, companyId, f.workerId, f.day, f.number ?? 0, f.tsCreated ?? 0, f.lat ?? null, f.lng ?? null, f.placeUid ?? '', f.archived ?? false, f.template ?? false],
  );
  return id;
}

describe('JobsDayRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: JobsDayRead;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new JobsDayRead(ds);
  });
  afterAll(() => ds.destroy());

  it("reads a member's day in route order (number, created, id) with coordinates, the company's only", async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const m = await createIntMember(ds, a);
    const day = 20260112;
    const placeId = newId();
    await ds.query(
      `INSERT INTO places (id, company_id, name, location, deleted_at, created_at)
       VALUES ($1, $2, 'p', ST_SetSRID(ST_MakePoint(14.5, 46.05), 4326)::geography, 99, 1)`,
      [placeId, a],
    );
    const third = await job(ds, a, { workerId: m, day, number: 2, tsCreated: 10, lat: 46, lng: 14 });
    const first = await job(ds, a, { workerId: m, day, number: 1, tsCreated: 50, placeUid: placeId }, `A${newId().slice(1)}`);
    const second = await job(ds, a, { workerId: m, day, number: 1, tsCreated: 50 }, `B${first.slice(1)}`);
    await job(ds, a, { workerId: m, day, archived: true });
    await job(ds, a, { workerId: m, day, template: true });
    await job(ds, a, { workerId: m, day: day + 1 });
    await job(ds, b, { workerId: m, day }); // another company's job naming a's member

    const rows = await read.dayJobs(a, [m], day);
    expect(rows.map((r) => r.id)).toEqual([first, second, third]);
    // a soft-deleted place still gives the job its position (the job still names it)
    expect(rows[0].lat).toBeCloseTo(46.05, 9);
    expect(rows[0].lng).toBeCloseTo(14.5, 9);
    expect(rows[1]).toMatchObject({ lat: null, lng: null });
    expect(rows[2]).toEqual({
      id: third,
      workerId: m,
      day,
      number: 2,
      tsCreated: 10,
      tsDoneSuccess: 0,
      tsDoneFailed: 0,
      teamId: 4,
      itemsToPickup: 1,
      itemsToDropoff: 2,
      lat: 46,
      lng: 14,
    });
    expect(await read.dayJobs(a, [], day)).toEqual([]);
    expect(await read.dayJobs(b, [m], day + 1)).toEqual([]);

    // under the rows' locks, in the caller's transaction: the same rows in the same order
    const locked = await ds.transaction((db) => read.dayJobs(a, [m], day, { lock: true, db }));
    expect(locked).toEqual(rows);
  });
});
