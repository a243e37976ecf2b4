import { AuthContext, dayInZone, invalid, OutboxService, RunContext, RunKindRegistry, zonedDayTimeToMs } from '@app/core';
import { JobEdit, JobsService, JobView, JobWriteDto } from '@app/jobs';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { AssignOutput } from '../assign';
import type { GeoPoint } from '../types';
import { memberWorksOn } from './autoassign-availability';
import { nameIds } from '../distribute/distribute.kind';
import { DispatchZoneSource } from '../distribute/zone-source.service';
import type { AutoassignMethod } from '../dto/autoassign.dto';
import { AssignmentPlan, planAssignment, PlanJob } from './autoassign-plan';
import { JobsAutoassignRead } from './jobs-autoassign.read';
import { LatestLocationsRead } from '../locations-latest.read';
import { DispatchCompanyRow, DispatchMemberRow, MembersAutoassignRead } from './members-autoassign.read';

/** autoassign's run parameters (validated by the api's DTO), with the caller (the jobs are written as it). */
export interface AutoassignParams {
  auth: AuthContext;
  jobs: string[];
  workers: string[];
  method: AutoassignMethod;
  pickupCapacity?: number;
  dropoffCapacity?: number;
  day?: number;
}

/** autoassign's answer (spec "autoassign"; `reasons` is our extension). */
export interface AutoassignAnswer {
  /** ids, input order */
  assignedJobs: string[];
  /** ids, input order */
  unassignedJobs: string[];
  /** the assigned jobs after the write, in `assignedJobs`' order */
  jobs: JobView[];
  /** job id → why it was not assigned */
  reasons: Record<string, string>;
}

interface Computed {
  /** job id → worker id and the day an undated job gets, in route order ({@link inRouteOrder}) */
  assigned: Array<{ jobId: string; workerId: string; day?: number }>;
  reasons: Record<string, string>;
}

declare module '@app/core' {
  interface RunKinds {
    autoassign: { params: AutoassignParams; result: AutoassignAnswer };
  }
}

/** The seed of the assignment's search: the same call on the same data answers the same. */
export const ASSIGN_SEED = 1;

/** The plan's answer: who takes which job, why the others are left, and the order of the routes. */
export interface PlanOutcome extends Pick<AssignOutput, 'assigned' | 'unassigned'> {
  /** assigned job id → its rank in its worker's route of its day (the search's order, existing jobs left out) */
  routeRank: Map<string, number>;
}

/**
 * Runs the plan's days through the CPU pool's `dispatch.assign` and merges the answers with the plan's
 * own unassigned jobs.
 */
export async function runPlan(plan: AssignmentPlan, ctx: RunContext): Promise<PlanOutcome> {
  const out: PlanOutcome = { assigned: {}, unassigned: { ...plan.unassigned }, routeRank: new Map() };
  for (const { input } of plan.days) {
    const day = await ctx.cpu.run('dispatch.assign', input);
    Object.assign(out.assigned, day.assigned);
    Object.assign(out.unassigned, day.unassigned);
    for (const route of Object.values(day.routes)) route.forEach((id, rank) => out.routeRank.set(id, rank));
  }
  return out;
}

/**
 * `items` in their jobs' route order ({@link PlanOutcome.routeRank}; ties and unranked keep their
 * order): job writes number the jobs they land on a worker-day in the order they are given, so the
 * new jobs follow the search's route after the worker's existing ones.
 */
export function inRouteOrder<T>(items: T[], rank: ReadonlyMap<string, number>, idOf: (item: T) => string): T[] {
  const r = (item: T) => rank.get(idOf(item)) ?? Number.MAX_SAFE_INTEGER;
  return items.map((item, i) => ({ item, i })).sort((a, b) => r(a.item) - r(b.item) || a.i - b.i).map((x) => x.item);
}

/** `worksOn` of a plan: the availability rules for members of `company` (time zone included). */
export function worksOnFor(company: DispatchCompanyRow): (member: DispatchMemberRow, day: number) => boolean {
  return (member, day) => memberWorksOn(member, company, day, zonedDayTimeToMs(day, 0, company.timezone));
}

/**
 * The `autoassign` run kind (CONTRACTS.md "Dispatch"): reads the jobs and the named workers, decides
 * who works on each job's day, places the jobs (`dispatch.assign`: capacities, method), and writes
 * `worker`/`tsAssigned` (and the day of undated jobs) with their `jobupdated` events in the run's
 * writing transaction, through `JobsService.editJobs` — which gives the jobs it lands on a worker-day
 * that worker-day's next route numbers, in the search's route order.
 */
@Injectable()
export class AutoassignKind implements OnModuleInit {
  constructor(
    private readonly registry: RunKindRegistry,
    private readonly jobRows: JobsAutoassignRead,
    private readonly memberRows: MembersAutoassignRead,
    private readonly locations: LatestLocationsRead,
    private readonly zones: DispatchZoneSource,
    private readonly jobs: JobsService,
    private readonly outbox: OutboxService,
  ) {}

  onModuleInit(): void {
    this.registry.register('autoassign', {
      compute: (params, ctx) => this.compute(params, ctx),
      write: async (manager, computed: Computed & { params: AutoassignParams }, ctx) => {
        const { params } = computed;
        const published: string[] = [];
        const edits: JobEdit[] = computed.assigned.map(({ jobId, workerId, day }) => {
          const fields = Object.assign(new JobWriteDto(), day ? { receiverUid: workerId, day } : { receiverUid: workerId });
          const path = `data.jobs[${params.jobs.indexOf(jobId)}]`;
          return { id: jobId, write: { path, fields, custom: [], extra: {}, keys: Object.keys(fields) } };
        });
        const views = edits.length ? await this.jobs.editJobs(params.auth, { jobs: edits, notify: false }, { db: manager, published }) : [];
        ctx.afterCommit(() => this.outbox.wake(published));
        const assigned = new Set(computed.assigned.map((a) => a.jobId));
        const byId = new Map(views.map((v) => [v.id, v]));
        const assignedJobs = params.jobs.filter((id) => assigned.has(id));
        return {
          assignedJobs,
          unassignedJobs: params.jobs.filter((id) => !assigned.has(id)),
          jobs: assignedJobs.map((id) => byId.get(id)!),
          reasons: computed.reasons,
        };
      },
    });
  }

  /**
   * @throws DomainError invalid naming `data.jobs` (unknown ids, another company's too) or
   *   `data.workers` (unknown usernames/uids) — up to 10 of them named.
   */
  async compute(params: AutoassignParams, ctx: RunContext): Promise<Computed & { params: AutoassignParams }> {
    const companyId = ctx.companyId;
    const rows = new Map((await this.jobRows.jobsByIds(companyId, params.jobs)).map((r) => [r.id, r]));
    const unknownJobs = params.jobs.filter((id) => !rows.has(id));
    if (unknownJobs.length) throw invalid('data.jobs', `unknown job ids: ${nameIds(unknownJobs)}`);
    const members = await this.memberRows.membersByRefs(companyId, params.workers);
    const byRef = new Map<string, DispatchMemberRow>();
    for (const m of members) {
      byRef.set(m.id, m);
      byRef.set(m.username.toLowerCase(), m);
    }
    const unknownWorkers = params.workers.filter((w) => !byRef.has(w) && !byRef.has(w.toLowerCase()));
    if (unknownWorkers.length) throw invalid('data.workers', `unknown workers: ${nameIds(unknownWorkers)}`);
    const seen = new Set<string>();
    const candidates: DispatchMemberRow[] = [];
    for (const ref of params.workers) {
      const m = byRef.get(ref) ?? byRef.get(ref.toLowerCase())!;
      if (m.active && !seen.has(m.id)) candidates.push(m);
      seen.add(m.id);
    }

    const company = await this.memberRows.company(companyId);
    const today = dayInZone(Date.now(), company.timezone);
    const reasons: Record<string, string> = {};
    const open: Array<{
      id: string;
      day: number;
      undated: boolean;
      point: GeoPoint | null;
      pickup: number;
      dropoff: number;
      teamId: number;
    }> = [];
    for (const id of params.jobs) {
      const row = rows.get(id)!;
      if (row.archived) reasons[id] = 'the job is archived';
      else if (row.completed) reasons[id] = 'the job is completed';
      else
        open.push({
          id,
          day: params.day ?? (row.day || today),
          undated: row.day === 0,
          point: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
          pickup: row.itemsToPickup,
          dropoff: row.itemsToDropoff,
          teamId: row.teamId,
        });
    }
    if (!candidates.length) for (const job of open) reasons[job.id] = 'none of the named workers is active';
    const placeable = candidates.length ? open : [];
    const zones =
      params.method === 'zones'
        ? await this.zones.zonesOf(
            companyId,
            placeable.map((j) => j.point),
          )
        : [];
    const jobs: PlanJob[] = placeable.map((j, i) => ({ ...j, zoneTeams: zones[i]?.teams ?? [] }));
    const days = [...new Set(jobs.map((j) => j.day))];
    const ids = candidates.map((c) => c.id);
    const plan = planAssignment({
      method: params.method,
      jobs,
      workers: candidates,
      company,
      existing: await this.jobRows.existingJobs(companyId, ids, days, params.jobs),
      latest: days.includes(today) ? await this.locations.latestLocations(companyId, ids) : new Map(),
      today,
      worksOn: worksOnFor(company),
      pickupCapacity: params.pickupCapacity,
      dropoffCapacity: params.dropoffCapacity,
      seed: ASSIGN_SEED,
    });
    const out = await runPlan(plan, ctx);
    Object.assign(reasons, out.unassigned);
    const undated = new Map(placeable.filter((j) => j.undated).map((j) => [j.id, j.day]));
    const assigned = params.jobs
      .filter((id) => out.assigned[id] !== undefined)
      .map((jobId) => ({ jobId, workerId: out.assigned[jobId], day: undated.get(jobId) }));
    return { assigned: inRouteOrder(assigned, out.routeRank, (a) => a.jobId), reasons, params };
  }
}
