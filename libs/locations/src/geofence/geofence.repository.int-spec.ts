import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { readEventWho } from '../members-who.read';
import { GeofenceRepository } from './geofence.repository';

describe('GeofenceRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: GeofenceRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new GeofenceRepository(ds);
    a = (await createIntCompany(ds, { timezone: 'Europe/Ljubljana' })).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(() => ds.destroy());

  it("locks (creating) members' state rows with their company's settings, in the order asked; saves states per company and member", async () => {
    const m1 = await createIntMember(ds, a);
    const m2 = await createIntMember(ds, b);
    const locked = await repo.transaction((db) =>
      repo.lockStates(db, [
        { companyId: b, memberId: m2 },
        { companyId: a, memberId: m1 },
        { companyId: 'NO-SUCH-COMPANY', memberId: m1 },
      ]),
    );
    expect(locked).toEqual([
      { evaluatedTs: 0, state: { fences: {} }, company: { timezone: 'UTC', defaultRadius: expect.any(Number), dwellSeconds: 60 } },
      {
        evaluatedTs: 0,
        state: { fences: {} },
        company: { timezone: 'Europe/Ljubljana', defaultRadius: expect.any(Number), dwellSeconds: 60 },
      },
      { evaluatedTs: 0, state: { fences: {} }, company: null },
    ]);

    const fences = { 'p:X': { inside: true, inTs: 5, runTs: 5, lastInTs: 6, lastTs: 6 } };
    await repo.transaction((db) =>
      repo.saveStates(db, [
        { companyId: a, memberId: m1, evaluatedTs: 42, state: { fences } },
        { companyId: b, memberId: m1, evaluatedTs: 43, state: { fences: {} } }, // no such row: nothing
      ]),
    );
    const again = await repo.transaction((db) =>
      repo.lockStates(db, [
        { companyId: a, memberId: m1 },
        { companyId: b, memberId: m2 },
      ]),
    );
    expect(again.map((l) => [l.evaluatedTs, l.state])).toEqual([
      [42, { fences }],
      [0, { fences: {} }],
    ]);
    await repo.transaction((db) => repo.saveStates(db, []));
  });

  it('opens and closes check-ins of a place or a job, only the open visit of the member in its company', async () => {
    const m = await createIntMember(ds, a);
    await repo.openCheckIn(ds, a, m, { placeId: 'P1' }, 1000);
    await repo.openCheckIn(ds, a, m, { jobId: 'J1' }, 1500);
    await repo.openCheckIn(ds, b, m, { placeId: 'P1' }, 1000);
    await repo.closeCheckIn(ds, a, m, { placeId: 'P1' }, 999, 3000); // another visit: nothing
    await repo.closeCheckIn(ds, a, m, { placeId: 'P1' }, 1000, 4000);
    await repo.closeCheckIn(ds, a, m, { jobId: 'J1' }, 1500, 2500);
    await repo.closeCheckIn(ds, a, m, { jobId: 'J1' }, 1500, 9999); // already closed: nothing
    const rows = await ds.query(
      `SELECT company_id, place_id, job_id, in_ts::float8 AS "in", out_ts::float8 AS "out", duration::float8 AS duration
         FROM checkins WHERE member_id = $1 ORDER BY company_id = $2 DESC, in_ts`,
      [m, a],
    );
    expect(rows).toEqual([
      { company_id: a, place_id: 'P1', job_id: null, in: 1000, out: 4000, duration: 3000 },
      { company_id: a, place_id: null, job_id: 'J1', in: 1500, out: 2500, duration: 1000 },
      { company_id: b, place_id: 'P1', job_id: null, in: 1000, out: null, duration: null },
    ]);
  });

  it("reads an event's who (members) within the company", async () => {
    const m = await createIntMember(ds, a, { name: 'Ana', username: `ana-${Date.now()}@int.test` });
    expect(await readEventWho(ds, a, m)).toEqual({ uid: m, name: 'Ana', username: expect.stringMatching(/^ana-/) });
    expect(await readEventWho(ds, b, m)).toBeUndefined();
  });
});
