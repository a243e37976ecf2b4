import { groupBy } from '@app/core/pure';
import type { AssignInput, AssignJob, AssignWorker } from '../assign';
import type { GeoPoint } from '../types';
import { resolveRouteEnds } from '../route/route-ends';
import type { ExistingJobRow } from './jobs-autoassign.read';
import type { DispatchCompanyRow, DispatchMemberRow } from './members-autoassign.read';

/** A job to place: its effective day (YYYYMMDD), where it is, its load and its team. */
export interface PlanJob {
  id: string;
  day: number;
  point: GeoPoint | null;
  pickup: number;
  dropoff: number;
  /** 0 = no team */
  teamId: number;
  /** the teams of the zones the job lies in (method `zones`); empty = no zone with teams */
  zoneTeams: number[];
}

/** What {@link planAssignment} needs; all reads done, nothing of Nest. */
export interface PlanInput {
  method: AssignInput['method'];
  jobs: PlanJob[];
  /** the candidates: active members, each once, in the order named */
  workers: DispatchMemberRow[];
  company: DispatchCompanyRow;
  /** the candidates' jobs already on the days concerned (not the jobs being placed) */
  existing: ExistingJobRow[];
  /** members' latest positions (a route start on today) */
  latest: Map<string, GeoPoint>;
  /** YYYYMMDD in the company's time zone */
  today: number;
  /** whether `member` works on `day` (availability rules, CONTRACTS.md "Dispatch") */
  worksOn: (member: DispatchMemberRow, day: number) => boolean;
  /** request overrides of each worker's capacity per kind; undefined = its `vehicle_capacity` */
  pickupCapacity?: number;
  dropoffCapacity?: number;
  /** createjobs with autoassign: a job with a `teamId` goes only to that team's workers (any method) */
  teamLimited?: boolean;
  seed?: number;
}

/** One call of the assignment per day, and the jobs already known to be unplaceable. */
export interface AssignmentPlan {
  days: Array<{ day: number; input: AssignInput }>;
  /** job id → reason */
  unassigned: Record<string, string>;
}

/**
 * Splits autoassign's jobs by day and builds each day's {@link AssignInput}: the workers available that
 * day (with their start, end, capacities and existing jobs) and, per job, the workers allowed to take
 * it (`eligible`): method `zones` — workers sharing the job's `teamId` (0 = any) and, when the job lies
 * in zones with teams, of one of those teams; `teamLimited` — workers of the job's team when it has one.
 * Jobs nobody may take on their day come back in `unassigned` with the reason; `assignJobs` decides
 * the rest (capacities, coordinates, distance).
 */
export function planAssignment(input: PlanInput): AssignmentPlan {
  const unassigned: Record<string, string> = {};
  const byDay = groupBy(input.jobs, (job) => job.day);
  const existingOf = groupBy(input.existing, (e) => `${e.workerId}:${e.day}`);
  const days: AssignmentPlan['days'] = [];
  for (const [day, jobs] of byDay) {
    const available = input.workers.filter((w) => input.worksOn(w, day));
    if (!available.length) {
      for (const job of jobs) unassigned[job.id] = `no named worker is available on ${day}`;
      continue;
    }
    const workers: AssignWorker[] = available.map((w) => {
      // the routes autoassign minimises start and end where optimizeroute's would
      const ends = resolveRouteEnds({
        member: { ...w, teams: w.teams ?? [] },
        teamsConfig: input.company.teamsConfig ?? [],
        latest: input.latest.get(w.id) ?? null,
        isToday: day === input.today,
      });
      return {
        id: w.id,
        start: ends.start,
        end: ends.end,
        pickupCapacity: input.pickupCapacity ?? w.vehicleCapacity ?? null,
        dropoffCapacity: input.dropoffCapacity ?? w.vehicleCapacity ?? null,
        existing: (existingOf.get(`${w.id}:${day}`) ?? []).map((e) => ({
          point: e.lat !== null && e.lng !== null ? { lat: e.lat, lng: e.lng } : null,
          pickup: e.itemsToPickup,
          dropoff: e.itemsToDropoff,
        })),
      };
    });
    const assignJobs: AssignJob[] = [];
    for (const job of jobs) {
      const eligible = eligibleWorkers(job, available, input);
      if (eligible && !eligible.length) {
        unassigned[job.id] =
          input.method === 'zones' && job.zoneTeams.length
            ? `no available worker of its zones' teams (${job.zoneTeams.join(', ')})${job.teamId ? ` in team ${job.teamId}` : ''} on ${day}`
            : `no available worker in team ${job.teamId} on ${day}`;
        continue;
      }
      assignJobs.push({ id: job.id, point: job.point, pickup: job.pickup, dropoff: job.dropoff, eligible });
    }
    if (assignJobs.length) days.push({ day, input: { jobs: assignJobs, workers, method: input.method, seed: input.seed } });
  }
  return { days, unassigned };
}

/** The ids of the workers allowed to take `job`, or null when any available worker may. */
function eligibleWorkers(job: PlanJob, available: DispatchMemberRow[], input: PlanInput): string[] | null {
  const byTeam = (input.method === 'zones' || input.teamLimited) && job.teamId !== 0;
  const byZone = input.method === 'zones' && job.zoneTeams.length > 0;
  if (!byTeam && !byZone) return null;
  return available
    .filter((w) => (!byTeam || w.teams.includes(job.teamId)) && (!byZone || w.teams.some((t) => job.zoneTeams.includes(t))))
    .map((w) => w.id);
}
