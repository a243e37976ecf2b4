import fc from 'fast-check';
import { planAssignment, PlanInput, PlanJob } from './autoassign-plan';
import type { DispatchCompanyRow, DispatchMemberRow } from './members-autoassign.read';

const company: DispatchCompanyRow = { timezone: 'UTC', workingHours: null, teamsConfig: [{ id: 7, name: 'T', route: { lat: 1, lng: 2 } }] };

function member(id: string, over: Partial<DispatchMemberRow> = {}): DispatchMemberRow {
  return {
    id,
    username: `${id}@x.test`,
    role: 'worker',
    active: true,
    teams: [],
    vehicleCapacity: null,
    workingHours: null,
    workingHoursOverrides: {},
    ignoreWorkingHoursUntilTs: 0,
    routeStartLat: null,
    routeStartLng: null,
    routeEndLat: null,
    routeEndLng: null,
    ...over,
  };
}

const job = (id: string, over: Partial<PlanJob> = {}): PlanJob => ({
  id,
  day: 20300506,
  point: { lat: 45, lng: 15 },
  pickup: 1,
  dropoff: 0,
  teamId: 0,
  zoneTeams: [],
  ...over,
});

const base = (over: Partial<PlanInput>): PlanInput => ({
  method: 'distance',
  jobs: [],
  workers: [],
  company,
  existing: [],
  latest: new Map(),
  today: 20300101,
  worksOn: () => true,
  ...over,
});

describe('planAssignment (autoassign’s days, workers and eligibility)', () => {
  it('one assignment per day, with only the workers available that day', () => {
    const plan = planAssignment(
      base({
        jobs: [job('a', { day: 20300506 }), job('b', { day: 20300507 })],
        workers: [member('w1'), member('w2')],
        worksOn: (m, day) => !(m.id === 'w2' && day === 20300507),
      }),
    );
    expect(plan.days.map((d) => [d.day, d.input.workers.map((w) => w.id), d.input.jobs.map((j) => j.id)])).toEqual([
      [20300506, ['w1', 'w2'], ['a']],
      [20300507, ['w1'], ['b']],
    ]);
    expect(plan.unassigned).toEqual({});
  });

  it('a day nobody works: its jobs come back with the reason', () => {
    const plan = planAssignment(base({ jobs: [job('a')], workers: [member('w1')], worksOn: () => false }));
    expect(plan.days).toEqual([]);
    expect(plan.unassigned.a).toMatch(/no named worker is available on 20300506/);
  });

  it('capacities: the request’s, else vehicle_capacity, else unlimited; existing jobs of that day only', () => {
    const plan = planAssignment(
      base({
        jobs: [job('a')],
        workers: [member('w1', { vehicleCapacity: 4 }), member('w2')],
        existing: [
          { workerId: 'w1', day: 20300506, lat: 45, lng: 15, itemsToPickup: 2, itemsToDropoff: 0 },
          { workerId: 'w1', day: 20300507, lat: 45, lng: 15, itemsToPickup: 9, itemsToDropoff: 0 },
        ],
        dropoffCapacity: 3,
      }),
    );
    const [w1, w2] = plan.days[0].input.workers;
    expect([w1.pickupCapacity, w1.dropoffCapacity, w2.pickupCapacity, w2.dropoffCapacity]).toEqual([4, 3, null, 3]);
    expect(w1.existing).toEqual([{ point: { lat: 45, lng: 15 }, pickup: 2, dropoff: 0 }]);
    expect(w2.existing).toEqual([]);
  });

  it('route starts: own, else the first team’s route, else the latest position on today only', () => {
    const own = member('own', { routeStartLat: 5, routeStartLng: 6, routeEndLat: 7, routeEndLng: 8, teams: [7] });
    const team = member('team', { teams: [3, 7] });
    const located = member('located');
    const latest = new Map([['located', { lat: 9, lng: 9 }]]);
    const on = (day: number) =>
      planAssignment(base({ jobs: [job('a', { day })], workers: [own, team, located], latest, today: 20300506 })).days[0].input.workers;
    expect(on(20300506).map((w) => [w.start, w.end ?? null])).toEqual([
      [
        { lat: 5, lng: 6 },
        { lat: 7, lng: 8 },
      ],
      [{ lat: 1, lng: 2 }, null],
      [{ lat: 9, lng: 9 }, null],
    ]);
    expect(on(20300507)[2].start).toBeNull();
  });

  it('zones: only workers sharing the job’s team (0 = any) and of its zones’ teams; teamLimited limits by team for any method', () => {
    const workers = [member('t1', { teams: [1] }), member('t2', { teams: [2] }), member('t12', { teams: [1, 2] })];
    const zones = planAssignment(
      base({
        method: 'zones',
        workers,
        jobs: [
          job('any'),
          job('team1', { teamId: 1 }),
          job('zone2', { zoneTeams: [2] }),
          job('team1zone2', { teamId: 1, zoneTeams: [2] }),
          job('team3', { teamId: 3 }),
        ],
      }),
    );
    const eligible = Object.fromEntries(zones.days[0].input.jobs.map((j) => [j.id, j.eligible ?? null]));
    expect(eligible).toEqual({ any: null, team1: ['t1', 't12'], zone2: ['t2', 't12'], team1zone2: ['t12'] });
    expect(zones.unassigned.team3).toMatch(/team 3/);

    const distance = planAssignment(base({ workers, jobs: [job('team1', { teamId: 1 })] }));
    expect(distance.days[0].input.jobs[0].eligible).toBeNull();
    const limited = planAssignment(base({ workers, jobs: [job('team1', { teamId: 1 })], teamLimited: true }));
    expect(limited.days[0].input.jobs[0].eligible).toEqual(['t1', 't12']);
  });

  it('every job is either handed to a day’s assignment or unassigned with a reason, never both (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ day: fc.integer({ min: 0, max: 2 }), teamId: fc.integer({ min: 0, max: 3 }), zone: fc.integer({ min: 0, max: 3 }) }),
          { maxLength: 30 },
        ),
        fc.array(fc.record({ teams: fc.subarray([1, 2, 3]), off: fc.subarray([0, 1, 2]) }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('distance' as const, 'size' as const, 'zones' as const),
        (specs, ws, method) => {
          const jobs = specs.map((s, i) => job(`j${i}`, { day: 20300506 + s.day, teamId: s.teamId, zoneTeams: s.zone ? [s.zone] : [] }));
          const workers = ws.map((w, i) => member(`w${i}`, { teams: w.teams }));
          const off = new Map(ws.map((w, i) => [`w${i}`, new Set(w.off.map((d) => 20300506 + d))]));
          const plan = planAssignment(base({ method, jobs, workers, worksOn: (m, day) => !off.get(m.id)!.has(day) }));
          const handed = plan.days.flatMap((d) => d.input.jobs.map((j) => j.id));
          const left = Object.keys(plan.unassigned);
          expect([...handed, ...left].sort()).toEqual(jobs.map((j) => j.id).sort());
          for (const d of plan.days) {
            const available = new Set(d.input.workers.map((w) => w.id));
            for (const w of d.input.workers) expect(off.get(w.id)!.has(d.day)).toBe(false);
            for (const j of d.input.jobs) for (const e of j.eligible ?? []) expect(available.has(e)).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
