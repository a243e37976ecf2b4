import { action, createCompany, createMember, TestApi, TestCompany } from '../support/api';
import { useWorkerStack } from '../support/worker-stack';

/**
 * Dispatch's `method: "zones"` with real zones (CONTRACTS.md "Dispatch", "Alerts and zones";
 * docs/zones.md): the BUILT worker computes the runs and reads zones through `ZonesService.zonesAt`.
 * distributejobs makes one cluster per first linked zone (the oldest covering zone), else per team;
 * autoassign gives a job lying in zones with teams only to a worker of one of those teams. Needs
 * `npm run build` (scripts/test.sh does it).
 */
const PREFIX = `fieldwork-zones-dispatch-${process.pid}`;
process.env.QUEUE_PREFIX = PREFIX;

const DAY = 20300507;
/** A closed rectangle ring [lng, lat]. */
const rect = (west: number, south: number, east: number, north: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [west, south],
      [east, south],
      [east, north],
      [west, north],
      [west, south],
    ],
  ],
});
/** Around Zagreb and around Split. */
const NORTH = rect(15.9, 45.75, 16.1, 45.9);
const SOUTH = rect(16.35, 43.45, 16.55, 43.6);

describe('dispatch with real zones', () => {
  const stack = useWorkerStack(PREFIX, { CPU_POOL_THREADS: '1' });
  let api: TestApi;
  beforeAll(() => ({ api } = stack));

  const call = <T = any>(name: string, data: unknown, key: string) => action<T>(api, name, data, { key });
  async function zone(c: TestCompany, name: string, polygon: unknown, teams: number[] = []): Promise<string> {
    const res = await call('createzone', { name, polygon, teams }, c.key);
    expect(res.body.status).toBe(0);
    return res.body.id as string;
  }
  async function jobs(c: TestCompany, specs: Array<{ lat: number; lng: number; teamId?: number }>): Promise<string[]> {
    const res = await call(
      'createjobs',
      {
        jobs: specs.map((s, i) => ({
          destinationName: `j${i}`,
          destinationLat: s.lat,
          destinationLng: s.lng,
          teamId: s.teamId ?? 0,
          day: DAY,
        })),
      },
      c.key,
    );
    expect(res.body.status).toBe(0);
    return (res.body.jobs as Array<{ id: string }>).map((j) => j.id);
  }
  const setTeams = async (c: TestCompany, ids: number[]) =>
    expect((await call('editcompany', { teams_config: ids.map((id) => ({ id, name: `Team ${id}` })) }, c.key)).body.status).toBe(0);

  it('distributejobs zones: one cluster per first linked zone (the oldest covering one), jobs outside zones by team', async () => {
    const c = await createCompany(api, { timezone: 'Europe/Zagreb' });
    await setTeams(c, [5]);
    const north = await zone(c, 'North', NORTH);
    await zone(c, 'South', SOUTH);
    // a newer zone inside North: its jobs still go with North, their first linked zone
    await zone(c, 'North core', rect(15.95, 45.8, 16.0, 45.85));
    const ids = await jobs(c, [
      { lat: 45.81, lng: 15.97 }, // North and North core
      { lat: 45.76, lng: 15.91 }, // North
      { lat: 45.89, lng: 16.09 }, // North
      { lat: 43.5, lng: 16.4 }, // South
      { lat: 43.55, lng: 16.5 }, // South
      { lat: 45.55, lng: 18.69, teamId: 5 }, // no zone, team 5
      { lat: 45.56, lng: 18.7 }, // no zone, team 0
    ]);
    const linked = await call('getjobs', { ids }, c.key);
    expect(linked.body.jobs.find((j: { id: string }) => j.id === ids[0]).linkedZones).toMatch(new RegExp(`^${north},`));

    const res = await call('distributejobs', { jobs: Object.fromEntries(ids.map((id) => [id, {}])), method: 'zones' }, c.key);
    expect(res.body.status).toBe(0);
    const groups = (res.body.clusters as Array<{ jobs: string[]; method: string }>).map((k) => [...k.jobs].sort());
    expect(groups.sort((a, b) => a[0].localeCompare(b[0]))).toEqual(
      [[ids[0], ids[1], ids[2]].sort(), [ids[3], ids[4]].sort(), [ids[5]], [ids[6]]].sort((a, b) => a[0].localeCompare(b[0])),
    );
    expect(res.body.clusters.every((k: { method: string }) => k.method === 'zones')).toBe(true);
  });

  it('autoassign zones: a job in zones with teams goes only to a worker of those teams; none available → unassigned with the reason', async () => {
    const c = await createCompany(api, { timezone: 'Europe/Zagreb' });
    await setTeams(c, [1, 2, 3]);
    const start = { route_start_lat: 45.8, route_start_lng: 15.95 };
    const one = await createMember(api, c, { role: 'worker', teams: [1] });
    const two = await createMember(api, c, { role: 'worker', teams: [2] });
    for (const m of [one, two]) expect((await call('editaccount', { uid: m.uid, ...start }, c.key)).body.status).toBe(0);
    await zone(c, 'North (team 2)', NORTH, [2]);
    await zone(c, 'South (team 3)', SOUTH, [3]);
    const [inNorth, inSouth, outside] = await jobs(c, [
      { lat: 45.81, lng: 15.97 },
      { lat: 43.5, lng: 16.4 },
      { lat: 45.0, lng: 15.0 },
    ]);
    const res = await call(
      'autoassign',
      { jobs: [inNorth, inSouth, outside], workers: [one.username, two.username], method: 'zones', day: DAY },
      c.key,
    );
    expect(res.body.status).toBe(0);
    expect(res.body.assignedJobs).toEqual([inNorth, outside]);
    expect(res.body.unassignedJobs).toEqual([inSouth]);
    expect(res.body.reasons[inSouth]).toMatch(/zones' teams \(3\)/);
    const byId = new Map((res.body.jobs as Array<{ id: string; worker: string }>).map((j) => [j.id, j.worker]));
    expect(byId.get(inNorth)).toBe(two.username);
    expect([one.username, two.username]).toContain(byId.get(outside));

    // zones are read when the run computes: without the South zone its job is anyone's
    const southId = (await call('getzones', {}, c.key)).body.zones.find((z: { name: string }) => z.name.startsWith('South')).id;
    expect((await call('deletezone', { id: southId }, c.key)).body.status).toBe(0);
    const again = await call('autoassign', { jobs: [inSouth], workers: [one.username, two.username], method: 'zones', day: DAY }, c.key);
    expect(again.body).toMatchObject({ status: 0, assignedJobs: [inSouth], unassignedJobs: [] });
  });
});
