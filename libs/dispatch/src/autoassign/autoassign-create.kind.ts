import { AuthContext, dayInZone, OutboxService, RunContext, RunKindRegistry } from '@app/core';
import { JobsService, JobView, JobWrite, JobWriteDto } from '@app/jobs';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { GeoPoint } from '../types';
import { planAssignment, PlanJob } from './autoassign-plan';
import { ASSIGN_SEED, inRouteOrder, runPlan, worksOnFor } from './autoassign.kind';
import { JobsAutoassignRead } from './jobs-autoassign.read';
import { LatestLocationsRead } from '../locations-latest.read';
import { MembersAutoassignRead } from './members-autoassign.read';
import { PlacesAutoassignRead } from './places-autoassign.read';

/** createjobs with `autoassign: true`: the validated writes and the caller (the jobs are created as it). */
export interface CreateJobsAutoassignParams {
  auth: AuthContext;
  writes: JobWrite[];
  sendRouteChange?: boolean;
}

/** createjobs' answer with autoassign: `jobs` as createjobs answers them, and the ones no one could take. */
export interface CreateJobsAutoassignAnswer {
  /** one per input, in input order (as createjobs) */
  jobs: JobView[];
  /** ids of the jobs created (or merged) unassigned because no worker could take them, input order */
  unassignedJobs: string[];
  /** job id → why (our extension, as autoassign's) */
  reasons: Record<string, string>;
}

interface Computed {
  /** input index → worker id, and the day an undated job gets, in route order ({@link inRouteOrder}) */
  assigned: Array<{ index: number; workerId: string; day?: number }>;
  /** input index → reason */
  reasons: Record<number, string>;
}

declare module '@app/core' {
  interface RunKinds {
    'createjobs.autoassign': { params: CreateJobsAutoassignParams; result: CreateJobsAutoassignAnswer };
  }
}

/** Whether a write names its assignee itself (then autoassign leaves it as sent). */
const namesAssignee = (w: JobWrite) => w.fields.worker !== undefined || w.fields.receiverUid !== undefined;

/**
 * The `createjobs.autoassign` run kind (CONTRACTS.md "Dispatch"): autoassign's method `distance` over
 * every active worker of the company (a job with a `teamId` only to that team's), then ONE
 * transaction — the run's writing one — creates the jobs with their assignees (`JobsService.createJobs`
 * inside it), so a run past its deadline creates nothing. Jobs that name their assignee keep it; jobs
 * no one can take are created unassigned and listed in `unassignedJobs`.
 */
@Injectable()
export class CreateJobsAutoassignKind implements OnModuleInit {
  constructor(
    private readonly registry: RunKindRegistry,
    private readonly jobRows: JobsAutoassignRead,
    private readonly memberRows: MembersAutoassignRead,
    private readonly locations: LatestLocationsRead,
    private readonly places: PlacesAutoassignRead,
    private readonly jobs: JobsService,
    private readonly outbox: OutboxService,
  ) {}

  onModuleInit(): void {
    this.registry.register('createjobs.autoassign', {
      compute: (params, ctx) => this.compute(params, ctx),
      write: async (manager, computed: Computed & { params: CreateJobsAutoassignParams }, ctx) => {
        const { params } = computed;
        const writes = params.writes.map((w) => ({ ...w, fields: Object.assign(new JobWriteDto(), w.fields) }));
        for (const { index, workerId, day } of computed.assigned) {
          writes[index].fields.receiverUid = workerId;
          if (day) writes[index].fields.day = day;
        }
        const published: string[] = [];
        // the assigned inputs get their route numbers in the search's route order
        const numberOrder = computed.assigned.map((a) => a.index);
        const { jobs } = await this.jobs.createJobs(
          params.auth,
          { jobs: writes, sendRouteChange: params.sendRouteChange, numberOrder },
          'api',
          { db: manager, published },
        );
        ctx.afterCommit(() => this.outbox.wake(published));
        const unassignedJobs: string[] = [];
        const reasons: Record<string, string> = {};
        for (const [index, reason] of Object.entries(computed.reasons)) {
          const id = jobs[Number(index)].id;
          unassignedJobs.push(id);
          reasons[id] = reason;
        }
        return { jobs, unassignedJobs, reasons };
      },
    });
  }

  async compute(params: CreateJobsAutoassignParams, ctx: RunContext): Promise<Computed & { params: CreateJobsAutoassignParams }> {
    const companyId = ctx.companyId;
    const company = await this.memberRows.company(companyId);
    const today = dayInZone(Date.now(), company.timezone);
    const open = params.writes.map((w, index) => ({ w, index })).filter(({ w }) => !namesAssignee(w));
    const places = await this.places.placeLocations(companyId, [
      ...new Set(open.map(({ w }) => w.fields.placeUid).filter((p): p is string => !!p)),
    ]);
    const jobs: PlanJob[] = open.map(({ w, index }) => {
      const f = w.fields;
      const own: GeoPoint | null =
        typeof f.destinationLat === 'number' && typeof f.destinationLng === 'number'
          ? { lat: f.destinationLat, lng: f.destinationLng }
          : null;
      return {
        id: String(index),
        day: f.day || today,
        point: own ?? (f.placeUid ? (places.get(f.placeUid) ?? null) : null),
        pickup: f.itemsToPickup ?? 0,
        dropoff: f.itemsToDropoff ?? 0,
        teamId: f.teamId ?? 0,
        zoneTeams: [],
      };
    });
    const workers = await this.memberRows.activeWorkers(companyId);
    const reasons: Record<number, string> = {};
    if (!workers.length) {
      for (const j of jobs) reasons[Number(j.id)] = 'the company has no active worker';
      return { assigned: [], reasons, params };
    }
    const days = [...new Set(jobs.map((j) => j.day))];
    const ids = workers.map((w) => w.id);
    const plan = planAssignment({
      method: 'distance',
      jobs,
      workers,
      company,
      existing: await this.jobRows.existingJobs(companyId, ids, days, []),
      latest: days.includes(today) ? await this.locations.latestLocations(companyId, ids) : new Map(),
      today,
      worksOn: worksOnFor(company),
      teamLimited: true,
      seed: ASSIGN_SEED,
    });
    const out = await runPlan(plan, ctx);
    for (const [id, reason] of Object.entries(out.unassigned)) reasons[Number(id)] = reason;
    const assigned = jobs
      .filter((j) => out.assigned[j.id] !== undefined)
      .map((j) => {
        const index = Number(j.id);
        return { index, workerId: out.assigned[j.id], day: params.writes[index].fields.day ? undefined : j.day };
      })
      .sort((a, b) => a.index - b.index);
    return { assigned: inRouteOrder(assigned, out.routeRank, (a) => String(a.index)), reasons, params };
  }
}
