import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import type { Fix } from '../fix';
import { IngestRepository } from '../ingest/ingest.repository';
import { monthStart } from '../ingest/partitions';
import { readGeofenceEvaluations } from './places-geofence.read';

const company = { timezone: 'UTC', defaultRadius: 100, dwellSeconds: 60 };
const fix = (ts: number, lat: number, lng: number): Fix => ({ ts, lat, lng, acc: 5, dir: null, spd: null, elv: null, bat: 50 });

describe('readGeofenceEvaluations (PostgreSQL)', () => {
  let ds: DataSource;
  let a: string;
  let b: string;
  const T = Date.UTC(2026, 0, 15, 12);
  const day = 20260115;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
    await new IngestRepository(ds).ensurePartitions([monthStart(T)]);
  });
  afterAll(() => ds.destroy());

  async function place(companyId: string, lat: number, lng: number, radius = 0, deleted = false): Promise<string> {
    const id = newId();
    await ds.query(
      `INSERT INTO places (id, company_id, name, location, radius, created_at, deleted_at)
       VALUES ($1, $2, 'p', ST_SetSRID(ST_MakePoint($4, $3), 4326)::geography, $5, 0, $6)`,
      [id, companyId, lat, lng, radius, deleted ? 1 : null],
    );
    return id;
  }
  async function job(
    companyId: string,
    workerId: string,
    d: number,
    dest: { lat: number; lng: number } | null,
    placeUid = '',
  ): Promise<string> {
    const id = newId();
    await ds.query(
      `INSERT INTO jobs (id, company_id, worker_id, day, destination_lat, destination_lng, place_uid, ts_saved, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0)`,
      [id, companyId, workerId, d, dest?.lat ?? null, dest?.lng ?? null, placeUid],
    );
    return id;
  }

  it("reads each member's fixes, the places near its new fixes or with a state, and its jobs of those days — per company", async () => {
    const m = await createIntMember(ds, a);
    const other = await createIntMember(ds, a);
    await new IngestRepository(ds).insertFixes(ds, a, m, T, [fix(T - 60_000, 46, 14), fix(T, 46.0001, 14), fix(T + 60_000, 47, 15)]);
    const near = await place(a, 46.0005, 14, 0); // ~55 m from the first two fixes: within the default 100 m
    const wide = await place(a, 46.01, 14, 2000); // ~1.1 km, its own radius 2 km
    const far = await place(a, 10, 10); // only through placeIds
    await place(a, 46, 14, 0, true); // deleted
    await place(b, 46, 14); // another company's
    const jobAtPlace = await job(a, m, day, null, near);
    const jobDest = await job(a, m, day, { lat: 47, lng: 15 });
    await job(a, m, day + 1, { lat: 46, lng: 14 }); // another day
    await job(a, other, day, { lat: 46, lng: 14 }); // another member's

    const [read, none] = await readGeofenceEvaluations(ds, [
      { companyId: a, memberId: m, afterTs: T - 60_000, untilTs: T + 60_000, fenceAfterTs: T - 60_000, company, placeIds: [far] },
      { companyId: b, memberId: m, afterTs: 0, untilTs: T * 2, fenceAfterTs: 0, company, placeIds: [] },
    ]);
    // afterTs < ts ≤ untilTs
    expect(read.fixes).toEqual([
      { ts: T, lat: 46.0001, lng: 14, acc: 5, bat: 50 },
      { ts: T + 60_000, lat: 47, lng: 15, acc: 5, bat: 50 },
    ]);
    expect(read.places.map((p) => [p.id, p.radius]).sort()).toEqual(
      [
        [near, 100],
        [wide, 2000],
        [far, 100],
      ].sort(),
    );
    expect(read.jobs.map((j) => [j.id, j.day, j.lat, j.lng, j.radius]).sort()).toEqual(
      [
        [jobAtPlace, day, 46.0005, 14, 100],
        [jobDest, day, 47, 15, 100],
      ].sort(),
    );
    expect(none).toEqual({ fixes: [], places: [], jobs: [] });
    expect(await readGeofenceEvaluations(ds, [])).toEqual([]);
  });
});
