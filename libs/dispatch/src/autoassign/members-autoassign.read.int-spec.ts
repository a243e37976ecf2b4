import { DataSource } from 'typeorm';
import { createIntCompany, createIntMember, openIntegrationDb } from '@test/support/integration';
import { MembersAutoassignRead } from './members-autoassign.read';

describe('MembersAutoassignRead (PostgreSQL)', () => {
  let ds: DataSource;
  let read: MembersAutoassignRead;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    read = new MembersAutoassignRead(ds);
  });
  afterAll(() => ds.destroy());

  it('finds members by uid or username (case-insensitive), active or not, in the company only', async () => {
    const { companyId: a, ownerId } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const ana = await createIntMember(ds, a, { username: `Ana-${a}@int.test`, teams: [3, 1] });
    const gone = await createIntMember(ds, a);
    await ds.query(
      `UPDATE members SET active_status = 'inactive', vehicle_capacity = 12, working_hours = $2::jsonb, working_hours_overrides = $3::jsonb,
              ignore_working_hours_until_ts = 5000, route_start_lat = 46, route_start_lng = 14.5, route_end_lat = 46.1, route_end_lng = 14.6
        WHERE id = $1`,
      [gone, JSON.stringify({ mon: { start: '08:00', end: '16:00' } }), JSON.stringify({ '20260101': { start: '00:00', end: '00:00' } })],
    );
    const other = await createIntMember(ds, b);

    // another company's member is never found, neither by uid nor by username (usernames are unique across companies)
    const rows = await read.membersByRefs(a, [`ANA-${a}@INT.TEST`, gone, other, `m-${other.toLowerCase()}@int.test`, 'nobody']);
    expect(rows.map((r) => r.id).sort()).toEqual([ana, gone].sort());
    expect(rows.find((r) => r.id === ana)).toMatchObject({ role: 'worker', active: true, teams: [3, 1], vehicleCapacity: null, routeStartLat: null });
    expect(rows.find((r) => r.id === gone)).toEqual({
      id: gone,
      username: expect.any(String),
      role: 'worker',
      active: false,
      teams: [],
      vehicleCapacity: 12,
      workingHours: { mon: { start: '08:00', end: '16:00' } },
      workingHoursOverrides: { '20260101': { start: '00:00', end: '00:00' } },
      ignoreWorkingHoursUntilTs: 5000,
      routeStartLat: 46,
      routeStartLng: 14.5,
      routeEndLat: 46.1,
      routeEndLng: 14.6,
    });
    expect(await read.membersByRefs(a, [ownerId])).toHaveLength(1);
  });

  it("lists the company's active workers in id order (not admins, not deactivated, not another company's)", async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    const w1 = await createIntMember(ds, a);
    const w2 = await createIntMember(ds, a);
    await createIntMember(ds, a, { role: 'operator' });
    const off = await createIntMember(ds, a);
    await ds.query(`UPDATE members SET active_status = 'inactive' WHERE id = $1`, [off]);
    await createIntMember(ds, b);
    expect((await read.activeWorkers(a)).map((r) => r.id)).toEqual([w1, w2].sort());
  });

  it("reads the company's time zone, working hours and teams", async () => {
    const { companyId } = await createIntCompany(ds, { timezone: 'Europe/Ljubljana' });
    await ds.query(`UPDATE companies SET teams_config = $2::jsonb WHERE id = $1`, [companyId, JSON.stringify([{ id: 1, name: 'North' }])]);
    expect(await read.company(companyId)).toEqual({ timezone: 'Europe/Ljubljana', workingHours: null, teamsConfig: [{ id: 1, name: 'North' }] });
  });
});
