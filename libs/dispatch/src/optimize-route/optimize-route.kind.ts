import { dayInZone, DomainError, invalid, NotificationsService, OutboxService, RunContext, RunKindRegistry } from '@app/core';
import { JobsService } from '@app/jobs';
import { CompanyService, MembersService } from '@app/members';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { LatestLocationsRead } from '../locations-latest.read';
import { planRoute, routeFingerprint, routeOrder } from '../route/optimize-route.plan';
import { companyRouteEnds, resolveRouteEnds, RouteEnds } from '../route/route-ends';
import { JobsDayRead } from './jobs-day.read';
import { OptimizeRouteAnswer, OptimizeRouteParams } from './optimize-route.types';

/** What `compute` hands to `write`: the new order and what it was computed from. */
interface ComputedRoute {
  memberId: string;
  day: number;
  isToday: boolean;
  /** job ids, new order */
  order: string[];
  /** {@link routeFingerprint} of the jobs `compute` read */
  fingerprint: string;
}

/**
 * The `optimizeroute` run kind, in the worker (CONTRACTS.md "Dispatch", "Worker results"). It trusts
 * the run's parameters for what the api checked (the member, the caller's access, the company's
 * location for `startEndAtCompany`: see `OptimizeRouteService`) and reads only what the search needs:
 * - `compute` reads the member's day (jobs with coordinates; its route ends — the member's and its
 *   teams' route starts, its latest location on today) and runs the route search in the CPU pool
 *   (`dispatch.solveTour`), outside any transaction;
 * - `write`, in the run's writing transaction after the deadline check, re-reads the day's jobs
 *   under their row locks and the worker-day's lock (`JobsService.lockRouteDays`), and refuses
 *   (-4/409, nothing written) when a job was added, removed, moved or completed meanwhile; else it
 *   sets `number` 1..n in the new order (one `jobupdated` per job whose number changed) and, when
 *   the day is today and the order changed, writes one `route_changed` notification for the member
 *   — all committed with the run or not at all.
 */
@Injectable()
export class OptimizeRouteKind implements OnModuleInit {
  constructor(
    private readonly registry: RunKindRegistry,
    private readonly members: MembersService,
    private readonly company: CompanyService,
    private readonly dayJobs: JobsDayRead,
    private readonly locations: LatestLocationsRead,
    private readonly jobs: JobsService,
    private readonly notifications: NotificationsService,
    private readonly outbox: OutboxService,
  ) {}

  onModuleInit(): void {
    this.registry.register<'optimizeroute', ComputedRoute>('optimizeroute', {
      compute: (params, ctx) => this.compute(params, ctx),
      write: (manager, computed, ctx) => this.write(manager, computed, ctx),
    });
  }

  private async compute(params: OptimizeRouteParams, ctx: RunContext): Promise<ComputedRoute> {
    const { memberId } = params;
    // the run's company and (deactivated or not) member: neither is ever deleted
    const company = await this.company.byId(ctx.companyId);
    if (!company) throw new Error(`optimizeroute: company ${ctx.companyId} not found`);
    const isToday = params.day === dayInZone(Date.now(), company.timezone);
    let ends: RouteEnds;
    if (params.startEndAtCompany) {
      // a run queued by an api of the previous release carries no companyLocation (rolling deploys):
      // the company's stored location stands in for it, as that api's worker read it
      const location = params.companyLocation ?? (company.locationLat != null && company.locationLng != null ? { lat: company.locationLat, lng: company.locationLng } : null);
      if (!location) throw invalid('data.startEndAtCompany', 'the company has no location: set it with editcompany {location: {lat, lng}}');
      ends = companyRouteEnds(location);
    }
    else {
      const member = await this.members.findByAccount(ctx.companyId, memberId);
      if (!member) throw new Error(`optimizeroute: member ${memberId} not found`);
      const latest = isToday ? (await this.locations.latestLocations(ctx.companyId, [memberId])).get(memberId) : null;
      ends = resolveRouteEnds({ member, teamsConfig: company.teamsConfig, latest: latest ?? null, isToday });
    }
    const jobs = await this.dayJobs.dayJobs(ctx.companyId, [memberId], params.day);
    const plan = planRoute(jobs, ends);
    const solved = plan.options ? await ctx.cpu.run('dispatch.solveTour', { points: plan.points, options: plan.options }) : null;
    return {
      memberId,
      day: params.day,
      isToday,
      order: routeOrder(plan, solved?.order ?? null),
      fingerprint: routeFingerprint(jobs),
    };
  }

  private async write(manager: EntityManager, computed: ComputedRoute, ctx: RunContext): Promise<OptimizeRouteAnswer> {
    const read = () => this.dayJobs.dayJobs(ctx.companyId, [computed.memberId], computed.day, { lock: true, db: manager });
    // the day's row locks first, then the worker-day's lock (the order job writes take them in), then
    // the day again: a job a write landed on it before the lock is seen, and none lands until commit
    await read();
    await this.jobs.lockRouteDays(manager, ctx.companyId, [{ workerId: computed.memberId, day: computed.day }]);
    const now = await read();
    if (routeFingerprint(now) !== computed.fingerprint) {
      throw new DomainError(
        'exists',
        'data.day: the jobs of that route changed while it was being optimized (a job added, removed, moved or completed); nothing was changed: call again',
        'data.day',
      );
    }
    const numbers = new Map(computed.order.map((id, i) => [id, i + 1]));
    const { views, changed, eventIds } = await this.jobs.setRouteNumbers(manager, ctx.companyId, numbers);
    if (computed.isToday && changed.length) {
      // the job the worker goes to next: the first open one of the new order
      const next = computed.order.find((id) => !isDone(views.get(id))) ?? computed.order[0];
      await this.notifications.add(manager, { companyId: ctx.companyId, memberId: computed.memberId, kind: 'route_changed', jobId: next });
    }
    ctx.afterCommit(() => this.outbox.wake(eventIds));
    return { jobs: computed.order.map((id) => views.get(id)!) };
  }
}

const isDone = (v: { tsDoneSuccess: number; tsDoneFailed: number } | undefined) => !!v && (v.tsDoneSuccess > 0 || v.tsDoneFailed > 0);
